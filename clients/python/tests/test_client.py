"""The client's own behaviour with scripted answers: what it sends, what it answers, its options."""

from __future__ import annotations

import datetime
import json
import re
import socket
import threading
from collections.abc import Iterator

import httpx
import pytest

import innkeep
from innkeep import models

from scripted import Script, async_client, sync_client

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")

GUEST = {
    "id": "gst_1",
    "object": "guest",
    "livemode": False,
    "first_name": "Ada",
    "last_name": "Lovelace",
    "email": "ada@example.test",
    "phone": None,
    "address": None,
    "metadata": {},
    "erased_at": None,
    "created_at": "2026-11-21T09:30:00.000Z",
    "updated_at": "2026-11-21T09:30:00.000Z",
    "a_field_added_later": 1,
}
EMPTY = {"object": "list", "data": [], "has_more": False, "next_cursor": None, "prev_cursor": None}


def test_sends_credential_environment_version_and_remembers_the_answer() -> None:
    script = Script([{"status": 200, "body": GUEST, "headers": {"Service-Request-Id": "req_1", "X-RateLimit-Limit": "100", "X-RateLimit-Remaining": "99", "X-RateLimit-Reset": "1700000000"}}])
    client = sync_client(script, environment="sandbox", version="2025-09-01")
    guest = client.guests.retrieve("gst_1")
    request = script.seen[0]
    assert str(request.url) == "http://innkeep.test/v1/guests/gst_1"
    assert request.headers["authorization"] == "Bearer hk_test"
    assert request.headers["service-environment"] == "sandbox"
    assert request.headers["service-version"] == "2025-09-01"
    assert request.headers["user-agent"].startswith("innkeep-python/")
    assert "idempotency-key" not in request.headers
    assert client.last_response is not None
    assert client.last_response.request_id == "req_1"
    assert client.last_response.rate_limit == innkeep.RateLimit(100, 99, 1_700_000_000)
    assert client.last_response.attempts == 1


def test_answers_are_typed_models_that_keep_fields_added_later() -> None:
    client = sync_client(Script([{"status": 200, "body": GUEST}]))
    guest = client.guests.retrieve("gst_1")
    assert isinstance(guest, models.Guest)
    assert guest.email == "ada@example.test"
    assert guest.created_at == datetime.datetime(2026, 11, 21, 9, 30, tzinfo=datetime.timezone.utc)
    assert guest.model_extra is not None and guest.model_extra["a_field_added_later"] == 1


def test_post_body_idempotency_key_and_per_call_options() -> None:
    script = Script([{"status": 201, "body": GUEST}, {"status": 201, "body": GUEST}])
    client = sync_client(script)
    client.guests.create(first_name="Ada", last_name="Lovelace", email="ada@example.test", phone="+1 555 0100")
    client.guests.create(
        first_name="Ada",
        last_name="Lovelace",
        email="ada@example.test",
        request_options={"idempotency_key": "my-key", "environment": "sandbox", "headers": {"X-Trace": "1"}},
    )
    first, second = script.seen
    assert json.loads(first.content) == {"first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.test", "phone": "+1 555 0100"}
    assert first.headers["content-type"] == "application/json"
    assert UUID4.match(first.headers["idempotency-key"])
    assert "service-environment" not in first.headers
    assert second.headers["idempotency-key"] == "my-key"
    assert second.headers["service-environment"] == "sandbox"
    assert second.headers["x-trace"] == "1"
    assert client.last_response is not None and client.last_response.idempotency_key == "my-key"


def test_an_action_without_parameters_posts_an_empty_object() -> None:
    script = Script([{"status": 200, "body": {"id": "res_1"}}])
    sync_client(script).request("POST", "/reservations/res_1/check_out")
    assert script.seen[0].content == b"{}"


def test_path_parameters_are_encoded_and_must_be_given() -> None:
    script = Script([{"status": 200, "body": {"id": "bf", "object": "backfill"}}])
    client = sync_client(script)
    client.webhook_endpoints._call_raw("getWebhookBackfill", ("we_1", "bf/2"), {}, None)
    assert script.seen[0].url.raw_path == b"/v1/webhook_endpoints/we_1/backfills/bf%2F2"
    with pytest.raises(TypeError, match="`id` must be a non-empty string"):
        client.reservations.retrieve("")


