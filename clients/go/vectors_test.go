package innkeep

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"testing"
	"time"
)

// The vectors name the TypeScript classes; these are the Kinds of *Error.
var kinds = map[string]Kind{
	"InvalidRequestError": KindInvalidRequest,
	"NotFoundError":       KindNotFound,
	"AuthenticationError": KindAuthentication,
	"PermissionError":     KindPermission,
	"ConflictError":       KindConflict,
	"IdempotencyError":    KindIdempotency,
	"CardError":           KindCard,
	"RateLimitError":      KindRateLimit,
	"ApiError":            KindAPI,
	"ConnectionError":     KindConnection,
	"TimeoutError":        KindTimeout,
}

type retryTable struct {
	Backoff struct {
		BaseMs int `json:"base_ms"`
		Bounds []struct {
			Attempt int     `json:"attempt"`
			MaxMs   float64 `json:"max_ms"`
		} `json:"bounds"`
	} `json:"backoff"`
	DefaultMaxRetries int `json:"default_max_retries"`
	Decisions         []struct {
		Name   string `json:"name"`
		Answer answer `json:"answer"`
		Retry  bool   `json:"retry"`
		Wait   *struct {
			Seconds *float64 `json:"seconds"`
		} `json:"wait"`
	} `json:"decisions"`
	Sequences []struct {
		Name       string   `json:"name"`
		Method     string   `json:"method"`
		MaxRetries *int     `json:"max_retries"`
		Answers    []answer `json:"answers"`
		Expected   struct {
			Attempts int             `json:"attempts"`
			Result   json.RawMessage `json:"result"`
			Error    *struct {
				Class     string `json:"class"`
				Status    int    `json:"status"`
				Code      string `json:"code"`
				RequestID string `json:"request_id"`
			} `json:"error"`
		} `json:"expected"`
	} `json:"sequences"`
}

func TestBackoffBounds(t *testing.T) {
	var table retryTable
	vectors(t, "retries.json", &table)
	for _, b := range table.Backoff.Bounds {
		for range 200 {
			if d := Backoff(b.Attempt); d < 0 || float64(d) >= b.MaxMs*float64(time.Millisecond) {
				t.Fatalf("Backoff(%d) = %s, not in [0, %v ms)", b.Attempt, d, b.MaxMs)
			}
		}
	}
	if c := NewClient("k"); c.maxRetries != table.DefaultMaxRetries {
		t.Fatalf("default max retries %d", c.maxRetries)
	}
}

func TestRetryDecisions(t *testing.T) {
	var table retryTable
	vectors(t, "retries.json", &table)
	for _, d := range table.Decisions {
		t.Run(d.Name, func(t *testing.T) {
			s := &script{answers: []answer{d.Answer, {Status: 200, Body: json.RawMessage(`{"ok":true}`)}}}
			var sleeps []time.Duration
			var out map[string]any
			err := scripted(s, &sleeps, WithMaxRetries(1)).Do(context.Background(), "POST", "/guests", nil, map[string]string{"first_name": "A"}, &out)
			if !d.Retry {
				var apiErr *Error
				if !errors.As(err, &apiErr) || len(s.seen) != 1 || len(sleeps) != 0 {
					t.Fatalf("want one attempt and an *Error, got %v after %d attempts, sleeps %v", err, len(s.seen), sleeps)
				}
				return
			}
			if err != nil || out["ok"] != true || len(s.seen) != 2 || len(sleeps) != 1 {
				t.Fatalf("want a retry then success, got %v, %v after %d attempts", err, out, len(s.seen))
			}
			if d.Wait.Seconds != nil {
				if sleeps[0] != time.Duration(*d.Wait.Seconds*float64(time.Second)) {
					t.Fatalf("waited %s, want Retry-After %v s", sleeps[0], *d.Wait.Seconds)
				}
			} else if sleeps[0] < 0 || sleeps[0] >= time.Duration(table.Backoff.BaseMs)*time.Millisecond {
				t.Fatalf("waited %s, want backoff under %d ms", sleeps[0], table.Backoff.BaseMs)
			}
			if a, b := s.seen[0].req.Header.Get("Idempotency-Key"), s.seen[1].req.Header.Get("Idempotency-Key"); a == "" || a != b {
				t.Fatalf("idempotency keys %q and %q", a, b)
			}
		})
	}
}

