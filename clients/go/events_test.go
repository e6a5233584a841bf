package innkeep

import (
	"encoding/json"
	"strings"
	"testing"
)

// Event is the document's union: any type reads (a newer one too), and its helpers need only
// the standard library (internal/gen's jsonMerge sets the discriminator).
func TestEventUnionWithoutTheRuntime(t *testing.T) {
	var e Event
	var v GuestCreatedEvent
	v.Id, v.Data.Object.LastName = "evt_1", "Lovelace"
	if err := e.FromGuestCreatedEvent(v); err != nil {
		t.Fatal(err)
	}
	if kind, err := e.Discriminator(); err != nil || kind != "guest.created" {
		t.Fatalf("%q %v", kind, err)
	}
	typed, err := e.ValueByDiscriminator()
	if g, ok := typed.(GuestCreatedEvent); err != nil || !ok || g.Data.Object.LastName != "Lovelace" || g.Type != GuestCreatedEventTypeGuestCreated {
		t.Fatalf("%#v %v", typed, err)
	}
	out, err := json.Marshal(e)
	if err != nil || !strings.Contains(string(out), `"type":"guest.created"`) {
		t.Fatalf("%s %v", out, err)
	}

	var later EventList
	if err := json.Unmarshal([]byte(`{"object":"list","data":[{"id":"evt_2","type":"folio.closed","data":{"object":{}}}],"has_more":false}`), &later); err != nil {
		t.Fatal(err)
	}
	if kind, _ := later.Data[0].Discriminator(); kind != "folio.closed" {
		t.Fatalf("%q", kind)
	}
	if _, err := later.Data[0].ValueByDiscriminator(); err == nil {
		t.Fatal("an unknown type has no typed form")
	}
}

func TestJSONMergeSetsMembers(t *testing.T) {
	for in, want := range map[string]string{`{"a":1,"type":"x"}`: `{"a":1,"type":"y"}`, `null`: `{"type":"y"}`} {
		got, err := jsonMerge([]byte(in), []byte(`{"type":"y"}`))
		if err != nil || string(got) != want {
			t.Errorf("%s: %s %v", in, got, err)
		}
	}
	if _, err := jsonMerge([]byte(`[1]`), []byte(`{"type":"y"}`)); err == nil {
		t.Error("an array is not an object")
	}
}
