package webhook

import (
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSignatureVectors(t *testing.T) {
	var file struct {
		Cases []struct {
			Name      string  `json:"name"`
			Payload   string  `json:"payload"`
			Header    *string `json:"header"`
			Secret    string  `json:"secret"`
			Now       int64   `json:"now"`
			Tolerance int64   `json:"tolerance"`
			Expected  struct {
				Valid   bool   `json:"valid"`
				EventID string `json:"event_id"`
				Reason  Reason `json:"reason"`
			} `json:"expected"`
		} `json:"cases"`
	}
	data, err := os.ReadFile("../../testdata/webhook-signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			// The vectors' tolerance 0 turns the age check off; in Options that is a negative value.
			tolerance := time.Duration(c.Tolerance) * time.Second
			if tolerance == 0 {
				tolerance = -1
			}
			header := ""
			if c.Header != nil {
				header = *c.Header
			}
			options := Options{Tolerance: tolerance, Now: func() time.Time { return time.Unix(c.Now, 0) }}
			event, err := ConstructEventWithOptions([]byte(c.Payload), header, c.Secret, options)
			if c.Expected.Valid {
				if err != nil || event.ID != c.Expected.EventID {
					t.Fatalf("got %v, %v; want event %s", event, err, c.Expected.EventID)
				}
				return
			}
			var refused *SignatureError
			if !errors.As(err, &refused) || refused.Reason != c.Expected.Reason {
				t.Fatalf("got %v, want %s", err, c.Expected.Reason)
			}
		})
		if c.Name == "valid" {
			t.Run("GenerateTestHeader signs as the vectors", func(t *testing.T) {
				ts, _ := strconv.ParseInt(strings.TrimPrefix(strings.Split(*c.Header, ",")[0], "t="), 10, 64)
				if got := GenerateTestHeader([]byte(c.Payload), time.Unix(ts, 0), c.Secret); got != *c.Header {
					t.Fatalf("got %s", got)
				}
			})
		}
	}
}
