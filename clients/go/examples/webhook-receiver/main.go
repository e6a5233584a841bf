// A webhook receiver on net/http: verify the raw body, then act on the event.
// INNKEEP_WEBHOOK_SECRET=whsec_… go run ./examples/webhook-receiver   (listens on :4242)
package main

import (
	"errors"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/innkeep/innkeep-go/webhook"
)

func main() {
	secret := os.Getenv("INNKEEP_WEBHOOK_SECRET")
	http.HandleFunc("POST /innkeep/webhooks", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20)) // the exact bytes
		if err != nil {
			http.Error(w, "unreadable body", http.StatusBadRequest)
			return
		}
		event, err := webhook.ConstructEvent(body, r.Header.Get("Service-Signature"), secret)
		var refused *webhook.SignatureError
		if errors.As(err, &refused) {
			http.Error(w, string(refused.Reason), http.StatusUnauthorized)
			return
		} else if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		log.Printf("%s %s", event.Type, event.ID)
		w.WriteHeader(http.StatusNoContent)
	})
	log.Fatal(http.ListenAndServe(":4242", nil))
}
