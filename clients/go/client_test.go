package innkeep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

var uuid4Pattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestSendsCredentialEnvironmentVersionAndKey(t *testing.T) {
	s := &script{answers: []answer{
		{Status: 200, Body: json.RawMessage(`{"id":"res_1","object":"reservation","check_in":"2026-12-24"}`), Headers: map[string]string{"Service-Request-Id": "req_1", "X-RateLimit-Limit": "100"}},
		{Status: 201, Body: json.RawMessage(`{"id":"gst_1"}`)},
		{Status: 200, Body: json.RawMessage(`{}`)},
	}}
	c := scripted(s, nil, WithEnvironment("sandbox"), WithVersion("2025-09-01"))
	ctx := context.Background()
	r, err := c.Reservations.Retrieve(ctx, "res_1")
	if err != nil || r.Id != "res_1" || r.CheckIn.String() != "2026-12-24" {
		t.Fatalf("%+v %v", r, err)
	}
	h := s.seen[0].req.Header
	if s.seen[0].req.URL.String() != "http://innkeep.test/v1/reservations/res_1" || h.Get("Authorization") != "Bearer hk_test" || h.Get("Service-Environment") != "sandbox" || h.Get("Service-Version") != "2025-09-01" || h.Get("Idempotency-Key") != "" {
		t.Fatalf("request %s %v", s.seen[0].req.URL, h)
	}
	if info := c.LastResponse(); info.RequestID != "req_1" || info.RateLimit.Limit != 100 || info.Attempts != 1 {
		t.Fatalf("%+v", info)
	}
	if _, err := c.Guests.Create(ctx, &CreateGuestJSONRequestBody{FirstName: "Ada", LastName: "Lovelace", Email: "ada@example.com"}); err != nil {
		t.Fatal(err)
	}
	if key := s.seen[1].req.Header.Get("Idempotency-Key"); !uuid4Pattern.MatchString(key) {
		t.Fatalf("key %q", key)
	}
	if _, err := c.Guests.Create(ctx, &CreateGuestJSONRequestBody{FirstName: "A", LastName: "B", Email: "a@example.com"}, WithIdempotencyKey("mine"), WithRequestEnvironment("live")); err != nil {
		t.Fatal(err)
	}
	if h := s.seen[2].req.Header; h.Get("Idempotency-Key") != "mine" || h.Get("Service-Environment") != "live" {
		t.Fatalf("%v", h)
	}
}

func TestQueryAndPathEncoding(t *testing.T) {
	s := &script{answers: []answer{{Status: 200, Body: json.RawMessage(`{"object":"list","data":[],"has_more":false}`)}, {Status: 200, Body: json.RawMessage(`{}`)}}}
	c := scripted(s, nil)
	status, from, limit := ListReservationsParamsStatus("confirmed"), NewDate(2026, time.January, 1), 5
	if _, err := c.Reservations.List(context.Background(), &ListReservationsParams{Status: &status, CheckInFrom: &from, Limit: &limit}); err != nil {
		t.Fatal(err)
	}
	if q := s.seen[0].req.URL.RawQuery; q != "check_in_from=2026-01-01&limit=5&status=confirmed" {
		t.Fatalf("query %s", q)
	}
	if _, err := c.WebhookEndpoints.RetrieveBackfill(context.Background(), "we_1", "bf/2"); err != nil {
		t.Fatal(err)
	}
	if p := s.seen[1].req.URL.EscapedPath(); p != "/v1/webhook_endpoints/we_1/backfills/bf%2F2" {
		t.Fatalf("path %s", p)
	}
	if _, err := c.Reservations.Retrieve(context.Background(), ""); err == nil {
		t.Fatal("an empty id must be refused")
	}
}

func TestACancelledContextIsNotRetried(t *testing.T) {
	s := &script{answers: []answer{{Timeout: true}, {Status: 200}}}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	c := scripted(s, nil, WithTimeout(time.Minute))
	_, err := c.Guests.List(ctx, nil)
	if !errors.Is(err, context.DeadlineExceeded) || len(s.seen) != 1 {
		t.Fatalf("%v after %d attempts", err, len(s.seen))
	}
}

