package innkeep

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/innkeep/innkeep-go/webhook"
)

// The client against a real, running server (clients/live-tests.sh starts one); skipped unless
// INNKEEP_LIVE_URL is set. The variables are those of clients/live-server.mjs.

func live(t *testing.T) (string, context.Context) {
	t.Helper()
	u := os.Getenv("INNKEEP_LIVE_URL")
	if u == "" {
		t.Skip("INNKEEP_LIVE_URL is not set")
	}
	return u, context.Background()
}

func unique() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type liveHotel struct{ property, roomType, ratePlan string }

var nights atomic.Int32

func sandboxHotel(t *testing.T, ctx context.Context, c *Client) liveHotel {
	t.Helper()
	props, err := c.Properties.List(ctx, nil)
	if err != nil || len(props.Data) == 0 {
		t.Fatalf("no sandbox property: %v", err)
	}
	h := liveHotel{property: props.Data[0].Id}
	limit := 100
	for rt, err := range c.RoomTypes.ListAutoPaging(ctx, &ListRoomTypesParams{PropertyId: &h.property, Limit: &limit}) {
		if err != nil {
			t.Fatal(err)
		}
		if rt.Code == "KING" {
			h.roomType = rt.Id
		}
	}
	for rp, err := range c.RatePlans.ListAutoPaging(ctx, &ListRatePlansParams{PropertyId: &h.property, Limit: &limit}) {
		if err != nil {
			t.Fatal(err)
		}
		if rp.Code == "BAR" {
			h.ratePlan = rp.Id
		}
	}
	return h
}

// booking is a stay with only the required fields, on nights of its own (after the Python suite's).
func booking(h liveHotel, email string) *CreateReservationJSONRequestBody {
	start := NewDate(time.Now().UTC().Year(), time.Now().UTC().Month(), time.Now().UTC().Day()).AddDays(320 + int(nights.Add(1)))
	b := &CreateReservationJSONRequestBody{PropertyId: h.property, CheckIn: start, CheckOut: start.AddDays(1), RoomTypeId: h.roomType, RatePlanId: h.ratePlan, Adults: 1}
	b.Guest.FirstName, b.Guest.LastName, b.Guest.Email = "Ada", "Lovelace", &email
	return b
}

func reservationsOf(t *testing.T, ctx context.Context, c *Client, email string) []string {
	guests, err := c.Guests.List(ctx, &ListGuestsParams{Email: &email})
	if err != nil {
		t.Fatal(err)
	}
	ids := []string{}
	for _, g := range guests.Data {
		for r, err := range c.Reservations.ListAutoPaging(ctx, &ListReservationsParams{GuestId: &g.Id}) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, r.Id)
		}
	}
	return ids
}

