"""The client against a real, running Innkeep server (clients/live-tests.sh starts one).

Skipped unless INNKEEP_LIVE_URL is set; also needs INNKEEP_LIVE_API_KEY (every scope),
INNKEEP_LIVE_LIMITED_KEY (`rooms:read` only) and INNKEEP_LIVE_SLOW_KEY (one request a second),
and a server that may deliver webhooks to 127.0.0.1.
"""

from __future__ import annotations

import datetime
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, TypeVar

import pytest

import innkeep
from innkeep import models

URL = os.environ.get("INNKEEP_LIVE_URL", "")
pytestmark = [pytest.mark.live, pytest.mark.skipif(not URL, reason="INNKEEP_LIVE_URL is not set")]

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
RUN = uuid.uuid4().hex[:8]
T = TypeVar("T")


def key(name: str) -> str:
    return os.environ[name]


@pytest.fixture(scope="module")
def client() -> Iterator[innkeep.Innkeep]:
    with innkeep.Innkeep(api_key=key("INNKEEP_LIVE_API_KEY"), base_url=URL) as c:
        yield c


@pytest.fixture(scope="module")
def sandbox() -> Iterator[innkeep.Innkeep]:
    with innkeep.Innkeep(api_key=key("INNKEEP_LIVE_API_KEY"), base_url=URL, environment="sandbox") as c:
        yield c


@dataclass
class Hotel:
    property_id: str
    room_type_id: str
    rate_plan_id: str
    today: datetime.date


@pytest.fixture(scope="module")
def hotel(sandbox: innkeep.Innkeep) -> Hotel:
    """The account's sandbox hotel (every account has one), its King rooms at the BAR rate."""
    prop = sandbox.properties.list().data[0]
    king = next(t for t in sandbox.room_types.list(property_id=prop.id, limit=100) if t.code == "KING")
    bar = next(p for p in sandbox.rate_plans.list(property_id=prop.id, limit=100) if p.code == "BAR")
    return Hotel(prop.id, king.id, bar.id, datetime.datetime.now(datetime.timezone.utc).date())


_nights = iter(range(3, 300))


def booking(hotel: Hotel, email: str | None = None) -> dict[str, Any]:
    """A stay with only the required fields, on nights of its own."""
    start = hotel.today + datetime.timedelta(days=next(_nights))
    return {
        "property_id": hotel.property_id,
        "guest": {"first_name": "Ada", "last_name": "Lovelace", "email": email or f"ada-{RUN}-{uuid.uuid4().hex[:6]}@example.com"},
        "check_in": start,
        "check_out": start + datetime.timedelta(days=1),
        "room_type_id": hotel.room_type_id,
        "rate_plan_id": hotel.rate_plan_id,
        "adults": 1,
    }


def reservations_of(client: innkeep.Innkeep, email: str) -> list[models.Reservation]:
    guests = client.guests.list(email=email).data
    return [r for g in guests for r in client.reservations.list(guest_id=g.id, limit=100)]


def test_books_a_stay_reads_it_pays_and_cancels(sandbox: innkeep.Innkeep, hotel: Hotel) -> None:
    stay = sandbox.reservations.create(**booking(hotel))
    assert isinstance(stay, models.Reservation)
    assert (stay.status, stay.children, stay.source, stay.nights) == ("confirmed", 0, "api", 1)
    info = sandbox.last_response
    assert info is not None and info.status == 201 and info.attempts == 1 and not info.idempotent_replayed
    assert info.idempotency_key and UUID4.match(info.idempotency_key)
    assert info.request_id and info.request_id.startswith("req_")
    assert info.rate_limit.limit and info.rate_limit.limit > 0

    assert sandbox.reservations.retrieve(stay.id).id == stay.id
    assert stay.id in [r.id for r in sandbox.reservations.list(status="confirmed", guest_id=stay.guest.id)]
    payment = sandbox.payments.create(reservation_id=stay.id, payment_method={"type": "cash"})
    assert (payment.object, payment.status) == ("payment", "succeeded")
    assert sandbox.reservations.cancel(stay.id).status == "cancelled"


