"""`Innkeep` and `AsyncInnkeep`: configuration, credentials and the resources of the table."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any

import httpx

from ._resources import AsyncResources, SyncResources
from ._transport import (
    DEFAULT_BASE_URL,
    DEFAULT_MAX_RETRIES,
    DEFAULT_TIMEOUT,
    AsyncTransport,
    Call,
    Config,
    Environment,
    RequestOptions,
    ResponseInfo,
    SyncTransport,
)
from ._webhook import Webhook


def _base_url(base_url: str | None) -> str:
    base = (base_url or DEFAULT_BASE_URL).rstrip("/")
    return base if base.endswith("/v1") else base + "/v1"


MISSING_KEY = (
    "No API key: give `api_key` (a secret key, hk_…) or `access_token` (an OAuth token, hat_…)."
    " Reading it from the environment? INNKEEP_API_KEY is not set"
)
"""The refusal of a client without credentials: the same words in the four clients."""


class _Base:
    Webhook = Webhook
    """Webhook signature checks (`Innkeep.Webhook.construct_event(...)`), also `innkeep.Webhook`."""

    last_response: ResponseInfo | None
    """Status, request id, idempotency key and rate-limit headers of the latest answer."""

    def __init__(
        self,
        api_key: str | None,
        access_token: str | None,
        base_url: str | None,
        environment: Environment | None,
        version: str | None,
        max_retries: int,
        timeout: float,
    ) -> None:
        if api_key and access_token:
            raise TypeError("Give `api_key` or `access_token`, not both.")
        token = api_key or access_token
        if not isinstance(token, str) or not token.strip():
            got = "none was given" if token is None else "got an empty string" if isinstance(token, str) else f"got {type(token).__name__}"
            raise TypeError(f"{MISSING_KEY} ({got}).")
        self._token: str | None = token
        self.last_response = None
        self._config = Config(
            base_url=_base_url(base_url),
            token=lambda: self._token,
            environment=environment,
            version=version,
            max_retries=max_retries,
            timeout=timeout,
            on_response=self._remember,
        )

    def _remember(self, info: ResponseInfo) -> None:
        self.last_response = info


class Innkeep(_Base, SyncResources):
    """The Innkeep API client.

    >>> client = Innkeep(api_key=os.environ["INNKEEP_API_KEY"], environment="sandbox")
    >>> reservation = client.reservations.create(property_id=..., guest={...}, ...)
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        access_token: str | None = None,
        refresh_token: Callable[[], str] | None = None,
        base_url: str | None = None,
        environment: Environment | None = None,
        version: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: float = DEFAULT_TIMEOUT,
        http_client: httpx.Client | None = None,
    ) -> None:
        """`api_key` (`hk_…`) or `access_token` (`hat_…`, OAuth; `refresh_token` answers a fresh
        one when it expires). `base_url` is `<origin>` or `<origin>/v1` (default
        http://localhost:3000/v1); `environment` sends `Service-Environment`, `version` pins
        `Service-Version`. `max_retries` (default 2) and `timeout` (seconds per attempt, default 60)
        apply to every call unless a call's `request_options` says otherwise."""
        _Base.__init__(self, api_key, access_token, base_url, environment, version, max_retries, timeout)
        self._owns_http = http_client is None
        self._http = http_client or httpx.Client()
        refresh = None
        if refresh_token is not None:
            hook = refresh_token

            def refresh() -> str:
                self._token = hook()
                return self._token

        self._transport = SyncTransport(self._config, self._http, refresh)
        SyncResources.__init__(self, self._transport)

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        request_options: RequestOptions | None = None,
    ) -> Any:
        """Any call by method and path (under /v1), for what the resources do not cover."""
        return self._transport.send(Call(method.upper(), path, query, body, request_options or RequestOptions()))

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> Innkeep:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


class AsyncInnkeep(_Base, AsyncResources):
    """The Innkeep API client for asyncio: the same resources, each call awaited.

    >>> async with AsyncInnkeep(api_key=...) as client:
    ...     async for reservation in client.reservations.list(status="confirmed"):
    ...         print(reservation.id)
    """

    def __init__(
        self,
        api_key: str | None = None,
        *,
        access_token: str | None = None,
        refresh_token: Callable[[], Awaitable[str]] | None = None,
        base_url: str | None = None,
        environment: Environment | None = None,
        version: str | None = None,
        max_retries: int = DEFAULT_MAX_RETRIES,
        timeout: float = DEFAULT_TIMEOUT,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """The same options as `Innkeep`; `refresh_token` is a coroutine function here."""
        _Base.__init__(self, api_key, access_token, base_url, environment, version, max_retries, timeout)
        self._owns_http = http_client is None
        self._http = http_client or httpx.AsyncClient()
        refresh = None
        if refresh_token is not None:
            hook = refresh_token

            async def refresh() -> str:
                self._token = await hook()
                return self._token

        self._transport = AsyncTransport(self._config, self._http, refresh)
        AsyncResources.__init__(self, self._transport)

    async def request(
        self,
        method: str,
        path: str,
        *,
        query: Mapping[str, Any] | None = None,
        body: Any = None,
        request_options: RequestOptions | None = None,
    ) -> Any:
        """Any call by method and path (under /v1), for what the resources do not cover."""
        return await self._transport.send(Call(method.upper(), path, query, body, request_options or RequestOptions()))

    async def close(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncInnkeep:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        await self.close()