func TestLiveBooksAStayAndReplaysAKey(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u), WithEnvironment("sandbox"))
	h := sandboxHotel(t, ctx, c)
	stay, err := c.Reservations.Create(ctx, booking(h, "go-"+unique()+"@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	info := c.LastResponse()
	if stay.Status != "confirmed" || stay.Children != 0 || stay.Source != "api" || info.Status != 201 || info.Attempts != 1 || !uuid4Pattern.MatchString(info.IdempotencyKey) || !strings.HasPrefix(info.RequestID, "req_") {
		t.Fatalf("%+v %+v", stay, info)
	}
	if again, err := c.Reservations.Retrieve(ctx, stay.Id); err != nil || again.Id != stay.Id {
		t.Fatal(err)
	}
	if cancelled, err := c.Reservations.Cancel(ctx, stay.Id, nil); err != nil || cancelled.Status != "cancelled" {
		t.Fatal(err)
	}
	body := booking(h, "go-replay-"+unique()+"@example.com")
	first, err1 := c.Reservations.Create(ctx, body, WithIdempotencyKey("go-"+unique()))
	key := c.LastResponse().IdempotencyKey
	second, err2 := c.Reservations.Create(ctx, body, WithIdempotencyKey(key))
	if err1 != nil || err2 != nil || first.Id != second.Id || !c.LastResponse().IdempotentReplayed {
		t.Fatalf("%v %v", err1, err2)
	}
	if ids := reservationsOf(t, ctx, c, *body.Guest.Email); len(ids) != 1 {
		t.Fatalf("%d reservations", len(ids))
	}
}

func TestLiveIssuesAnInvoiceForACancelledStayAndDownloadsItsPdf(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u), WithEnvironment("sandbox"))
	h := sandboxHotel(t, ctx, c)
	stay, err := c.Reservations.Create(ctx, booking(h, "go-invoice-"+unique()+"@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	// A free cancellation leaves the folio empty, and an empty folio is not invoiced (409): with a
	// charge on it, the cancellation closes the folio into its invoice.
	if _, err := c.Folios.CreateCharge(ctx, stay.FolioId, &CreateFolioChargeJSONRequestBody{Description: "Minibar", Amount: 1500}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Reservations.Cancel(ctx, stay.Id, nil); err != nil {
		t.Fatal(err)
	}
	folio, err := c.Reservations.RetrieveFolio(ctx, stay.Id)
	if err != nil {
		t.Fatal(err)
	}
	if folio.InvoiceId == nil {
		t.Fatalf("the cancelled stay's folio has no invoice: %+v", folio)
	}
	invoice, err := c.Invoices.Retrieve(ctx, *folio.InvoiceId)
	if err != nil || invoice.FolioId != folio.Id || invoice.Number < 1 {
		t.Fatalf("%+v %v", invoice, err)
	}
	if again, err := c.Invoices.Retrieve(ctx, invoice.Id); err != nil || again.Number != invoice.Number {
		t.Fatal(err)
	}
	document, err := c.Invoices.RetrievePdf(ctx, invoice.Id)
	if err != nil || !strings.HasPrefix(string(document), "%PDF-") || !strings.HasPrefix(c.LastResponse().Header.Get("Content-Type"), "application/pdf") {
		t.Fatalf("%.20q %v", document, err)
	}
	var e *Error
	if _, err := c.Invoices.RetrievePdf(ctx, "inv_doesnotexist"); !errors.As(err, &e) || e.Kind != KindNotFound || e.Code != "resource_missing" {
		t.Fatal(err)
	}
	if _, err := c.Folios.CreateInvoice(ctx, folio.Id, nil); !errors.As(err, &e) || e.Kind != KindConflict || e.Code != "invalid_state_transition" {
		t.Fatal(err)
	}
}

// TestLiveGroupsTaxesUpgradesAndAGuestsExportAndErasure calls each new resource once, its answer
// decoded into the generated struct of the document.
func TestLiveGroupsTaxesUpgradesAndAGuestsExportAndErasure(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u), WithEnvironment("sandbox"))
	h := sandboxHotel(t, ctx, c)
	stay := booking(h, "go-group-"+unique()+"@example.com")
	group := &CreateGroupJSONRequestBody{PropertyId: h.property, CheckIn: stay.CheckIn, CheckOut: stay.CheckOut}
	group.Guest.FirstName, group.Guest.LastName, group.Guest.Email = "Ada", "Lovelace", stay.Guest.Email
	// Rooms is a slice of an anonymous struct: two of them, then filled in.
	if err := json.Unmarshal([]byte(`{"rooms":[{},{}]}`), group); err != nil {
		t.Fatal(err)
	}
	for i := range group.Rooms {
		group.Rooms[i].RoomTypeId, group.Rooms[i].RatePlanId, group.Rooms[i].Adults = h.roomType, h.ratePlan, 1
	}
	g, err := c.Groups.Create(ctx, group)
	if err != nil || len(g.Reservations) != 2 || g.CheckIn != stay.CheckIn {
		t.Fatalf("%+v %v", g, err)
	}
	if again, err := c.Groups.Retrieve(ctx, g.Id); err != nil || again.Name != g.Name {
		t.Fatal(err)
	}
	reason := "Plans changed"
	if cancelled, err := c.Groups.Cancel(ctx, g.Id, &CancelGroupJSONRequestBody{Reason: &reason}); err != nil || cancelled.Id != g.Id {
		t.Fatal(err)
	}

	percentage, inclusive, inactive := float32(7.5), true, false
	tax, err := c.Taxes.Create(ctx, &CreateTaxJSONRequestBody{PropertyId: h.property, Name: "Go " + unique(), Kind: "percentage", Percentage: &percentage, Inclusive: &inclusive})
	if err != nil || tax.Kind != "percentage" || tax.Percentage == nil || *tax.Percentage != 7.5 || !tax.Inclusive || !tax.Active {
		t.Fatalf("%+v %v", tax, err)
	}
	// Inactive again at once: the sandbox hotel's prices stay those of the other suites.
	if updated, err := c.Taxes.Update(ctx, tax.Id, &UpdateTaxJSONRequestBody{Active: &inactive}); err != nil || updated.Active {
		t.Fatal(err)
	}
	if again, err := c.Taxes.Retrieve(ctx, tax.Id); err != nil || again.Name != tax.Name {
		t.Fatal(err)
	}

	reservation, err := c.Reservations.Create(ctx, booking(h, "go-erase-"+unique()+"@example.com"))
	if err != nil {
		t.Fatal(err)
	}
	// A complimentary upgrade to another room type of the hotel: the type changes, the price does not.
	var other *RoomType
	hundred := 100
	for rt, err := range c.RoomTypes.ListAutoPaging(ctx, &ListRoomTypesParams{PropertyId: &h.property, Limit: &hundred}) {
		if err != nil {
			t.Fatal(err)
		}
		if rt.Id != h.roomType && rt.RoomCount > 0 {
			other = &rt
			break
		}
	}
	if other == nil {
		t.Fatal("the sandbox hotel has no second room type with rooms")
	}
	upgraded, err := c.Reservations.Upgrade(ctx, reservation.Id, &UpgradeReservationJSONRequestBody{RoomTypeId: other.Id, Charge: None})
	if err != nil || upgraded.RoomTypeId != other.Id || upgraded.Total != reservation.Total {
		t.Fatalf("%+v %v", upgraded, err)
	}
	exported, err := c.Guests.Export(ctx, reservation.Guest.Id)
	if err != nil || exported.Guest.Id != reservation.Guest.Id || len(exported.Reservations) != 1 || exported.Reservations[0].Id != reservation.Id {
		t.Fatalf("%+v %v", exported, err)
	}
	erased, err := c.Guests.Erase(ctx, reservation.Guest.Id, &EraseGuestJSONRequestBody{Confirm: EraseGuestJSONBodyConfirmTrue})
	if err != nil || erased.ErasedAt == nil || erased.Email != nil {
		t.Fatalf("%+v %v", erased, err)
	}
}