func TestATimeoutPerAttemptIsRetriedThenATimeoutError(t *testing.T) {
	s := &script{answers: []answer{{Timeout: true}, {Timeout: true}}}
	_, err := scripted(s, nil, WithMaxRetries(1), WithTimeout(20*time.Millisecond)).Guests.List(context.Background(), nil)
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout || len(s.seen) != 2 {
		t.Fatalf("%v after %d attempts", err, len(s.seen))
	}
}

func TestAnAnswerThatIsNotTheAPIsSaysWhatCameInsteadAndFromWhere(t *testing.T) {
	from, _ := url.Parse("https://example.com/v1/rooms?limit=1")
	e := errorFromResponse(404, []byte("<html>\n  Not   Found</html>"), http.Header{"Content-Type": {"text/html; charset=utf-8"}}, from)
	if e.Kind != KindAPI || e.Code != "unexpected_response" || !strings.HasPrefix(e.Message, "https://example.com/v1/rooms answered HTTP 404 with text/html, starting '<html> Not Found</html>'") || !strings.Contains(e.Message, "base URL") {
		t.Fatalf("%+v", e)
	}
}

// pdf is the start of a PDF: binary and not UTF-8, so that a client reading it as text would change it.
const pdf = "%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n"

func TestAnInvoicePdfIsItsBytesExactlyAndItsErrorsAreTyped(t *testing.T) {
	s := &script{answers: []answer{
		{Status: 200, Text: pdf, Headers: map[string]string{"Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="Harbor-1.pdf"`}},
		{Status: 404, Body: json.RawMessage(`{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such invoice: 'inv_x'","param":"id"}}`)},
	}}
	c := scripted(s, nil)
	document, err := c.Invoices.RetrievePdf(context.Background(), "inv_1")
	if err != nil || string(document) != pdf {
		t.Fatalf("%q %v", document, err)
	}
	if r := s.seen[0].req; r.Method != "GET" || r.URL.String() != "http://innkeep.test/v1/invoices/inv_1/pdf" {
		t.Fatalf("%s %s", r.Method, r.URL)
	}
	_, err = c.Invoices.RetrievePdf(context.Background(), "inv_x")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindNotFound || e.Status != 404 || e.Code != "resource_missing" || e.Param != "id" {
		t.Fatalf("%v", err)
	}
}

// server is an httptest server answering with handle, counting and keeping the requests it saw.
type server struct {
	*httptest.Server
	mu   sync.Mutex
	seen []*http.Request
}

func serve(t *testing.T, handle func(n int, w http.ResponseWriter, r *http.Request)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Clone(context.Background()))
		n := len(s.seen)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		handle(n, w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []*http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*http.Request(nil), s.seen...)
}

// refuse answers 401 with an authentication error of the given code, as the server does.
func refuse(w http.ResponseWriter, code string) {
	w.WriteHeader(http.StatusUnauthorized)
	fmt.Fprintf(w, `{"error":{"type":"authentication_error","code":%q,"message":"The access token has expired.","request_id":"req_401"}}`, code)
}

const guestJSON = `{"id":"gst_1","object":"guest","first_name":"Ada","last_name":"Lovelace"}`

// An OAuth app's access token expires: the hook is called once, the call is sent again with the
// new token (the same Idempotency-Key for a POST), and later calls carry the new token without
// calling the hook again.
func TestTokenRefresherIsCalledOnceOnTokenExpiredAndTheRetryCarriesTheNewToken(t *testing.T) {
	srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer hat_new" {
			refuse(w, "token_expired")
			return
		}
		w.WriteHeader(http.StatusCreated)
		fmt.Fprint(w, guestJSON)
	})
	calls := 0
	c := NewClient("hat_old", WithBaseURL(srv.URL), WithMaxRetries(0), WithTokenRefresher(func(context.Context) (string, error) {
		calls++
		return "hat_new", nil
	}))
	g, err := c.Guests.Create(context.Background(), &CreateGuestJSONRequestBody{FirstName: "Ada", LastName: "Lovelace"})
	if err != nil || g.Id != "gst_1" {
		t.Fatalf("%+v %v", g, err)
	}
	seen := srv.requests()
	if calls != 1 || len(seen) != 2 {
		t.Fatalf("hook called %d times, %d requests", calls, len(seen))
	}
	if a, b := seen[0].Header, seen[1].Header; a.Get("Authorization") != "Bearer hat_old" || b.Get("Authorization") != "Bearer hat_new" || a.Get("Idempotency-Key") == "" || a.Get("Idempotency-Key") != b.Get("Idempotency-Key") {
		t.Fatalf("first %v, second %v", a, b)
	}
	if _, err := c.Guests.Retrieve(context.Background(), "gst_1"); err != nil {
		t.Fatal(err)
	}
	if seen := srv.requests(); calls != 1 || len(seen) != 3 || seen[2].Header.Get("Authorization") != "Bearer hat_new" {
		t.Fatalf("hook called %d times, %d requests", calls, len(seen))
	}
}