def test_query_values_dates_booleans_lists_and_none() -> None:
    script = Script([{"status": 200, "body": EMPTY}])
    client = sync_client(script)
    # Values of kinds no operation's query takes yet (lists, booleans), through the untyped call.
    client.request("GET", "/reservations", query={"status": "confirmed", "check_in_from": datetime.date(2026, 1, 1), "include": ["a", "b"], "flag": True, "none": None})
    assert script.seen[0].url.query.decode() == "status=confirmed&check_in_from=2026-01-01&include=a&include=b&flag=true"


def test_bodies_accept_dates_and_models() -> None:
    script = Script([{"status": 201, "body": {"id": "hold_1"}}])
    client = sync_client(script)
    money = models.Money(amount=1250, currency="EUR")
    client.request("POST", "/anything", body={"check_in": datetime.date(2026, 12, 24), "total": money})
    assert json.loads(script.seen[0].content) == {"check_in": "2026-12-24", "total": {"amount": 1250, "currency": "EUR"}}


def test_list_items_are_models_and_to_list_stops_at_its_limit() -> None:
    def page(ids: list[str], cursor: str | None) -> dict[str, object]:
        return {"object": "list", "data": [{**GUEST, "id": i} for i in ids], "has_more": cursor is not None, "next_cursor": cursor, "prev_cursor": None}

    script = Script([{"status": 200, "body": page(["g1", "g2"], "c2")}, {"status": 200, "body": page(["g3", "g4"], "c4")}, {"status": 200, "body": page(["g5"], None)}])
    client = sync_client(script)
    first = client.guests.list(limit=2)
    assert [g.id for g in first.data] == ["g1", "g2"] and first.has_more
    assert all(isinstance(g, models.Guest) for g in first.data)
    assert [g.id for g in first.to_list(limit=3)] == ["g1", "g2", "g3"]
    assert len(script.seen) == 2  # the third page was never fetched
    with pytest.raises(ValueError):
        first.to_list(limit=-1)


async def test_async_list_awaits_to_the_first_page_and_iterates_everything() -> None:
    script = Script([
        {"status": 200, "body": {"object": "list", "data": [GUEST], "has_more": True, "next_cursor": "c1", "prev_cursor": None}},
        {"status": 200, "body": {"object": "list", "data": [{**GUEST, "id": "gst_2"}], "has_more": False, "next_cursor": None, "prev_cursor": None}},
        {"status": 200, "body": {"object": "list", "data": [GUEST], "has_more": True, "next_cursor": "c1", "prev_cursor": None}},
    ])
    client = async_client(script)
    assert [g.id async for g in client.guests.list(limit=1)] == ["gst_1", "gst_2"]
    page = await client.guests.list(limit=1)
    assert isinstance(page, innkeep.AsyncPage) and page.next_cursor == "c1"
    guest = await async_client(Script([{"status": 200, "body": GUEST}])).guests.retrieve("gst_1")
    assert isinstance(guest, models.Guest)


def test_refresh_token_is_called_once_on_an_expired_access_token() -> None:
    expired = {"status": 401, "body": {"error": {"type": "authentication_error", "code": "token_expired", "message": "Expired.", "request_id": "req_x"}}}
    script = Script([expired, {"status": 200, "body": GUEST}])
    calls: list[int] = []

    def refresh() -> str:
        calls.append(1)
        return "hat_new"

    client = innkeep.Innkeep(access_token="hat_old", refresh_token=refresh, base_url="http://innkeep.test", http_client=sync_client(script)._http)
    client.guests.retrieve("gst_1")
    assert calls == [1]
    assert [r.headers["authorization"] for r in script.seen] == ["Bearer hat_old", "Bearer hat_new"]
    script.answers = [expired, expired]
    with pytest.raises(innkeep.AuthenticationError):
        client.guests.retrieve("gst_1")
    assert calls == [1, 1]


def test_both_credentials_is_a_mistake() -> None:
    with pytest.raises(TypeError):
        innkeep.Innkeep(api_key="hk_1", access_token="hat_1")


def test_a_missing_key_is_refused_at_construction_and_names_the_variable() -> None:
    """Issue 40, point 4: said where the client is made, not as a 401 on every call."""
    for options in ({}, {"api_key": None}, {"api_key": ""}, {"access_token": "  "}):
        for make in (innkeep.Innkeep, innkeep.AsyncInnkeep):
            with pytest.raises(TypeError, match="No API key.*INNKEEP_API_KEY"):
                make(**options)
    assert innkeep.Innkeep(access_token="hat_1")._token == "hat_1"