func newGuest(t *testing.T, ctx context.Context, c *Client, label string) *Guest {
	t.Helper()
	g, err := c.Guests.Create(ctx, &CreateGuestJSONRequestBody{FirstName: "Walk", LastName: label, Email: "go-walk-" + label + "-" + unique() + "@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestLiveWalksMoreThanThreePagesWhileRowsAreInserted(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u))
	for i := range 11 {
		newGuest(t, ctx, c, "before"+string(rune('a'+i)))
	}
	hundred, three := 100, 3
	before := []string{}
	for g, err := range c.Guests.ListAutoPaging(ctx, &ListGuestsParams{Limit: &hundred}) {
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, g.Id)
	}
	seen := []string{}
	for g, err := range c.Guests.ListAutoPaging(ctx, &ListGuestsParams{Limit: &three}) {
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, g.Id)
		newGuest(t, ctx, c, "during") // newer than every cursor: never met by the walk
	}
	if len(seen) <= 9 || strings.Join(seen, ",") != strings.Join(before, ",") {
		t.Fatalf("walked %d, before %d: a duplicate, a gap or a row out of order", len(seen), len(before))
	}
}

func TestLiveA429IsRetriedAfterRetryAfter(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_SLOW_KEY"), WithBaseURL(u))
	time.Sleep(1100 * time.Millisecond)
	if _, err := c.Guests.List(ctx, nil); err != nil {
		t.Fatal(err)
	}
	started := time.Now()
	if _, err := c.Guests.List(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if info := c.LastResponse(); info.Status != 200 || info.Attempts != 2 || time.Since(started) < 900*time.Millisecond {
		t.Fatalf("%+v after %s", info, time.Since(started))
	}
	_, err := c.Guests.List(ctx, nil, WithRequestMaxRetries(0))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindRateLimit || e.Code != "too_many_requests" || e.RetryAfter < time.Second {
		t.Fatalf("%v", err)
	}
}

// dropProxy forwards to the server and loses the next `drops` answers after the server sent them.
func dropProxy(t *testing.T, target string) (string, *atomic.Int32, *atomic.Int32) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var drops, dropped atomic.Int32
	go func() {
		for {
			down, err := ln.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", strings.TrimPrefix(target, "http://"))
			if err != nil {
				down.Close()
				continue
			}
			go func() { _, _ = io.Copy(up, down) }()
			go func() {
				defer down.Close()
				defer up.Close()
				buf := make([]byte, 65536)
				for {
					n, err := up.Read(buf)
					if n > 0 {
						if drops.Load() > 0 {
							drops.Add(-1)
							dropped.Add(1)
							return
						}
						if _, err := down.Write(buf[:n]); err != nil {
							return
						}
					}
					if err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + ln.Addr().String(), &drops, &dropped
}

func TestLiveAConnectionDroppedAfterCommitBooksExactlyOnce(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u), WithEnvironment("sandbox"))
	proxyURL, drops, dropped := dropProxy(t, strings.TrimRight(u, "/"))
	proxied := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(proxyURL), WithEnvironment("sandbox"), WithHTTPClient(&http.Client{Transport: &http.Transport{}}))
	body := booking(sandboxHotel(t, ctx, c), "go-drop-"+unique()+"@example.com")
	drops.Store(1)
	stay, err := proxied.Reservations.Create(ctx, body)
	if err != nil || dropped.Load() != 1 {
		t.Fatalf("%v, dropped %d", err, dropped.Load())
	}
	if info := proxied.LastResponse(); info.Attempts != 2 || !info.IdempotentReplayed {
		t.Fatalf("%+v", info)
	}
	if ids := reservationsOf(t, ctx, c, *body.Guest.Email); len(ids) != 1 || ids[0] != stay.Id {
		t.Fatalf("%v", ids)
	}
}

func TestLiveTypedErrors(t *testing.T) {
	u, ctx := live(t)
	kind := func(err error) Kind {
		var e *Error
		if !errors.As(err, &e) || e.RequestID == "" {
			t.Fatalf("not an *Error with a request id: %v", err)
		}
		return e.Kind
	}
	_, err := NewClient("hk_not_a_real_key", WithBaseURL(u)).Guests.List(ctx, nil)
	if kind(err) != KindAuthentication {
		t.Fatal(err)
	}
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u), WithEnvironment("sandbox"))
	h := sandboxHotel(t, ctx, c)
	_, err = NewClient(os.Getenv("INNKEEP_LIVE_LIMITED_KEY"), WithBaseURL(u), WithEnvironment("sandbox")).Reservations.Create(ctx, booking(h, "go-403@example.com"))
	if var403 := kind(err); var403 != KindPermission || err.(*Error).Code != "insufficient_scope" || err.(*Error).Status != 403 {
		t.Fatal(err)
	}
	_, err = c.Reservations.Retrieve(ctx, "res_doesnotexist000000000000")
	if kind(err) != KindNotFound || err.(*Error).Code != "resource_missing" || !err.(*Error).IsInvalidRequest() {
		t.Fatal(err)
	}
	_, err = c.Reservations.Create(ctx, booking(h, ""))
	if e := err.(*Error); kind(err) != KindInvalidRequest || e.Status != 422 || e.Param != "guest.email" {
		t.Fatal(err)
	}
	// Every missing field of one request, each with its param (the contract's error list).
	err = c.Do(ctx, "POST", "/reservations", nil, map[string]any{}, nil)
	var params []string
	if e := err.(*Error); kind(err) == KindInvalidRequest && e.Code == "parameter_missing" {
		for _, f := range e.Errors {
			if f.Code != "parameter_missing" || f.Message == "" {
				t.Fatalf("%+v", f)
			}
			params = append(params, f.Param)
		}
	}
	if want := "property_id guest check_in check_out room_type_id rate_plan_id adults"; strings.Join(params, " ") != want {
		t.Fatalf("errors %v, want %v (%v)", params, want, err)
	}
}