// A refreshed token that is refused again is the call's error: the hook is not called twice, and
// the refusal (not retryable) is not sent a third time, whatever the retry budget.
func TestASecondTokenExpiredIsReturnedAsTheError(t *testing.T) {
	srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) { refuse(w, "token_expired") })
	calls := 0
	c := NewClient("hat_old", WithBaseURL(srv.URL), WithMaxRetries(3), WithTokenRefresher(func(context.Context) (string, error) {
		calls++
		return fmt.Sprintf("hat_%d", calls), nil
	}))
	_, err := c.Guests.Retrieve(context.Background(), "gst_1")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindAuthentication || e.Status != 401 || e.Code != "token_expired" || e.RequestID != "req_401" {
		t.Fatalf("%v", err)
	}
	if seen := srv.requests(); calls != 1 || len(seen) != 2 || seen[1].Header.Get("Authorization") != "Bearer hat_1" {
		t.Fatalf("hook called %d times, %d requests", calls, len(seen))
	}
}

// The hook is only for an expired token: another 401 is returned at once, and so is a failing hook.
func TestTheRefresherIsOnlyForAnExpiredTokenAndItsErrorIsReturned(t *testing.T) {
	srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "gst_wrongkey") {
			refuse(w, "invalid_api_key")
			return
		}
		refuse(w, "token_expired")
	})
	calls := 0
	broken := errors.New("refresh token revoked")
	c := NewClient("hat_old", WithBaseURL(srv.URL), WithTokenRefresher(func(context.Context) (string, error) {
		calls++
		return "", broken
	}))
	_, err := c.Guests.Retrieve(context.Background(), "gst_wrongkey")
	var e *Error
	if !errors.As(err, &e) || e.Code != "invalid_api_key" || calls != 0 || len(srv.requests()) != 1 {
		t.Fatalf("%v, hook called %d times", err, calls)
	}
	_, err = c.Guests.Retrieve(context.Background(), "gst_1")
	if !errors.Is(err, broken) || !strings.Contains(err.Error(), "token_expired") || calls != 1 || len(srv.requests()) != 2 {
		t.Fatalf("%v, hook called %d times, %d requests", err, calls, len(srv.requests()))
	}
	// Without a refresher an expired token is the error, after one request.
	_, err = NewClient("hat_old", WithBaseURL(srv.URL)).Guests.Retrieve(context.Background(), "gst_1")
	if !errors.As(err, &e) || e.Code != "token_expired" || len(srv.requests()) != 3 {
		t.Fatalf("%v", err)
	}
}

