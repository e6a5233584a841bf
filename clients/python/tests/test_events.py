"""Events are read leniently (forward compatible), and typed on demand."""

from __future__ import annotations

import json
from typing import Any

import pydantic
import pytest

import innkeep
from innkeep import models

SECRET = "whsec_test_events"
GUEST = {
    "id": "gst_1",
    "object": "guest",
    "livemode": False,
    "first_name": "Ada",
    "last_name": "Lovelace",
    "email": None,
    "phone": None,
    "address": None,
    "erased_at": None,
    "created_at": "2026-11-21T09:30:00.000Z",
    "updated_at": "2026-11-21T09:30:00.000Z",
}


def envelope(type_: str, obj: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "evt_1",
        "object": "event",
        "type": type_,
        "created_at": "2026-11-21T09:30:00.000Z",
        "api_version": "2025-09-01",
        "livemode": False,
        "property_id": None,
        "data": {"object": obj},
    }


def construct(body: dict[str, Any] | bytes) -> models.Event:
    payload = body if isinstance(body, bytes) else json.dumps(body).encode()
    return innkeep.Webhook.construct_event(payload, innkeep.Webhook.generate_test_header(payload, SECRET), SECRET)


def test_an_event_of_a_type_the_client_does_not_know_verifies_and_is_untyped() -> None:
    event = construct({**envelope("folio.closed", {"id": "fol_1", "object": "folio"}), "new_field": 1})
    assert (event.type, event.data.object["id"]) == ("folio.closed", "fol_1")
    assert event.model_extra == {"new_field": 1}
    assert event.typed() is None


def test_a_minimal_event_verifies_and_typing_it_says_what_is_missing() -> None:
    event = construct(envelope("guest.created", {"id": "gst_1", "object": "guest"}))
    assert event.data.object == {"id": "gst_1", "object": "guest"}
    with pytest.raises(pydantic.ValidationError):
        event.typed()
    bare = construct({"id": "evt_2", "type": "reservation.created"})
    assert (bare.id, bare.created_at, bare.data.object) == ("evt_2", None, {})


def test_a_known_type_is_typed_with_its_object() -> None:
    event = construct(envelope("guest.created", GUEST))
    typed = event.typed()
    assert isinstance(typed, models.GuestCreatedEvent)
    assert isinstance(typed.data.object, models.Guest)
    assert (typed.type, typed.data.object.last_name, typed.data.object.email) == ("guest.created", "Lovelace", None)


def test_every_event_type_of_the_document_has_its_model() -> None:
    assert models.TYPED_EVENTS["ping"] is models.PingEvent
    assert models.TYPED_EVENTS["night_audit.completed"] is models.NightAuditCompletedEvent
    assert all(model.model_fields["type"].annotation.__args__ == (type_,) for type_, model in models.TYPED_EVENTS.items())  # type: ignore[union-attr]


def test_a_verified_body_that_is_no_event_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        construct(b"[1, 2]")
    with pytest.raises(ValueError):
        construct(b"not json")
    with pytest.raises(ValueError, match="not an event") as refused:
        construct({"object": "event", "data": {"object": {}}})
    assert not isinstance(refused.value, pydantic.ValidationError)


def test_events_of_the_api_are_lenient_too() -> None:
    page = models.EventList.model_validate(
        {"object": "list", "data": [envelope("folio.closed", {"id": "fol_1"})], "has_more": False, "next_cursor": None, "prev_cursor": None}
    )
    assert page.data[0].type == "folio.closed"