func TestLiveVerifiesRealDeliveriesAndRotation(t *testing.T) {
	u, ctx := live(t)
	c := NewClient(os.Getenv("INNKEEP_LIVE_API_KEY"), WithBaseURL(u))
	var mu sync.Mutex
	type delivery struct {
		header string
		body   []byte
	}
	var deliveries []delivery
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		deliveries = append(deliveries, delivery{r.Header.Get("Service-Signature"), body})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer receiver.Close()
	endpoint, err := c.WebhookEndpoints.Create(ctx, &CreateWebhookEndpointJSONRequestBody{Url: receiver.URL + "/go", EnabledEvents: []CreateWebhookEndpointJSONBodyEnabledEvents{"guest.created"}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = c.WebhookEndpoints.Delete(ctx, endpoint.Id) }()
	waitFor := func(id string) delivery {
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			mu.Lock()
			for _, d := range deliveries {
				if strings.Contains(string(d.body), id) {
					mu.Unlock()
					return d
				}
			}
			mu.Unlock()
		}
		t.Fatalf("no delivery for %s", id)
		return delivery{}
	}
	guest := newGuest(t, ctx, c, "hooked")
	d := waitFor(guest.Id)
	event, err := webhook.ConstructEvent(d.body, d.header, endpoint.Secret)
	if err != nil || event.Type != "guest.created" {
		t.Fatalf("%v %v", event, err)
	}
	var refused *webhook.SignatureError
	if _, err := webhook.ConstructEvent([]byte(strings.Replace(string(d.body), "hooked", "hacked", 1)), d.header, endpoint.Secret); !errors.As(err, &refused) || refused.Reason != webhook.NoMatchingSignature {
		t.Fatalf("tampered: %v", err)
	}
	expires := 3600
	rotated, err := c.WebhookEndpoints.RotateSecret(ctx, endpoint.Id, &RotateWebhookSecretJSONRequestBody{ExpiresInSeconds: &expires})
	if err != nil {
		t.Fatal(err)
	}
	later := newGuest(t, ctx, c, "rotated")
	d = waitFor(later.Id)
	if strings.Count(d.header, "v1=") != 2 {
		t.Fatalf("header %s", d.header)
	}
	for _, secret := range []string{endpoint.Secret, rotated.Secret} {
		if _, err := webhook.ConstructEvent(d.body, d.header, secret); err != nil {
			t.Fatal(err)
		}
	}
}

// The README's example runs as written against the server: it books in the sandbox, holds a
// deposit on a test card, captures it and pays the rest in cash (issue 40, point 4).
func TestLiveExampleBooksAndPaysInTheSandbox(t *testing.T) {
	u, ctx := live(t)
	run := exec.CommandContext(ctx, "go", "run", "./examples/book-a-stay")
	run.Env = append(os.Environ(), "INNKEEP_API_KEY="+os.Getenv("INNKEEP_LIVE_API_KEY"), "INNKEEP_BASE_URL="+u)
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(string(out), "booked res_") || !strings.Contains(string(out), "captured true") {
		t.Fatalf("%s", out)
	}
}