async def test_the_async_client_books_and_walks(hotel: Hotel) -> None:
    async with innkeep.AsyncInnkeep(api_key=key("INNKEEP_LIVE_API_KEY"), base_url=URL, environment="sandbox") as client:
        stay = await client.reservations.create(**booking(hotel))
        assert stay.status == "confirmed"
        again = await client.reservations.retrieve(stay.id)
        assert again.total == stay.total
        ids = [r.id async for r in client.reservations.list(guest_id=stay.guest.id, limit=1)]
        assert ids == [stay.id]


def test_a_callers_idempotency_key_is_replayed_from_the_store(sandbox: innkeep.Innkeep, hotel: Hotel) -> None:
    body = booking(hotel)
    idem = f"py-{RUN}-replay"
    first = sandbox.reservations.create(**body, request_options={"idempotency_key": idem})
    second = sandbox.reservations.create(**body, request_options={"idempotency_key": idem})
    assert second.id == first.id
    assert sandbox.last_response is not None
    assert sandbox.last_response.idempotency_key == idem and sandbox.last_response.idempotent_replayed
    assert len(reservations_of(sandbox, body["guest"]["email"])) == 1


def test_issues_an_invoice_for_a_cancelled_stay_and_downloads_its_pdf(sandbox: innkeep.Innkeep, hotel: Hotel) -> None:
    stay = sandbox.reservations.create(**booking(hotel))
    # A free cancellation leaves the folio empty, and an empty folio is not invoiced (409): with a
    # charge on it, the cancellation closes the folio into its invoice.
    sandbox.folios.create_charge(stay.folio_id, description="Minibar", amount=1500)
    assert sandbox.reservations.cancel(stay.id).status == "cancelled"
    folio = sandbox.reservations.retrieve_folio(stay.id)
    assert folio.invoice_id is not None
    invoice = sandbox.invoices.retrieve(folio.invoice_id)
    assert isinstance(invoice, models.Invoice) and invoice.folio_id == folio.id
    assert sandbox.invoices.retrieve(invoice.id).number == invoice.number
    assert invoice.id in [i.id for i in sandbox.invoices.list(property_id=hotel.property_id, limit=100)]
    document = sandbox.invoices.retrieve_pdf(invoice.id)
    assert isinstance(document, bytes) and document.startswith(b"%PDF-")
    assert sandbox.last_response is not None
    assert sandbox.last_response.headers["content-type"].startswith("application/pdf")
    with pytest.raises(innkeep.NotFoundError) as missing:
        sandbox.invoices.retrieve_pdf("inv_doesnotexist")
    assert missing.value.code == "resource_missing"
    with pytest.raises(innkeep.ConflictError) as again:
        sandbox.folios.create_invoice(folio.id)
    assert again.value.code == "invalid_state_transition"


def test_groups_taxes_upgrades_and_a_guests_export_and_erasure(sandbox: innkeep.Innkeep, hotel: Hotel) -> None:
    """Each new resource once, its answer read by the generated model of the document."""
    stay = booking(hotel)
    room = {"room_type_id": hotel.room_type_id, "rate_plan_id": hotel.rate_plan_id, "adults": 1}
    group = sandbox.groups.create(
        property_id=hotel.property_id, guest=stay["guest"], check_in=stay["check_in"], check_out=stay["check_out"], rooms=[room, room]
    )
    assert isinstance(group, models.Group) and len(group.reservations) == 2 and group.check_in == stay["check_in"]
    assert sandbox.groups.retrieve(group.id).name == group.name
    assert group.id in [g.id for g in sandbox.groups.list(property_id=hotel.property_id, limit=100)]
    assert sandbox.groups.cancel(group.id, reason="Plans changed").id == group.id

    tax = sandbox.taxes.create(property_id=hotel.property_id, name=f"Py {RUN}", kind="percentage", percentage=7.5, inclusive=True)
    assert isinstance(tax, models.Tax) and (tax.kind, tax.percentage, tax.inclusive, tax.active) == ("percentage", 7.5, True, True)
    # Inactive again at once: the sandbox hotel's prices stay those of the other suites.
    assert sandbox.taxes.update(tax.id, active=False).active is False
    assert sandbox.taxes.retrieve(tax.id).name == f"Py {RUN}"
    assert tax.id in [t.id for t in sandbox.taxes.list(property_id=hotel.property_id, limit=100)]

    other = next(
        t for t in sandbox.room_types.list(property_id=hotel.property_id, limit=100) if t.id != hotel.room_type_id and t.room_count > 0
    )
    reservation = sandbox.reservations.create(**booking(hotel))
    upgraded = sandbox.reservations.upgrade(reservation.id, room_type_id=other.id, charge="none")
    assert upgraded.room_type_id == other.id and upgraded.total == reservation.total

    exported = sandbox.guests.export(reservation.guest.id)
    assert isinstance(exported, models.GuestExport) and exported.guest.id == reservation.guest.id
    assert reservation.id in [r.id for r in exported.reservations]
    erased = sandbox.guests.erase(reservation.guest.id, confirm=True)
    assert erased.erased_at is not None and erased.email is None


