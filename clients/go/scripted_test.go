package innkeep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// vectors reads a file of the shared test vectors (clients/testdata), which every client reads.
func vectors(t *testing.T, name string, into any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatal(err)
	}
}

// answer is one scripted answer, in the vectors' form.
type answer struct {
	Status       int               `json:"status"`
	Body         json.RawMessage   `json:"body"`
	Text         string            `json:"text"`
	Headers      map[string]string `json:"headers"`
	NetworkError bool              `json:"network_error"`
	Timeout      bool              `json:"timeout"`
}

type seen struct {
	req  *http.Request
	body []byte
}

// script is an http.RoundTripper that answers its answers in turn and records the requests.
type script struct {
	mu      sync.Mutex
	answers []answer
	seen    []seen
}

func (s *script) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		body, _ = io.ReadAll(req.Body)
	}
	s.mu.Lock()
	s.seen = append(s.seen, seen{req, body})
	a := answer{Status: 200, Body: json.RawMessage(`{}`)}
	if len(s.answers) > 0 {
		a, s.answers = s.answers[0], s.answers[1:]
	}
	s.mu.Unlock()
	if a.NetworkError {
		return nil, errors.New("connection refused")
	}
	if a.Timeout {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	h := http.Header{}
	content := []byte(a.Text)
	if len(a.Body) > 0 {
		h.Set("Content-Type", "application/json")
		content = a.Body
	}
	for k, v := range a.Headers {
		h.Set(k, v)
	}
	return &http.Response{StatusCode: a.Status, Header: h, Body: io.NopCloser(bytes.NewReader(content)), Request: req}, nil
}

// scripted is a client on the script whose waits are recorded instead of slept.
func scripted(s *script, sleeps *[]time.Duration, options ...Option) *Client {
	c := NewClient("hk_test", append([]Option{WithBaseURL("http://innkeep.test"), WithHTTPClient(&http.Client{Transport: s}), WithTimeout(200 * time.Millisecond)}, options...)...)
	c.sleep = func(_ context.Context, d time.Duration) error {
		if sleeps != nil {
			*sleeps = append(*sleeps, d)
		}
		return nil
	}
	return c
}
