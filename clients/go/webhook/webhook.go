// Package webhook verifies Innkeep webhook deliveries:
// `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is how far a signature's timestamp may be from now.
const DefaultTolerance = 300 * time.Second

// Reason says why a delivery was refused; stable across versions.
type Reason string

const (
	MissingHeader             Reason = "missing_header"
	MissingTimestamp          Reason = "missing_timestamp"
	MissingSignature          Reason = "missing_signature"
	TimestampOutsideTolerance Reason = "timestamp_outside_tolerance"
	NoMatchingSignature       Reason = "no_matching_signature"
)

// SignatureError is a delivery that does not verify.
type SignatureError struct {
	Reason  Reason
	Message string
}

func (e *SignatureError) Error() string { return e.Message }

// Event is a webhook event; Data.Object is the object it is about, as JSON.
type Event struct {
	ID         string  `json:"id"`
	Object     string  `json:"object"`
	Type       string  `json:"type"`
	CreatedAt  string  `json:"created_at"`
	APIVersion string  `json:"api_version"`
	Livemode   bool    `json:"livemode"`
	PropertyID *string `json:"property_id"`
	Data       struct {
		Object json.RawMessage `json:"object"`
	} `json:"data"`
}

// Options of a verification. The zero value checks the age against DefaultTolerance and now.
type Options struct {
	// Tolerance overrides DefaultTolerance; a negative value turns the age check off.
	Tolerance time.Duration
	// Now replaces the clock (tests).
	Now func() time.Time
}

var hex64 = regexp.MustCompile(`^[0-9a-fA-F]{64}$`)

// ConstructEvent verifies a delivery and answers its event. payload is the exact body
// received (before any JSON parsing), header the Service-Signature header, secret the
// endpoint's whsec_… secret. Any v1 may match: during a secret rotation a delivery carries
// one per valid secret.
func ConstructEvent(payload []byte, header, secret string) (*Event, error) {
	return ConstructEventWithOptions(payload, header, secret, Options{})
}

// ConstructEventWithOptions is ConstructEvent with another tolerance or clock.
func ConstructEventWithOptions(payload []byte, header, secret string, o Options) (*Event, error) {
	if err := VerifyHeader(payload, header, secret, o); err != nil {
		return nil, err
	}
	var event Event
	if err := json.Unmarshal(payload, &event); err != nil {
		return nil, fmt.Errorf("webhook: the verified body is not an event: %w", err)
	}
	return &event, nil
}

// VerifyHeader returns a *SignatureError unless a v1 of header signs payload with secret
// within the tolerance.
func VerifyHeader(payload []byte, header, secret string, o Options) error {
	if header == "" {
		return &SignatureError{MissingHeader, "no Service-Signature header: is this request from Innkeep?"}
	}
	var timestamp int64
	hasTimestamp := false
	var signatures []string
	for _, part := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch {
		case key == "t" && isDigits(value):
			if t, err := strconv.ParseInt(value, 10, 64); err == nil {
				timestamp, hasTimestamp = t, true
			}
		case key == "v1" && hex64.MatchString(value):
			signatures = append(signatures, strings.ToLower(value))
		}
	}
	if !hasTimestamp {
		return &SignatureError{MissingTimestamp, "the Service-Signature header has no timestamp (t=)"}
	}
	if len(signatures) == 0 {
		return &SignatureError{MissingSignature, "the Service-Signature header has no v1 signature"}
	}
	tolerance := o.Tolerance
	if tolerance == 0 {
		tolerance = DefaultTolerance
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	if tolerance > 0 {
		age := now().Unix() - timestamp
		if age < 0 {
			age = -age
		}
		if age > int64(tolerance/time.Second) {
			return &SignatureError{TimestampOutsideTolerance, fmt.Sprintf("the signature's timestamp is more than %d seconds from now: a replayed or delayed delivery", int64(tolerance/time.Second))}
		}
	}
	expected := []byte(sign(secret, timestamp, payload))
	matched := false
	for _, s := range signatures {
		// Every v1 is compared, in constant time.
		if hmac.Equal(expected, []byte(s)) {
			matched = true
		}
	}
	if !matched {
		return &SignatureError{NoMatchingSignature, "no v1 signature matches this body and secret: wrong secret, or the body was changed (verify the raw bytes, before any JSON parsing)"}
	}
	return nil
}

// GenerateTestHeader signs payload as Innkeep would, to test a receiver; several secrets give
// one v1 each, as during a rotation.
func GenerateTestHeader(payload []byte, timestamp time.Time, secrets ...string) string {
	t := timestamp.Unix()
	parts := []string{"t=" + strconv.FormatInt(t, 10)}
	for _, s := range secrets {
		parts = append(parts, "v1="+sign(s, t, payload))
	}
	return strings.Join(parts, ",")
}

func sign(secret string, timestamp int64, payload []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(timestamp, 10) + "."))
	mac.Write(payload)
	return hex.EncodeToString(mac.Sum(nil))
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
