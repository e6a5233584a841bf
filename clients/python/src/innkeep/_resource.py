"""The base of every resource: one operation of the table becomes one call of the transport."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from ._errors import ApiError
from ._operations import OPERATIONS
from ._pagination import AsyncPage, AsyncPager, SyncPage
from ._transport import AsyncTransport, Call, RequestOptions, SyncTransport, encode_path

M = TypeVar("M", bound=BaseModel)
Raw = dict[str, Any]


def _parser(model: type[M] | None) -> Callable[[Any], Any]:
    """The answer as its model (a JSON object) or as received (the text of a CSV report)."""

    def parse(raw: Any) -> Any:
        return model.model_validate(raw) if model is not None and isinstance(raw, dict) else raw

    return parse


def _request(op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> Call:
    op = OPERATIONS[op_id]
    path = encode_path(op.path, op.path_params, ids, op_id)
    reads = op.method in ("GET", "DELETE")
    return Call(
        method=op.method,
        path=path,
        query=params if reads else None,
        body=None if reads or not params else params,
        options=options or RequestOptions(),
    )


def _bytes(op_id: str, answer: Any) -> bytes:
    """The bytes of a document the API answers as a file; anything else on success is not its answer."""
    if isinstance(answer, bytes):
        return answer
    error = ApiError(f"{op_id} answered {type(answer).__name__} instead of the document's bytes (application/pdf).", status=200)
    error.code = "unexpected_response"
    raise error


def _with_cursor(params: Mapping[str, Any], cursor: str | None) -> dict[str, Any]:
    return {**params, "cursor": cursor} if cursor else dict(params)


class SyncResource:
    def __init__(self, transport: SyncTransport) -> None:
        self._transport = transport

    def _send(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M] | None) -> Any:
        return _parser(model)(self._transport.send(_request(op_id, ids, params, options)))

    def _call(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M]) -> M:
        return cast(M, self._send(op_id, ids, params, options, model))

    def _call_or_text(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M]) -> M | str:
        return cast("M | str", self._send(op_id, ids, params, options, model))

    def _call_raw(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> Raw:
        return cast(Raw, self._send(op_id, ids, params, options, None))

    def _call_bytes(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> bytes:
        return _bytes(op_id, self._send(op_id, ids, params, options, None))

    def _page(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M] | None) -> Any:
        def fetch(cursor: str | None) -> Any:
            return self._transport.send(_request(op_id, ids, _with_cursor(params, cursor), options))

        return SyncPage(fetch(None), _parser(model), fetch)

    def _list(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M]) -> SyncPage[M]:
        return cast("SyncPage[M]", self._page(op_id, ids, params, options, model))

    def _list_raw(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> SyncPage[Raw]:
        return cast("SyncPage[Raw]", self._page(op_id, ids, params, options, None))


class AsyncResource:
    def __init__(self, transport: AsyncTransport) -> None:
        self._transport = transport

    async def _send(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M] | None) -> Any:
        return _parser(model)(await self._transport.send(_request(op_id, ids, params, options)))

    async def _call(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M]) -> M:
        return cast(M, await self._send(op_id, ids, params, options, model))

    async def _call_or_text(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M]) -> M | str:
        return cast("M | str", await self._send(op_id, ids, params, options, model))

    async def _call_raw(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> Raw:
        return cast(Raw, await self._send(op_id, ids, params, options, None))

    async def _call_bytes(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> bytes:
        return _bytes(op_id, await self._send(op_id, ids, params, options, None))

    def _pager(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M] | None) -> Any:
        async def fetch(cursor: str | None) -> Any:
            return await self._transport.send(_request(op_id, ids, _with_cursor(params, cursor), options))

        async def first() -> AsyncPage[Any]:
            return AsyncPage(await fetch(None), _parser(model), fetch)

        return AsyncPager(first)

    def _list(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None, model: type[M]) -> AsyncPager[M]:
        return cast("AsyncPager[M]", self._pager(op_id, ids, params, options, model))

    def _list_raw(self, op_id: str, ids: tuple[str, ...], params: Mapping[str, Any], options: RequestOptions | None) -> AsyncPager[Raw]:
        return cast("AsyncPager[Raw]", self._pager(op_id, ids, params, options, None))
