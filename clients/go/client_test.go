package innkeep

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"strings"
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
