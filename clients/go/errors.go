package innkeep

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Kind classifies an *Error as the other clients' error classes do, from error.type (and 404).
type Kind string

const (
	KindInvalidRequest Kind = "invalid_request" // 400, 405, 413, 415, 422, 431: Param names the field
	KindNotFound       Kind = "not_found"       // 404 (also an invalid request: see IsInvalidRequest)
	KindAuthentication Kind = "authentication"  // 401
	KindPermission     Kind = "permission"      // 403
	KindConflict       Kind = "conflict"        // 409 conflict_error
	KindIdempotency    Kind = "idempotency"     // 409 idempotency_key_in_use, 422 idempotency_key_reused
	KindCard           Kind = "card"            // 402: PaymentID names the failed payment
	KindRateLimit      Kind = "rate_limit"      // 429: RetryAfter
	KindAPI            Kind = "api"             // 500, 503, and answers without the error envelope (unexpected_response)
	KindConnection     Kind = "connection"      // no answer (Status 0)
	KindTimeout        Kind = "timeout"         // no answer within the timeout (Status 0)
)

// FieldError is one entry of an error's list: one parameter at fault.
type FieldError struct {
	Code    string `json:"code"`
	Param   string `json:"param"`
	Message string `json:"message"`
}

// Error is every error the client returns for an answer of the API, or for no answer.
// Use errors.As(err, &apiErr) with var apiErr *innkeep.Error.
type Error struct {
	Kind Kind
	// Status is the HTTP status (0 when there was no answer).
	Status int
	// Type and Code are error.type and error.code of the body ("api_error"/"unexpected_response"
	// for an answer that is not the API's error JSON; "connection_error"/"connection_failed" or
	// "timeout" when no answer came).
	Type, Code string
	// Param is the dotted path of the parameter at fault (guest.email), when one is.
	Param string
	// RequestID is the Service-Request-Id of the answer: quote it to support.
	RequestID string
	Message   string
	// PaymentID names the failed payment of a card error.
	PaymentID string
	// Amount is, for money errors (balance_outstanding, amount_exceeds_refundable,
	// amount_exceeds_balance), the amount the message states in minor units of Currency (a
	// balance is negative when the hotel owes it); nil when the error carries none.
	Amount *int64
	// Currency is the ISO 4217 currency of Amount ("" when there is none).
	Currency string
	// Errors lists each parameter at fault when there are several (a 422 of a body missing
	// three fields: one FieldError each); Code and Param above are the first's. Nil otherwise.
	Errors []FieldError
	// RetryAfter is the server's Retry-After (rate limits), or -1 when absent.
	RetryAfter time.Duration
	Header     http.Header
	// Err is the network error underneath a connection error or timeout.
	Err error
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return "innkeep: " + e.Message
	}
	return fmt.Sprintf("innkeep: %d %s: %s (request %s)", e.Status, e.Code, e.Message, e.RequestID)
}

func (e *Error) Unwrap() error { return e.Err }

// IsInvalidRequest is true for invalid requests and for not found, which is one.
func (e *Error) IsInvalidRequest() bool {
	return e.Kind == KindInvalidRequest || e.Kind == KindNotFound
}

type envelope struct {
	Error *struct {
		Type      string       `json:"type"`
		Code      string       `json:"code"`
		Message   string       `json:"message"`
		Param     string       `json:"param"`
		RequestID string       `json:"request_id"`
		PaymentID string       `json:"payment_id"`
		Amount    *int64       `json:"amount"`
		Currency  string       `json:"currency"`
		Errors    []FieldError `json:"errors"`
	} `json:"error"`
}

var kindByType = map[string]Kind{
	"invalid_request_error": KindInvalidRequest,
	"authentication_error":  KindAuthentication,
	"permission_error":      KindPermission,
	"conflict_error":        KindConflict,
	"idempotency_error":     KindIdempotency,
	"card_error":            KindCard,
	"rate_limit_exceeded":   KindRateLimit,
	"api_error":             KindAPI,
}

// errorFromResponse is the typed error of an error answer, chosen by its error.type. An answer
// that is not the API's error JSON (a proxy's page, another server's 404: usually a wrong base
// URL) is KindAPI (KindRateLimit for a 429, so that it is retried) with code
// unexpected_response, whose message says what came instead, and from where.
func errorFromResponse(status int, body []byte, header http.Header, from *url.URL) *Error {
	e := &Error{Status: status, Type: "api_error", Code: "unexpected_response", Header: header, RetryAfter: retryAfter(header)}
	var env envelope
	known := json.Unmarshal(body, &env) == nil && env.Error != nil && env.Error.Type != "" && env.Error.Code != ""
	if known {
		b := env.Error
		e.Type, e.Code, e.Message, e.Param, e.RequestID, e.PaymentID = b.Type, b.Code, b.Message, b.Param, b.RequestID, b.PaymentID
		e.Amount, e.Currency, e.Errors = b.Amount, b.Currency, b.Errors
	} else {
		e.Message = unexpected(status, body, header, from)
	}
	if e.RequestID == "" {
		e.RequestID = header.Get("Service-Request-Id")
	}
	switch kind, ok := kindByType[e.Type]; {
	case !known && status == 429:
		e.Kind = KindRateLimit
	case !known:
		e.Kind = KindAPI
	case status == 404:
		e.Kind = KindNotFound
	case ok:
		e.Kind = kind
	case status == 429:
		e.Kind = KindRateLimit
	default:
		e.Kind = KindAPI
	}
	return e
}

// unexpected says what came instead of the API's answer, and from where.
func unexpected(status int, body []byte, header http.Header, from *url.URL) string {
	contentType := strings.TrimSpace(strings.Split(header.Get("Content-Type"), ";")[0])
	if contentType == "" {
		contentType = "no content type"
	}
	start := ""
	if text := []rune(strings.Join(strings.Fields(string(body)), " ")); len(text) > 60 {
		start = fmt.Sprintf(", starting '%s…'", string(text[:60]))
	} else if len(text) > 0 {
		start = fmt.Sprintf(", starting '%s'", string(text))
	}
	where := "the server"
	if from != nil {
		where = (&url.URL{Scheme: from.Scheme, Host: from.Host, Path: from.Path}).String()
	}
	hint := ""
	switch {
	case status == 404 || strings.Contains(strings.ToLower(contentType), "html"):
		hint = " Is the base URL right? It must be the Innkeep server's origin (or <origin>/v1), and nothing in between may answer for it."
	case status >= 500:
		hint = " A proxy or load balancer in front of Innkeep may have answered; retry later."
	}
	return fmt.Sprintf("%s answered HTTP %d with %s%s: not an Innkeep API answer.%s", where, status, contentType, start, hint)
}

// retryAfter reads Retry-After as seconds or an HTTP date; -1 when absent or unreadable.
func retryAfter(h http.Header) time.Duration {
	v := h.Get("Retry-After")
	if v == "" {
		return -1
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		return max(0, time.Duration(s*float64(time.Second)))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t).Round(time.Second))
	}
	return -1
}
