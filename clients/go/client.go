// Package innkeep is the Go client of the Innkeep API: every operation, retries that never
// book twice (one Idempotency-Key per POST across its retries), auto-pagination with Go 1.23
// iterators, one *Error type, and webhook verification (package webhook). Standard library only.
package innkeep

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	mathrand "math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Version of this client, sent in the User-Agent.
const Version = "0.1.0"

const (
	defaultBaseURL    = "http://localhost:3000/v1"
	defaultMaxRetries = 2
	defaultTimeout    = 60 * time.Second
	baseDelay         = 500 * time.Millisecond
	maxDelay          = 8 * time.Second
)

// Client calls the Innkeep API. It is safe for concurrent use.
type Client struct {
	baseURL     string
	token       string
	environment string
	version     string
	maxRetries  int
	timeout     time.Duration
	http        *http.Client
	sleep       func(context.Context, time.Duration) error
	refresh     func(context.Context) (string, error)

	mu   sync.Mutex
	last *ResponseInfo

	resources
}

// Option configures a Client.
type Option func(*Client)

// WithBaseURL sets the server: "<origin>" or "<origin>/v1" (default http://localhost:3000/v1). An
// empty string keeps the default, so WithBaseURL(os.Getenv("INNKEEP_BASE_URL")) works unset.
func WithBaseURL(u string) Option {
	return func(c *Client) {
		if u != "" {
			c.baseURL = normalizeBase(u)
		}
	}
}

// WithEnvironment sends Service-Environment: "live" (the default) or "sandbox".
func WithEnvironment(env string) Option { return func(c *Client) { c.environment = env } }

// WithVersion pins Service-Version (YYYY-MM-DD); by default the account's pinned version.
func WithVersion(v string) Option { return func(c *Client) { c.version = v } }

// WithMaxRetries sets how often a failed call is retried (default 2).
func WithMaxRetries(n int) Option { return func(c *Client) { c.maxRetries = n } }

// WithTimeout sets how long each attempt may take (default 60 s).
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithTokenRefresher is for apps installed through OAuth, whose client holds an access token
// (hat_…): when the server answers 401 token_expired (or invalid_token), refresh is called once
// for that call, its token replaces the client's for this and every later call, and the call is
// sent again at no cost to its retry budget. A second refusal is returned as the error; an error
// of refresh is returned wrapped. Calls that fail together may each call refresh.
func WithTokenRefresher(refresh func(ctx context.Context) (string, error)) Option {
	return func(c *Client) { c.refresh = refresh }
}

// WithHTTPClient replaces the HTTP client (proxies, tracing, tests).
func WithHTTPClient(h *http.Client) Option { return func(c *Client) { c.http = h } }

// MissingKeyMessage is NewClient's refusal of an empty key: the same words in the four clients.
const MissingKeyMessage = "No API key: give NewClient a secret key (hk_…) or an OAuth access token (hat_…). Reading it from the environment? INNKEEP_API_KEY is not set"

// NewClient makes a client for a secret API key (hk_…) or an OAuth access token (hat_…). It
// panics when the key is empty (an unset INNKEEP_API_KEY, say), as the other clients throw at
// construction: a client without credentials is a mistake in the program's setup, better
// stopped at start than answered 401 on every call. Check os.Getenv yourself to handle it.
func NewClient(apiKey string, options ...Option) *Client {
	if strings.TrimSpace(apiKey) == "" {
		panic("innkeep: " + MissingKeyMessage + ".")
	}
	c := &Client{baseURL: defaultBaseURL, token: apiKey, maxRetries: defaultMaxRetries, timeout: defaultTimeout, http: http.DefaultClient, sleep: sleepContext}
	for _, o := range options {
		o(c)
	}
	c.resources = newResources(c)
	return c
}

func normalizeBase(u string) string {
	u = strings.TrimRight(u, "/")
	if !strings.HasSuffix(u, "/v1") {
		u += "/v1"
	}
	return u
}

// RequestOption overrides the client's settings for one call.
type RequestOption func(*callSettings)

type callSettings struct {
	idempotencyKey string
	maxRetries     int
	timeout        time.Duration
	environment    string
	version        string
	header         http.Header
}

// WithIdempotencyKey sets a POST's Idempotency-Key (by default a UUID v4 made once per call).
func WithIdempotencyKey(key string) RequestOption {
	return func(s *callSettings) { s.idempotencyKey = key }
}

// WithRequestMaxRetries overrides the client's retry budget for one call.
func WithRequestMaxRetries(n int) RequestOption { return func(s *callSettings) { s.maxRetries = n } }

// WithRequestTimeout overrides the client's timeout per attempt for one call.
func WithRequestTimeout(d time.Duration) RequestOption {
	return func(s *callSettings) { s.timeout = d }
}

// WithRequestEnvironment overrides Service-Environment for one call.
func WithRequestEnvironment(env string) RequestOption {
	return func(s *callSettings) { s.environment = env }
}

// WithHeader adds a header to one call.
func WithHeader(name, value string) RequestOption {
	return func(s *callSettings) { s.header.Add(name, value) }
}

// RateLimit is what the X-RateLimit-* headers said (-1 when absent).
type RateLimit struct{ Limit, Remaining, Reset int64 }

// ResponseInfo is what the latest answer said besides its body.
type ResponseInfo struct {
	Status             int
	RequestID          string
	IdempotencyKey     string // the key sent, for a POST
	IdempotentReplayed bool   // the server answered a retried POST from its idempotency store
	RateLimit          RateLimit
	Attempts           int // 1 for a first-time success; more when retries were needed
	Header             http.Header
}

