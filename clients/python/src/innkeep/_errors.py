"""The typed errors of the client: one class per `error.type` of the API's error envelope."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from typing import Any

import httpx


class InnkeepError(Exception):
    """Base of every error the client raises for an answer of the API (or for no answer)."""

    status: int
    """HTTP status of the answer (0 when there was no answer: network failure, timeout)."""
    type: str
    """`error.type` of the body, e.g. `invalid_request_error`."""
    code: str
    """`error.code` of the body, e.g. `parameter_missing`."""
    param: str | None
    """Dotted path of the parameter at fault (`guest.email`), when one is."""
    amount: int | None
    """Money errors (`balance_outstanding`, `amount_exceeds_refundable`, `amount_exceeds_balance`): the amount the message states, in minor units of `currency` (a balance is negative when the hotel owes it)."""
    currency: str | None
    """Money errors: the ISO 4217 currency of `amount`."""
    request_id: str | None
    """`Service-Request-Id` of the answer: quote it to support."""
    headers: httpx.Headers | None
    body: dict[str, Any] | None
    """The error envelope as received, when there was one."""

    def __init__(
        self,
        message: str,
        *,
        status: int = 0,
        body: Mapping[str, Any] | None = None,
        headers: httpx.Headers | None = None,
        type: str = "api_error",
    ) -> None:
        super().__init__(message)
        error: Mapping[str, Any] = body.get("error", {}) if body else {}
        self.message = message
        self.status = status
        self.type = error.get("type", type)
        self.code = error.get("code", "unknown")
        self.param = error.get("param")
        amount = error.get("amount")
        self.amount = amount if isinstance(amount, int) and not isinstance(amount, bool) else None
        currency = error.get("currency")
        self.currency = currency if isinstance(currency, str) else None
        self.request_id = error.get("request_id") or (headers.get("service-request-id") if headers else None)
        self.headers = headers
        self.body = dict(body) if body else None

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(status={self.status}, code={self.code!r}, request_id={self.request_id!r}, message={self.message!r})"


class InvalidRequestError(InnkeepError):
    """400, 405, 413, 415, 422, 431: the request is wrong; `param` names the field."""


class NotFoundError(InvalidRequestError):
    """404 `resource_missing` or `route_not_found`."""


class AuthenticationError(InnkeepError):
    """401: missing, invalid, expired or revoked credential."""


class PermissionDeniedError(InnkeepError):
    """403: a scope, IP allow-list entry or property grant is missing."""


class ConflictError(InnkeepError):
    """409: no availability, a state that forbids the change, a restriction, a balance outstanding."""


class IdempotencyError(InnkeepError):
    """409 `idempotency_key_in_use` or 422 `idempotency_key_reused`."""


class CardError(InnkeepError):
    """402: a card was declined; `payment_id` names the failed payment, which is recorded."""

    @property
    def payment_id(self) -> str | None:
        error = (self.body or {}).get("error", {})
        value = error.get("payment_id")
        return value if isinstance(value, str) else None


class RateLimitError(InnkeepError):
    """429: over the rate limit; `retry_after` is the server's `Retry-After`, in seconds."""

    @property
    def retry_after(self) -> float | None:
        return retry_after_seconds(self.headers)


class ApiError(InnkeepError):
    """500 and 503, and any answer the client cannot read."""


class ApiConnectionError(InnkeepError):
    """The request never got an answer: DNS, refused or reset connection (code `connection_failed`)."""

    def __init__(self, message: str, *, code: str = "connection_failed") -> None:
        super().__init__(message, status=0, type="connection_error")
        self.code = code


class ApiTimeoutError(ApiConnectionError):
    """No answer within the timeout (code `timeout`)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="timeout")


_BY_TYPE: dict[str, type[InnkeepError]] = {
    "invalid_request_error": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "permission_error": PermissionDeniedError,
    "conflict_error": ConflictError,
    "idempotency_error": IdempotencyError,
    "card_error": CardError,
    "rate_limit_exceeded": RateLimitError,
    "api_error": ApiError,
}


def error_from_response(status: int, body: Any, headers: httpx.Headers, url: httpx.URL | str | None = None) -> InnkeepError:
    """The typed error of an error answer, chosen by its `error.type` (any 404 is NotFoundError).
    An answer that is not the API's error JSON (a proxy's page, another server's 404: usually a
    wrong `base_url`) is an ApiError (RateLimitError for a 429, so that it is retried) with code
    `unexpected_response`, whose message says what came instead, and from where."""
    if not _is_error_body(body):
        cls: type[InnkeepError] = RateLimitError if status == 429 else ApiError
        error = cls(_unexpected(status, body, headers, url), status=status, body=None, headers=headers)
        error.code = "unexpected_response"
        return error
    kind = body["error"]["type"]
    if status == 404:
        cls = NotFoundError
    elif kind in _BY_TYPE:
        cls = _BY_TYPE[kind]
    else:
        cls = RateLimitError if status == 429 else ApiError
    return cls(str(body["error"].get("message", f"HTTP {status}")), status=status, body=body, headers=headers)


def _unexpected(status: int, body: Any, headers: httpx.Headers, url: httpx.URL | str | None) -> str:
    content_type = (headers.get("content-type") or "").split(";")[0].strip() or "no content type"
    text = " ".join(body.split()) if isinstance(body, str) else ""
    start = f", starting '{text[:60]}…'" if len(text) > 60 else f", starting '{text}'" if text else ""
    where = str(httpx.URL(str(url)).copy_with(query=None, fragment=None)) if url else "the server"
    if status == 404 or "html" in content_type.lower():
        hint = (
            " Is `base_url` right? It must be the Innkeep server's origin (or `<origin>/v1`), and nothing in"
            " between may answer for it."
        )
    elif status >= 500:
        hint = " A proxy or load balancer in front of Innkeep may have answered; retry later."
    else:
        hint = ""
    return f"{where} answered HTTP {status} with {content_type}{start}: not an Innkeep API answer.{hint}"


def _is_error_body(body: Any) -> bool:
    error = body.get("error") if isinstance(body, dict) else None
    return isinstance(error, dict) and isinstance(error.get("type"), str) and isinstance(error.get("code"), str)


def retry_after_seconds(headers: httpx.Headers | None) -> float | None:
    """`Retry-After` in seconds: a number of seconds, or an HTTP date from now."""
    value = headers.get("retry-after") if headers else None
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, float(int(when.timestamp() - time.time() + 0.999)))
