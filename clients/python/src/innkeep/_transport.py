"""One API call: build it, send it, retry what is safe to retry, answer the body or raise.

A POST carries one `Idempotency-Key` for all of its attempts, so a retry can never book twice.
The rules (what retries, how long to wait) are the shared test vectors' (clients/testdata).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, Literal, TypedDict
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from ._errors import (
    ApiConnectionError,
    ApiTimeoutError,
    AuthenticationError,
    InnkeepError,
    error_from_response,
    retry_after_seconds,
)
from ._version import __version__

Environment = Literal["live", "sandbox"]

BASE_DELAY = 0.5
MAX_DELAY = 8.0
DEFAULT_MAX_RETRIES = 2
DEFAULT_TIMEOUT = 60.0
DEFAULT_BASE_URL = "http://localhost:3000/v1"


class RequestOptions(TypedDict, total=False):
    """Options of one call; each overrides the client's own."""

    idempotency_key: str
    """The `Idempotency-Key` of a POST; by default a UUID v4 made once per call, kept across its retries."""
    max_retries: int
    """Retries after a network error, timeout, 408, 409 `idempotency_key_in_use`, 429 or 5xx."""
    timeout: float
    """Seconds each attempt may take."""
    environment: Environment
    version: str
    headers: Mapping[str, str]


@dataclass(frozen=True)
class RateLimit:
    limit: int | None
    remaining: int | None
    reset: int | None


@dataclass(frozen=True)
class ResponseInfo:
    """What the latest answer said besides its body."""

    status: int
    request_id: str | None
    idempotency_key: str | None
    """The `Idempotency-Key` sent, for a POST."""
    idempotent_replayed: bool
    """True when the server answered a retried POST from its idempotency store."""
    rate_limit: RateLimit
    attempts: int
    """1 for a first-time success; more when retries were needed."""
    headers: httpx.Headers


def backoff(attempt: int) -> float:
    """Exponential backoff with full jitter: a uniform wait in [0, min(cap, base * 2^attempt)) seconds."""
    return random.random() * min(MAX_DELAY, BASE_DELAY * 2.0**attempt)


def retryable(error: InnkeepError) -> bool:
    """Whether trying again can help: no answer, 408, 409 `idempotency_key_in_use`, 429, 5xx."""
    if isinstance(error, ApiConnectionError):
        return True
    return error.status in (408, 429) or error.status >= 500 or error.code == "idempotency_key_in_use"


def retry_delay(error: InnkeepError, attempt: int) -> float:
    """`Retry-After` when the answer has one, else backoff for this attempt (counted from 0)."""
    after = retry_after_seconds(error.headers)
    return after if after is not None else backoff(attempt)


def _jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value)


@dataclass
class Call:
    method: str
    path: str
    query: Mapping[str, Any] | None = None
    body: Any = None
    options: RequestOptions = field(default_factory=lambda: RequestOptions())


def encode_path(template: str, names: tuple[str, ...], values: tuple[str, ...], operation: str) -> str:
    """Fills `{id}`-style path parameters, each a non-empty string, percent-encoded."""
    path = template
    for name, value in zip(names, values, strict=True):
        if not isinstance(value, str) or not value:
            raise TypeError(f"{operation}: `{name}` must be a non-empty string.")
        path = path.replace("{" + name + "}", quote(value, safe=""))
    return path


@dataclass
class Config:
    base_url: str
    token: Callable[[], str | None]
    environment: Environment | None
    version: str | None
    max_retries: int
    timeout: float
    on_response: Callable[[ResponseInfo], None]


@dataclass
class _Prepared:
    method: str
    url: str
    params: list[tuple[str, str | int | float | bool | None]]
    content: bytes | None
    idempotency_key: str | None
    max_retries: int
    timeout: float
    options: RequestOptions


def _prepare(config: Config, call: Call) -> _Prepared:
    o = call.options
    params: list[tuple[str, str | int | float | bool | None]] = []
    for name, value in (call.query or {}).items():
        if value is None:
            continue
        for v in value if isinstance(value, (list, tuple)) else [value]:
            params.append((name, _query_value(v)))
    if call.body is not None:
        content: bytes | None = json.dumps(call.body, default=_jsonable, separators=(",", ":")).encode()
    else:
        content = b"{}" if call.method == "POST" else None
    return _Prepared(
        method=call.method,
        url=config.base_url + call.path,
        params=params,
        content=content,
        idempotency_key=(o.get("idempotency_key") or str(uuid.uuid4())) if call.method == "POST" else None,
        max_retries=o.get("max_retries", config.max_retries),
        timeout=o.get("timeout", config.timeout),
        options=o,
    )