// LastResponse is the latest answer's ResponseInfo (nil before the first).
func (c *Client) LastResponse() *ResponseInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last
}

// Backoff is exponential backoff with full jitter: a uniform wait in [0, min(8 s, 0.5 s·2^attempt)).
func Backoff(attempt int) time.Duration {
	bound := maxDelay
	if attempt < 5 {
		bound = min(maxDelay, baseDelay<<attempt)
	}
	return time.Duration(mathrand.Float64() * float64(bound))
}

func retryable(e *Error) bool {
	return e.Kind == KindConnection || e.Kind == KindTimeout || e.Status == 408 || e.Status == 429 || e.Status >= 500 || e.Code == "idempotency_key_in_use"
}

func expiredToken(e *Error) bool {
	return e.Kind == KindAuthentication && (e.Code == "token_expired" || e.Code == "invalid_token")
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func uuid4() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Do is any call by method and path (under /v1), for what the resources do not cover: query
// goes into the URL, body (any JSON-encodable value, nil for none) is sent as JSON, and the
// answer is decoded into out (nil to discard it; a *[]byte receives the answer's bytes as they
// came, as an invoice's PDF does).
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body any, out any, opts ...RequestOption) error {
	s := callSettings{maxRetries: c.maxRetries, timeout: c.timeout, environment: c.environment, version: c.version, header: http.Header{}}
	for _, o := range opts {
		o(&s)
	}
	var content []byte
	if body != nil {
		var err error
		if content, err = json.Marshal(body); err != nil {
			return fmt.Errorf("innkeep: encoding the body of %s %s: %w", method, path, err)
		}
	} else if method == http.MethodPost {
		content = []byte("{}")
	}
	key := ""
	if method == http.MethodPost {
		key = s.idempotencyKey
		if key == "" {
			key = uuid4()
		}
	}
	target := c.baseURL + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	refreshed := false
	for attempt := 0; ; attempt++ {
		answer, failure := c.attempt(ctx, method, target, content, key, s, attempt)
		if ctx.Err() != nil {
			return ctx.Err() // the caller's context ended: never retried
		}
		if failure == nil {
			if out == nil || len(answer) == 0 {
				return nil
			}
			if raw, ok := out.(*[]byte); ok {
				*raw = answer // a file (an invoice's PDF), or a caller who wants the JSON as it came
				return nil
			}
			if err := json.Unmarshal(answer, out); err != nil {
				return fmt.Errorf("innkeep: decoding the answer of %s %s: %w", method, path, err)
			}
			return nil
		}
		var apiErr *Error
		if errors.As(failure, &apiErr) && c.refresh != nil && !refreshed && expiredToken(apiErr) {
			// An expired OAuth access token: refresh once, and send again at no cost to the retry budget.
			refreshed = true
			token, err := c.refresh(ctx)
			if err != nil {
				return fmt.Errorf("innkeep: refreshing the access token after %s: %w", apiErr.Code, err)
			}
			c.mu.Lock()
			c.token = token
			c.mu.Unlock()
			attempt--
			continue
		}
		if !errors.As(failure, &apiErr) || attempt >= s.maxRetries || !retryable(apiErr) {
			return failure
		}
		wait := Backoff(attempt)
		if apiErr.RetryAfter >= 0 && apiErr.Status != 0 {
			wait = apiErr.RetryAfter
		}
		if err := c.sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// attempt sends one attempt; it answers the body of a 2xx, or the error to decide on.
func (c *Client) attempt(ctx context.Context, method, target string, content []byte, key string, s callSettings, attempt int) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var reader io.Reader
	if content != nil {
		reader = bytes.NewReader(content)
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return nil, fmt.Errorf("innkeep: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "innkeep-go/"+Version)
	c.mu.Lock()
	token := c.token
	c.mu.Unlock()
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if content != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.environment != "" {
		req.Header.Set("Service-Environment", s.environment)
	}
	if s.version != "" {
		req.Header.Set("Service-Version", s.version)
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	for name, values := range s.header {
		req.Header[name] = values
	}
	res, err := c.http.Do(req)
	var body []byte
	if err == nil {
		body, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, &Error{Kind: KindTimeout, Type: "connection_error", Code: "timeout", Message: fmt.Sprintf("no answer within %s: %s %s", s.timeout, method, target), RetryAfter: -1, Err: err}
		}
		return nil, &Error{Kind: KindConnection, Type: "connection_error", Code: "connection_failed", Message: fmt.Sprintf("could not reach Innkeep at %s: %v", target, err), RetryAfter: -1, Err: err}
	}
	c.remember(res, key, attempt+1)
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return body, nil
	}
	var from *url.URL
	if res.Request != nil {
		from = res.Request.URL
	}
	return nil, errorFromResponse(res.StatusCode, body, res.Header, from)
}

func (c *Client) remember(res *http.Response, key string, attempts int) {
	number := func(name string) int64 {
		n, err := strconv.ParseInt(res.Header.Get(name), 10, 64)
		if err != nil {
			return -1
		}
		return n
	}
	info := &ResponseInfo{
		Status:             res.StatusCode,
		RequestID:          res.Header.Get("Service-Request-Id"),
		IdempotencyKey:     key,
		IdempotentReplayed: res.Header.Get("Idempotent-Replayed") == "true",
		RateLimit:          RateLimit{number("X-RateLimit-Limit"), number("X-RateLimit-Remaining"), number("X-RateLimit-Reset")},
		Attempts:           attempts,
		Header:             res.Header,
	}
	c.mu.Lock()
	c.last = info
	c.mu.Unlock()
}