def _new_guest(client: innkeep.Innkeep, label: str) -> models.Guest:
    return client.guests.create(first_name="Walk", last_name=label, email=f"walk-{RUN}-{label}-{uuid.uuid4().hex[:6]}@example.com")


def test_walks_more_than_three_pages_while_rows_are_inserted(client: innkeep.Innkeep) -> None:
    for i in range(11):
        _new_guest(client, f"before{i}")
    before = [g.id for g in client.guests.list(limit=100)]
    pages = client.guests.list(limit=3)
    seen: list[str] = []
    inserted = 0
    for guest in pages:
        seen.append(guest.id)
        # A new row after every item: newer than every cursor, so the walk never meets it.
        _new_guest(client, f"during{inserted}")
        inserted += 1
    assert len(seen) == len(set(seen)), "a duplicate"
    assert seen == before, "a gap or a row out of order"
    assert sum(1 for _ in client.guests.list(limit=3).iter_pages()) > 3
    assert len(client.guests.list(limit=2).to_list(limit=5)) == 5


async def test_the_async_walk_sees_the_same_rows(client: innkeep.Innkeep) -> None:
    before = [g.id for g in client.guests.list(limit=100)]
    async with innkeep.AsyncInnkeep(api_key=key("INNKEEP_LIVE_API_KEY"), base_url=URL) as aclient:
        seen = []
        async for guest in aclient.guests.list(limit=4):
            seen.append(guest.id)
            if len(seen) % 3 == 0:
                await aclient.guests.create(first_name="Async", last_name="Walk", email=f"async-{RUN}-{uuid.uuid4().hex[:6]}@example.com")
    assert seen == before


def test_a_real_429_is_retried_after_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    with innkeep.Innkeep(api_key=key("INNKEEP_LIVE_SLOW_KEY"), base_url=URL) as slow:
        time.sleep(1.1)
        slow.guests.list(limit=1)
        started = time.monotonic()
        page = slow.guests.list(limit=1)  # the second in the same second: 429, then after Retry-After 200
        assert page.data is not None
        assert slow.last_response is not None and (slow.last_response.status, slow.last_response.attempts) == (200, 2)
        assert time.monotonic() - started >= 0.9
        with pytest.raises(innkeep.RateLimitError) as raised:
            slow.guests.list(limit=1, request_options={"max_retries": 0})
        assert raised.value.status == 429 and raised.value.code == "too_many_requests"
        assert raised.value.retry_after is not None and raised.value.retry_after >= 1