def _headers(config: Config, p: _Prepared) -> dict[str, str]:
    headers = {"accept": "application/json", "user-agent": f"innkeep-python/{__version__}"}
    token = config.token()
    if token:
        headers["authorization"] = f"Bearer {token}"
    if p.content is not None:
        headers["content-type"] = "application/json"
    environment = p.options.get("environment", config.environment)
    if environment:
        headers["service-environment"] = environment
    version = p.options.get("version", config.version)
    if version:
        headers["service-version"] = version
    if p.idempotency_key:
        headers["idempotency-key"] = p.idempotency_key
    headers.update(p.options.get("headers", {}))
    return headers


def _media_type(response: httpx.Response) -> str:
    return (response.headers.get("content-type") or "").split(";")[0].strip().lower()


def _parse(response: httpx.Response) -> Any:
    """JSON when the answer says so (or looks like it); the bytes of a document the API answers as a
    file (an invoice's PDF); the text otherwise (CSV reports)."""
    if response.is_success and _media_type(response) == "application/pdf":
        return response.content
    text = response.text
    if not text:
        return None
    content_type = response.headers.get("content-type")
    if content_type and "json" not in content_type.lower():
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text


def _info(response: httpx.Response, p: _Prepared, attempts: int) -> ResponseInfo:
    h = response.headers

    def number(name: str) -> int | None:
        value = h.get(name)
        try:
            return int(value) if value is not None else None
        except ValueError:
            return None

    return ResponseInfo(
        status=response.status_code,
        request_id=h.get("service-request-id"),
        idempotency_key=p.idempotency_key,
        idempotent_replayed=h.get("idempotent-replayed") == "true",
        rate_limit=RateLimit(number("x-ratelimit-limit"), number("x-ratelimit-remaining"), number("x-ratelimit-reset")),
        attempts=attempts,
        headers=h,
    )


def _network_error(error: httpx.TransportError, p: _Prepared) -> ApiConnectionError:
    if isinstance(error, httpx.TimeoutException):
        return ApiTimeoutError(f"No answer within {p.timeout} s: {p.method} {p.url}")
    return ApiConnectionError(f"Could not reach Innkeep at {p.url}: {error}")


def _refreshable(error: InnkeepError) -> bool:
    return isinstance(error, AuthenticationError) and error.code in ("token_expired", "invalid_token")


class SyncTransport:
    def __init__(self, config: Config, http: httpx.Client, refresh: Callable[[], str] | None) -> None:
        self.config = config
        self.http = http
        self.refresh = refresh
        self.sleep: Callable[[float], None] = time.sleep

    def send(self, call: Call) -> Any:
        p = _prepare(self.config, call)
        refreshed = False
        attempt = 0
        while True:
            try:
                response = self.http.request(
                    p.method, p.url, params=p.params, content=p.content, headers=_headers(self.config, p), timeout=p.timeout
                )
            except httpx.TransportError as error:
                unreached = _network_error(error, p)
                if attempt < p.max_retries:
                    self.sleep(backoff(attempt))
                    attempt += 1
                    continue
                raise unreached from error
            body = _parse(response)
            self.config.on_response(_info(response, p, attempt + 1))
            if response.is_success:
                return body
            failure = error_from_response(response.status_code, body, response.headers, response.request.url)
            if self.refresh and not refreshed and _refreshable(failure):
                # An expired OAuth access token: refresh once, at no cost to the retry budget.
                refreshed = True
                self.refresh()
                continue
            if attempt < p.max_retries and retryable(failure):
                self.sleep(retry_delay(failure, attempt))
                attempt += 1
                continue
            raise failure


class AsyncTransport:
    def __init__(self, config: Config, http: httpx.AsyncClient, refresh: Callable[[], Awaitable[str]] | None) -> None:
        self.config = config
        self.http = http
        self.refresh = refresh
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep

    async def send(self, call: Call) -> Any:
        p = _prepare(self.config, call)
        refreshed = False
        attempt = 0
        while True:
            try:
                response = await self.http.request(
                    p.method, p.url, params=p.params, content=p.content, headers=_headers(self.config, p), timeout=p.timeout
                )
            except httpx.TransportError as error:
                unreached = _network_error(error, p)
                if attempt < p.max_retries:
                    await self.sleep(backoff(attempt))
                    attempt += 1
                    continue
                raise unreached from error
            body = _parse(response)
            self.config.on_response(_info(response, p, attempt + 1))
            if response.is_success:
                return body
            failure = error_from_response(response.status_code, body, response.headers, response.request.url)
            if self.refresh and not refreshed and _refreshable(failure):
                refreshed = True
                await self.refresh()
                continue
            if attempt < p.max_retries and retryable(failure):
                await self.sleep(retry_delay(failure, attempt))
                attempt += 1
                continue
            raise failure