def test_base_url_takes_an_origin_or_the_v1_root() -> None:
    for base in ("http://h:1", "http://h:1/", "http://h:1/v1", "http://h:1/v1/"):
        assert innkeep.Innkeep(api_key="k", base_url=base)._config.base_url == "http://h:1/v1"


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A server that accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for s in held:
        s.close()
    server.close()


def test_a_timeout_per_call_is_an_api_timeout_error_after_its_retries(silent_server: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("innkeep._transport.random.random", lambda: 0.0)
    client = innkeep.Innkeep(api_key="k", base_url=silent_server, timeout=30)
    with pytest.raises(innkeep.ApiTimeoutError):
        client.guests.list(request_options={"timeout": 0.2, "max_retries": 1})
    assert isinstance(innkeep.ApiTimeoutError("x"), innkeep.ApiConnectionError)


def test_a_refused_connection_is_an_api_connection_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("innkeep._transport.random.random", lambda: 0.0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(innkeep.ApiConnectionError) as raised:
        innkeep.Innkeep(api_key="k", base_url=f"http://127.0.0.1:{port}", max_retries=0).guests.list()
    assert raised.value.status == 0 and raised.value.type == "connection_error"


PDF = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n%%EOF\n"
"""The start of a PDF: binary, not UTF-8, so that a client decoding it as text would change it."""


def test_an_invoice_pdf_is_its_bytes_exactly_and_its_errors_are_typed() -> None:
    pdf = {"status": 200, "bytes": PDF, "headers": {"Content-Type": "application/pdf", "Content-Disposition": 'attachment; filename="Harbor-1.pdf"'}}
    missing = {"status": 404, "body": {"error": {"type": "invalid_request_error", "code": "resource_missing", "message": "No such invoice: 'inv_x'", "param": "id"}}}
    script = Script([pdf, missing])
    client = sync_client(script)
    document = client.invoices.retrieve_pdf("inv_1")
    assert type(document) is bytes and document == PDF
    assert str(script.seen[0].url) == "http://innkeep.test/v1/invoices/inv_1/pdf"
    assert script.seen[0].method == "GET"
    with pytest.raises(innkeep.NotFoundError) as raised:
        client.invoices.retrieve_pdf("inv_x")
    assert (raised.value.status, raised.value.code, raised.value.param) == (404, "resource_missing", "id")


def test_an_invoice_pdf_answered_as_json_is_an_unexpected_response() -> None:
    client = sync_client(Script([{"status": 200, "body": {"object": "invoice"}}]))
    with pytest.raises(innkeep.ApiError) as raised:
        client.invoices.retrieve_pdf("inv_1")
    assert raised.value.code == "unexpected_response"


async def test_the_async_client_answers_an_invoice_pdf_as_bytes() -> None:
    script = Script([{"status": 200, "bytes": PDF, "headers": {"Content-Type": "application/pdf"}}])
    async with async_client(script) as client:
        assert await client.invoices.retrieve_pdf("inv_1") == PDF


def test_an_answer_that_is_not_the_apis_says_what_came_instead_and_from_where() -> None:
    from innkeep._errors import error_from_response

    headers = httpx.Headers({"content-type": "text/html; charset=utf-8"})
    error = error_from_response(404, "<html>\n  Not   Found</html>", headers, httpx.URL("https://example.com/v1/rooms?limit=1"))
    assert type(error) is innkeep.ApiError and error.code == "unexpected_response"
    assert error.message.startswith("https://example.com/v1/rooms answered HTTP 404 with text/html, starting '<html> Not Found</html>'")
    assert "base_url" in error.message


def test_a_misspelt_parameter_is_a_type_error() -> None:
    """mypy --strict (run on the tests too) refuses the misspelt keyword below unless it is ignored:
    each method's keyword arguments are its operation's TypedDict (innkeep._params)."""
    client = sync_client(Script([{"status": 201, "body": GUEST}, {"status": 201, "body": GUEST}]))
    client.guests.create(first_name="Ada", last_name="Lovelace", emial="ada@example.test")  # type: ignore[call-arg]
    client.guests.create(first_name="Ada", last_name=7, email="ada@example.test")  # type: ignore[arg-type]