@dataclass
class DropProxy:
    """A TCP proxy that loses the next `drops` answers: the request reaches the server whole and
    the server commits it; the client's connection is closed before a byte of the answer arrives."""

    target: tuple[str, int]
    drops: int = 0
    dropped: int = 0
    server: socket.socket = field(default_factory=socket.socket)

    def start(self) -> str:
        self.server.bind(("127.0.0.1", 0))
        self.server.listen()
        threading.Thread(target=self._accept, daemon=True).start()
        return f"http://127.0.0.1:{self.server.getsockname()[1]}"

    def _accept(self) -> None:
        while True:
            try:
                downstream, _ = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            threading.Thread(target=self._pipe, args=(downstream, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, downstream, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if answers and self.drops > 0:
                    self.drops -= 1
                    self.dropped += 1
                    break
                sink.sendall(chunk)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self.server.close()


def test_a_connection_dropped_after_commit_books_exactly_once(sandbox: innkeep.Innkeep, hotel: Hotel) -> None:
    host, port = URL.removeprefix("http://").split(":")
    proxy = DropProxy((host, int(port.rstrip("/"))))
    proxied = innkeep.Innkeep(api_key=key("INNKEEP_LIVE_API_KEY"), base_url=proxy.start(), environment="sandbox")
    try:
        body = booking(hotel)
        proxy.drops = 1
        stay = proxied.reservations.create(**body)
        assert proxy.dropped == 1
        info = proxied.last_response
        assert info is not None and info.attempts == 2 and info.idempotent_replayed
        assert [r.id for r in reservations_of(sandbox, body["guest"]["email"])] == [stay.id]
    finally:
        proxied.close()
        proxy.close()


def test_typed_errors_from_the_server(sandbox: innkeep.Innkeep, hotel: Hotel) -> None:
    with pytest.raises(innkeep.AuthenticationError) as unauthenticated:
        innkeep.Innkeep(api_key="hk_not_a_real_key", base_url=URL).guests.list()
    assert unauthenticated.value.status == 401 and unauthenticated.value.request_id

    limited = innkeep.Innkeep(api_key=key("INNKEEP_LIVE_LIMITED_KEY"), base_url=URL, environment="sandbox")
    with pytest.raises(innkeep.PermissionDeniedError) as forbidden:
        limited.reservations.create(**booking(hotel))
    assert (forbidden.value.status, forbidden.value.code) == (403, "insufficient_scope")

    with pytest.raises(innkeep.NotFoundError) as missing:
        sandbox.reservations.retrieve("res_doesnotexist000000000000")
    assert (missing.value.status, missing.value.code) == (404, "resource_missing")
    assert isinstance(missing.value, innkeep.InvalidRequestError)

    wrong = booking(hotel)
    del wrong["guest"]["email"]
    with pytest.raises(innkeep.InvalidRequestError) as invalid:
        sandbox.reservations.create(**wrong)
    assert (invalid.value.status, invalid.value.code, invalid.value.param) == (422, "parameter_missing", "guest.email")
    assert invalid.value.request_id and invalid.value.request_id.startswith("req_")


@dataclass
class Delivery:
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """A webhook receiver on 127.0.0.1 that keeps every delivery and answers 204."""

    def __init__(self) -> None:
        self.deliveries: list[Delivery] = []
        deliveries = self.deliveries

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                deliveries.append(Delivery(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

    def wait_for(self, found: Callable[[Delivery], bool], timeout: float = 30) -> Delivery:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for d in list(self.deliveries):
                if found(d):
                    return d
            time.sleep(0.1)
        raise AssertionError("no delivery arrived")

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def test_verifies_real_webhook_deliveries_and_rotation(client: innkeep.Innkeep) -> None:
    receiver = Receiver()
    endpoint = client.webhook_endpoints.create(url=f"{receiver.url}/py-{RUN}", enabled_events=["guest.created"])
    try:
        secret = endpoint.secret
        guest = _new_guest(client, "hooked")
        delivery = receiver.wait_for(lambda d: guest.id.encode() in d.body)
        header = delivery.headers["service-signature"]
        event = innkeep.Webhook.construct_event(delivery.body, header, secret)
        assert (event.type, event.data.object["id"]) == ("guest.created", guest.id)
        with pytest.raises(innkeep.SignatureVerificationError) as tampered:
            innkeep.Webhook.construct_event(delivery.body.replace(b"hooked", b"hacked"), header, secret)
        assert tampered.value.reason == "no_matching_signature"
        with pytest.raises(innkeep.SignatureVerificationError) as wrong:
            innkeep.Webhook.construct_event(delivery.body, header, "whsec_not_the_secret")
        assert wrong.value.reason == "no_matching_signature"

        rotated = client.webhook_endpoints.rotate_secret(endpoint.id, expires_in_seconds=3600)
        assert rotated.secret != secret
        later = _new_guest(client, "rotated")
        during = receiver.wait_for(lambda d: later.id.encode() in d.body)
        header = during.headers["service-signature"]
        assert header.count("v1=") == 2
        for valid in (secret, rotated.secret):
            assert innkeep.Webhook.construct_event(during.body, header, valid).data.object["id"] == later.id
    finally:
        client.webhook_endpoints.delete(endpoint.id)
        receiver.close()