// WithRequestTimeout bounds each attempt of one call, shorter or longer than the client's.
func TestAPerCallTimeoutOverridesTheClients(t *testing.T) {
	srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		wait := 2 * time.Second
		if r.URL.Query().Get("limit") == "1" {
			wait = 150 * time.Millisecond
		}
		select {
		case <-r.Context().Done():
			return
		case <-time.After(wait):
		}
		fmt.Fprint(w, `{"object":"list","data":[],"has_more":false}`)
	})
	c := NewClient("hk_test", WithBaseURL(srv.URL), WithTimeout(time.Minute), WithMaxRetries(0))
	started := time.Now()
	_, err := c.Guests.List(context.Background(), nil, WithRequestTimeout(50*time.Millisecond))
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindTimeout || e.Code != "timeout" || e.Status != 0 || !strings.Contains(e.Message, "50ms") {
		t.Fatalf("%v", err)
	}
	if elapsed := time.Since(started); elapsed > time.Second {
		t.Fatalf("the call took %s: the per-call timeout was not applied", elapsed)
	}
	// A client whose timeout is too short for this call succeeds with a longer one for it.
	short := NewClient("hk_test", WithBaseURL(srv.URL), WithTimeout(20*time.Millisecond), WithMaxRetries(0))
	limit := 1
	if _, err := short.Guests.List(context.Background(), &ListGuestsParams{Limit: &limit}); !errors.As(err, &e) || e.Kind != KindTimeout {
		t.Fatalf("the client's own timeout: %v", err)
	}
	if _, err := short.Guests.List(context.Background(), &ListGuestsParams{Limit: &limit}, WithRequestTimeout(5*time.Second)); err != nil {
		t.Fatalf("a longer per-call timeout: %v", err)
	}
	if n := len(srv.requests()); n != 3 {
		t.Fatalf("%d requests", n)
	}
}

// WithRequestMaxRetries sets one call's retry budget, above or below the client's.
func TestAPerCallRetryBudgetOverridesTheClients(t *testing.T) {
	srv := serve(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprint(w, `{"error":{"type":"api_error","code":"service_unavailable","message":"Try again."}}`)
	})
	noWait := func(context.Context, time.Duration) error { return nil }
	none := NewClient("hk_test", WithBaseURL(srv.URL), WithMaxRetries(0))
	none.sleep = noWait
	_, err := none.Guests.List(context.Background(), nil, WithRequestMaxRetries(3))
	var e *Error
	if !errors.As(err, &e) || e.Status != 503 || len(srv.requests()) != 4 || none.LastResponse().Attempts != 4 {
		t.Fatalf("%v after %d requests", err, len(srv.requests()))
	}
	many := NewClient("hk_test", WithBaseURL(srv.URL), WithMaxRetries(5))
	many.sleep = noWait
	_, err = many.Guests.List(context.Background(), nil, WithRequestMaxRetries(0))
	if !errors.As(err, &e) || e.Status != 503 || len(srv.requests()) != 5 {
		t.Fatalf("%v after %d requests", err, len(srv.requests()))
	}
	// Without the per-call option the client's budget applies: 1 + 5 more.
	_, err = many.Guests.List(context.Background(), nil)
	if !errors.As(err, &e) || len(srv.requests()) != 11 {
		t.Fatalf("%v after %d requests", err, len(srv.requests()))
	}
}

// Issue 40, point 4: a client without a key says so where it is made, not as a 401 on each call.
func TestAnEmptyKeyIsRefusedAtConstructionAndNamesTheVariable(t *testing.T) {
	for _, key := range []string{"", "  "} {
		func() {
			defer func() {
				message, _ := recover().(string)
				if !strings.Contains(message, "No API key") || !strings.Contains(message, "INNKEEP_API_KEY") {
					t.Fatalf("NewClient(%q) panicked with %q", key, message)
				}
			}()
			NewClient(key)
			t.Fatalf("NewClient(%q) made a client", key)
		}()
	}
}

// The examples pass WithBaseURL(os.Getenv("INNKEEP_BASE_URL")): unset, the default stays.
func TestAnEmptyBaseURLKeepsTheDefault(t *testing.T) {
	if got := NewClient("hk_x", WithBaseURL("")).baseURL; got != "http://localhost:3000/v1" {
		t.Fatalf("base %q", got)
	}
	if got := NewClient("hk_x", WithBaseURL("http://innkeep.test")).baseURL; got != "http://innkeep.test/v1" {
		t.Fatalf("base %q", got)
	}
}
