"""The shared test vectors of clients/testdata, which the TypeScript and Go clients pass too."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

import pytest

import innkeep
from innkeep import _transport
from innkeep.models import Event

from scripted import Script, async_client, sync_client, vectors

# The vectors name the TypeScript classes; these are their Python names.
CLASSES: dict[str, type[innkeep.InnkeepError]] = {
    "InnkeepError": innkeep.InnkeepError,
    "InvalidRequestError": innkeep.InvalidRequestError,
    "NotFoundError": innkeep.NotFoundError,
    "AuthenticationError": innkeep.AuthenticationError,
    "PermissionError": innkeep.PermissionDeniedError,
    "ConflictError": innkeep.ConflictError,
    "IdempotencyError": innkeep.IdempotencyError,
    "CardError": innkeep.CardError,
    "RateLimitError": innkeep.RateLimitError,
    "ApiError": innkeep.ApiError,
    "ConnectionError": innkeep.ApiConnectionError,
    "TimeoutError": innkeep.ApiTimeoutError,
}

signatures = vectors("webhook-signatures.json")["cases"]
retries = vectors("retries.json")
errors = vectors("errors.json")["cases"]
walks = vectors("pagination.json")["walks"]


def named(cases: list[dict[str, Any]]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize("case", cases, ids=[c["name"] for c in cases])


@named(signatures)
def test_webhook_signature(case: dict[str, Any]) -> None:
    for payload in (case["payload"], case["payload"].encode()):
        if case["expected"]["valid"]:
            event = innkeep.Webhook.construct_event(payload, case["header"], case["secret"], case["tolerance"], now=case["now"])
            assert isinstance(event, Event)
            assert event.id == case["expected"]["event_id"]
        else:
            with pytest.raises(innkeep.SignatureVerificationError) as refused:
                innkeep.Webhook.construct_event(payload, case["header"], case["secret"], case["tolerance"], now=case["now"])
            assert refused.value.reason == case["expected"]["reason"]


def test_generate_test_header_signs_as_the_vectors() -> None:
    valid = next(c for c in signatures if c["name"] == "valid")
    t = int(valid["header"].split(",")[0][2:])
    assert innkeep.Webhook.generate_test_header(valid["payload"], valid["secret"], timestamp=t) == valid["header"]


def test_backoff_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    for bound in retries["backoff"]["bounds"]:
        monkeypatch.setattr("innkeep._transport.random.random", lambda: 0.999999)
        assert bound["max_ms"] * 0.999 < _transport.backoff(bound["attempt"]) * 1000 < bound["max_ms"]
        monkeypatch.setattr("innkeep._transport.random.random", lambda: 0.0)
        assert _transport.backoff(bound["attempt"]) == 0
    assert innkeep.Innkeep(api_key="k")._config.max_retries == retries["default_max_retries"]


def _check_decision(case: dict[str, Any], script: Script, sleeps: list[float], outcome: Any) -> None:
    if case["retry"]:
        assert outcome == {"ok": True}
        assert len(script.seen) == 2
        wait = case["wait"]
        assert sleeps == [wait["seconds"] if "seconds" in wait else 0.5 * retries["backoff"]["base_ms"] / 1000]
        assert script.seen[1].headers["idempotency-key"] == script.seen[0].headers["idempotency-key"]
    else:
        assert isinstance(outcome, innkeep.InnkeepError)
        assert len(script.seen) == 1
        assert sleeps == []


@named(retries["decisions"])
def test_retry_decision(case: dict[str, Any], fixed_random: None) -> None:
    script, sleeps = Script([case["answer"], {"status": 200, "body": {"ok": True}}]), list[float]()
    client = sync_client(script, sleeps, max_retries=1)
    try:
        outcome = client.request("POST", "/guests", body={"first_name": "A"})
    except innkeep.InnkeepError as error:
        outcome = error
    _check_decision(case, script, sleeps, outcome)


@named(retries["decisions"])
async def test_retry_decision_async(case: dict[str, Any], fixed_random: None) -> None:
    script, sleeps = Script([case["answer"], {"status": 200, "body": {"ok": True}}]), list[float]()
    client = async_client(script, sleeps, max_retries=1)
    try:
        outcome = await client.request("POST", "/guests", body={"first_name": "A"})
    except innkeep.InnkeepError as error:
        outcome = error
    _check_decision(case, script, sleeps, outcome)


def _check_sequence(case: dict[str, Any], script: Script, outcome: Any) -> None:
    expected = case["expected"]
    assert len(script.seen) == expected["attempts"]
    if case["method"] == "POST":
        assert len({r.headers["idempotency-key"] for r in script.seen}) == 1
        assert {r.content for r in script.seen} == {b'{"first_name":"A"}'}
    if "result" in expected:
        assert outcome == expected["result"]
        return
    error = expected["error"]
    assert type(outcome) is CLASSES[error["class"]]
    assert outcome.status == error["status"]
    if "code" in error:
        assert outcome.code == error["code"]
    if "request_id" in error:
        assert outcome.request_id == error["request_id"]


@named(retries["sequences"])
def test_retry_sequence(case: dict[str, Any], fixed_random: None) -> None:
    script = Script(list(case["answers"]))
    options = {} if case["max_retries"] is None else {"max_retries": case["max_retries"]}
    client = sync_client(script, **options)
    try:
        outcome = client.request(case["method"], "/guests", body={"first_name": "A"} if case["method"] == "POST" else None)
    except innkeep.InnkeepError as error:
        outcome = error
    _check_sequence(case, script, outcome)


@named(retries["sequences"])
async def test_retry_sequence_async(case: dict[str, Any], fixed_random: None) -> None:
    script = Script(list(case["answers"]))
    options = {} if case["max_retries"] is None else {"max_retries": case["max_retries"]}
    client = async_client(script, **options)
    try:
        outcome = await client.request(case["method"], "/guests", body={"first_name": "A"} if case["method"] == "POST" else None)
    except innkeep.InnkeepError as error:
        outcome = error
    _check_sequence(case, script, outcome)


@named(errors)
def test_error_mapping(case: dict[str, Any]) -> None:
    client = sync_client(Script([case]), max_retries=0)
    with pytest.raises(innkeep.InnkeepError) as raised:
        client.reservations.retrieve("res_x")
    error, expected = raised.value, case["expected"]
    assert type(error) is CLASSES[expected["class"]]
    for parent in expected["is_a"]:
        assert isinstance(error, CLASSES[parent])
    assert (error.status, error.type, error.code, error.param, error.request_id) == (
        case["status"],
        expected["type"],
        expected["code"],
        expected["param"],
        expected["request_id"],
    )
    if "message" in expected:
        assert str(error) == expected["message"]
    if "retry_after" in expected:
        assert isinstance(error, innkeep.RateLimitError)
        assert error.retry_after == expected["retry_after"]
    if "payment_id" in expected:
        assert isinstance(error, innkeep.CardError)
        assert error.payment_id == expected["payment_id"]
    # Money errors' amount and currency as fields; None for every other error.
    assert (error.amount, error.currency) == (expected.get("amount"), expected.get("currency"))


def _check_walk(walk: dict[str, Any], script: Script, ids: list[str]) -> None:
    assert ids == walk["expected_ids"]
    assert [r.url.path for r in script.seen] == ["/v1" + walk["path"]] * len(walk["pages"])
    assert [dict(parse_qsl(r.url.query.decode())) for r in script.seen] == [p["expected_query"] for p in walk["pages"]]


@named(walks)
def test_pagination_walk(case: dict[str, Any]) -> None:
    script = Script([{"status": 200, "body": p["answer"]} for p in case["pages"]])
    client = sync_client(script)
    ids = [r["id"] for r in _raw_walk(client, case)]
    _check_walk(case, script, ids)


def _raw_walk(client: innkeep.Innkeep, walk: dict[str, Any]) -> list[dict[str, Any]]:
    # The vectors' items carry only ids, so walk with the untyped list of the same operation.
    return list(client.reservations._list_raw("listReservations", (), dict(walk["params"]), None))


@named(walks)
async def test_pagination_walk_async(case: dict[str, Any]) -> None:
    script = Script([{"status": 200, "body": p["answer"]} for p in case["pages"]])
    client = async_client(script)
    ids = [r["id"] async for r in client.reservations._list_raw("listReservations", (), dict(case["params"]), None)]
    _check_walk(case, script, ids)