func TestRetrySequences(t *testing.T) {
	var table retryTable
	vectors(t, "retries.json", &table)
	for _, q := range table.Sequences {
		t.Run(q.Name, func(t *testing.T) {
			s := &script{answers: append([]answer(nil), q.Answers...)}
			var options []Option
			if q.MaxRetries != nil {
				options = append(options, WithMaxRetries(*q.MaxRetries))
			}
			var body any
			if q.Method == "POST" {
				body = map[string]string{"first_name": "A"}
			}
			var out json.RawMessage
			err := scripted(s, nil, options...).Do(context.Background(), q.Method, "/guests", nil, body, &out)
			if len(s.seen) != q.Expected.Attempts {
				t.Fatalf("%d attempts, want %d", len(s.seen), q.Expected.Attempts)
			}
			if q.Method == "POST" {
				for _, r := range s.seen {
					if r.req.Header.Get("Idempotency-Key") != s.seen[0].req.Header.Get("Idempotency-Key") || string(r.body) != `{"first_name":"A"}` {
						t.Fatalf("attempts differ: %q %s", r.req.Header.Get("Idempotency-Key"), r.body)
					}
				}
			}
			if q.Expected.Error == nil {
				if err != nil || !jsonEqual(out, q.Expected.Result) {
					t.Fatalf("got %s, %v; want %s", out, err, q.Expected.Result)
				}
				return
			}
			var apiErr *Error
			want := q.Expected.Error
			if !errors.As(err, &apiErr) || apiErr.Kind != kinds[want.Class] || apiErr.Status != want.Status {
				t.Fatalf("got %#v, want %s %d", err, want.Class, want.Status)
			}
			if (want.Code != "" && apiErr.Code != want.Code) || (want.RequestID != "" && apiErr.RequestID != want.RequestID) {
				t.Fatalf("got code %q request %q", apiErr.Code, apiErr.RequestID)
			}
		})
	}
}

func TestErrorMapping(t *testing.T) {
	var file struct {
		Cases []struct {
			answer
			Name     string `json:"name"`
			Expected struct {
				Class      string   `json:"class"`
				IsA        []string `json:"is_a"`
				Type       string   `json:"type"`
				Code       string   `json:"code"`
				Param      *string  `json:"param"`
				RequestID  *string  `json:"request_id"`
				Message    string   `json:"message"`
				RetryAfter *float64 `json:"retry_after"`
				PaymentID  string   `json:"payment_id"`
				Amount     *int64   `json:"amount"`
				Currency   string   `json:"currency"`
			} `json:"expected"`
		} `json:"cases"`
	}
	vectors(t, "errors.json", &file)
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			err := scripted(&script{answers: []answer{c.answer}}, nil, WithMaxRetries(0)).Do(context.Background(), "GET", "/reservations/res_x", nil, nil, nil)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("not an *Error: %v", err)
			}
			x := c.Expected
			if e.Kind != kinds[x.Class] || e.Status != c.Status || e.Type != x.Type || e.Code != x.Code || e.Param != deref(x.Param) || e.RequestID != deref(x.RequestID) {
				t.Fatalf("got %+v, want %+v", e, x)
			}
			for _, parent := range x.IsA {
				if parent == "InvalidRequestError" && !e.IsInvalidRequest() {
					t.Fatalf("not an invalid request")
				}
			}
			if x.Message != "" && e.Message != x.Message {
				t.Fatalf("message %q", e.Message)
			}
			if x.RetryAfter != nil && e.RetryAfter != time.Duration(*x.RetryAfter*float64(time.Second)) {
				t.Fatalf("retry after %s", e.RetryAfter)
			}
			if e.PaymentID != x.PaymentID {
				t.Fatalf("payment id %q", e.PaymentID)
			}
			// Money errors' amount and currency as fields; nil and "" for every other error.
			if (e.Amount == nil) != (x.Amount == nil) || (e.Amount != nil && *e.Amount != *x.Amount) || e.Currency != x.Currency {
				t.Fatalf("amount %v %q, want %v %q", e.Amount, e.Currency, x.Amount, x.Currency)
			}
		})
	}
}

func TestPaginationWalks(t *testing.T) {
	var file struct {
		Walks []struct {
			Name   string         `json:"name"`
			Path   string         `json:"path"`
			Params map[string]any `json:"params"`
			Pages  []struct {
				ExpectedQuery map[string]string `json:"expected_query"`
				Answer        json.RawMessage   `json:"answer"`
			} `json:"pages"`
			ExpectedIDs []string `json:"expected_ids"`
		} `json:"walks"`
	}
	vectors(t, "pagination.json", &file)
	for _, w := range file.Walks {
		t.Run(w.Name, func(t *testing.T) {
			s := &script{}
			for _, p := range w.Pages {
				s.answers = append(s.answers, answer{Status: 200, Body: p.Answer})
			}
			query := url.Values{}
			for k, v := range w.Params {
				query.Set(k, scalar(v))
			}
			ids := []string{}
			for item, err := range ListAutoPaging[struct{ ID string }](context.Background(), scripted(s, nil), w.Path, query) {
				if err != nil {
					t.Fatal(err)
				}
				ids = append(ids, item.ID)
			}
			if !equal(ids, w.ExpectedIDs) || len(s.seen) != len(w.Pages) {
				t.Fatalf("ids %v after %d requests, want %v", ids, len(s.seen), w.ExpectedIDs)
			}
			for i, r := range s.seen {
				got := map[string]string{}
				for k := range r.req.URL.Query() {
					got[k] = r.req.URL.Query().Get(k)
				}
				if r.req.URL.Path != "/v1"+w.Path || !mapsEqual(got, w.Pages[i].ExpectedQuery) {
					t.Fatalf("request %d: %s %v, want %v", i, r.req.URL.Path, got, w.Pages[i].ExpectedQuery)
				}
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func scalar(v any) string {
	b, _ := json.Marshal(v)
	if s, ok := v.(string); ok {
		return s
	}
	return string(b)
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && scalar(x) == scalar(y)
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
