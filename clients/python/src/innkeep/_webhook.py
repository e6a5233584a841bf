"""Webhook signature verification: `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256>`."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Sequence
from typing import Literal

from pydantic import ValidationError

from .models import Event

Reason = Literal["missing_header", "missing_timestamp", "missing_signature", "timestamp_outside_tolerance", "no_matching_signature"]

DEFAULT_TOLERANCE = 300
_HEX64 = re.compile(r"[0-9a-fA-F]{64}")


class SignatureVerificationError(Exception):
    """A delivery that does not verify; `reason` is stable, the message says it in words."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


def _sign(secret: str, timestamp: int, payload: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + payload, hashlib.sha256).hexdigest()


def _bytes(payload: bytes | str) -> bytes:
    return payload.encode() if isinstance(payload, str) else payload


class Webhook:
    """Verifies deliveries (`Webhook.construct_event(...)`) and signs test payloads."""

    @staticmethod
    def verify_header(
        payload: bytes | str, header: str | None, secret: str, tolerance: int = DEFAULT_TOLERANCE, *, now: int | None = None
    ) -> None:
        """Raises SignatureVerificationError unless a `v1` of `header` signs `payload` with `secret`
        and its `t` is within `tolerance` seconds of now (0 turns the age check off)."""
        if not header:
            raise SignatureVerificationError("missing_header", "No Service-Signature header: is this request from Innkeep?")
        timestamp: int | None = None
        signatures: list[str] = []
        for part in header.split(","):
            key, _, value = part.strip().partition("=")
            if key == "t" and value.isdigit() and value.isascii():
                timestamp = int(value)
            elif key == "v1" and _HEX64.fullmatch(value):
                signatures.append(value.lower())
        if timestamp is None:
            raise SignatureVerificationError("missing_timestamp", "The Service-Signature header has no timestamp (t=).")
        if not signatures:
            raise SignatureVerificationError("missing_signature", "The Service-Signature header has no v1 signature.")
        current = int(time.time()) if now is None else now
        if tolerance > 0 and abs(current - timestamp) > tolerance:
            raise SignatureVerificationError(
                "timestamp_outside_tolerance",
                f"The signature's timestamp is more than {tolerance} seconds from now: a replayed or delayed delivery.",
            )
        expected = _sign(secret, timestamp, _bytes(payload))
        # Check every v1 (during a secret rotation a delivery carries one per secret), in constant time.
        if not any([hmac.compare_digest(expected, s) for s in signatures]):
            raise SignatureVerificationError(
                "no_matching_signature",
                "No v1 signature matches this body and secret: wrong secret, or the body was changed "
                "(verify the raw bytes, before any JSON parsing).",
            )

    @staticmethod
    def construct_event(
        payload: bytes | str, header: str | None, secret: str, tolerance: int = DEFAULT_TOLERANCE, *, now: int | None = None
    ) -> Event:
        """Verifies a delivery and answers its event. `payload` is the exact body received (before
        any JSON parsing), `header` the `Service-Signature` header, `secret` the endpoint's `whsec_…`.

        The event is read leniently (an event type newer than this client, or a `data.object` with fewer
        fields than its model, is still an Event); `event.typed()` gives the model of its type. A verified
        body that is not an event at all (not JSON, no `id` or `type`) raises ValueError."""
        Webhook.verify_header(payload, header, secret, tolerance, now=now)
        body = json.loads(_bytes(payload))
        if not isinstance(body, dict):
            raise ValueError("The verified body is not an event (a JSON object).")
        try:
            return Event.model_validate(body)
        except ValidationError as invalid:
            raise ValueError(f"The verified body is not an event: {invalid}") from invalid

    @staticmethod
    def generate_test_header(payload: bytes | str, secret: str | Sequence[str], *, timestamp: int | None = None) -> str:
        """A `Service-Signature` header as Innkeep would sign `payload`, to test a receiver.
        Several secrets give one `v1` each, as during a rotation."""
        t = int(time.time()) if timestamp is None else timestamp
        secrets = [secret] if isinstance(secret, str) else list(secret)
        return ",".join([f"t={t}", *(f"v1={_sign(s, t, _bytes(payload))}" for s in secrets)])
