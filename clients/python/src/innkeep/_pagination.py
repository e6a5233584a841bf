"""Cursor lists: a page, and iteration over every item of every page (following `next_cursor`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class _PageData(Generic[T]):
    data: list[T]
    has_more: bool
    next_cursor: str | None
    prev_cursor: str | None

    def _fill(self, raw: Any, parse: Callable[[Any], T]) -> None:
        self.data = [parse(item) for item in raw.get("data", [])]
        self.has_more = bool(raw.get("has_more"))
        self.next_cursor = raw.get("next_cursor")
        self.prev_cursor = raw.get("prev_cursor")

    @property
    def _has_next(self) -> bool:
        return self.has_more and bool(self.next_cursor)

    def __repr__(self) -> str:
        return f"{self.__class__.__name__}(data=<{len(self.data)} items>, has_more={self.has_more}, next_cursor={self.next_cursor!r})"


class SyncPage(_PageData[T]):
    """One page of a list. Iterating it yields every item of this page and of every later page,
    fetched lazily with the same filters; `iter_pages()` yields the pages themselves."""

    def __init__(self, raw: Any, parse: Callable[[Any], T], fetch: Callable[[str], Any]) -> None:
        self._fill(raw, parse)
        self._parse = parse
        self._fetch = fetch

    def next_page(self) -> SyncPage[T] | None:
        if not self._has_next:
            return None
        assert self.next_cursor is not None
        return SyncPage(self._fetch(self.next_cursor), self._parse, self._fetch)

    def iter_pages(self) -> Iterator[SyncPage[T]]:
        page: SyncPage[T] | None = self
        while page is not None:
            yield page
            page = page.next_page()

    def __iter__(self) -> Iterator[T]:
        for page in self.iter_pages():
            yield from page.data

    def to_list(self, *, limit: int) -> list[T]:
        """Every item, in order, up to `limit` (required, so that a huge list is never read by accident)."""
        if limit < 0:
            raise ValueError("to_list needs a limit >= 0")
        items: list[T] = []
        if limit == 0:
            return items
        for item in self:
            items.append(item)
            if len(items) >= limit:
                break
        return items


class AsyncPage(_PageData[T]):
    """One page of a list; `async for` over it yields every item of every page from here on."""

    def __init__(self, raw: Any, parse: Callable[[Any], T], fetch: Callable[[str], Awaitable[Any]]) -> None:
        self._fill(raw, parse)
        self._parse = parse
        self._fetch = fetch

    async def next_page(self) -> AsyncPage[T] | None:
        if not self._has_next:
            return None
        assert self.next_cursor is not None
        return AsyncPage(await self._fetch(self.next_cursor), self._parse, self._fetch)

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        page: AsyncPage[T] | None = self
        while page is not None:
            yield page
            page = await page.next_page()

    async def __aiter__(self) -> AsyncIterator[T]:
        async for page in self.iter_pages():
            for item in page.data:
                yield item

    async def to_list(self, *, limit: int) -> list[T]:
        if limit < 0:
            raise ValueError("to_list needs a limit >= 0")
        items: list[T] = []
        if limit == 0:
            return items
        async for item in self:
            items.append(item)
            if len(items) >= limit:
                break
        return items


class AsyncPager(Generic[T]):
    """What an async `list` call returns: `await` it for the first page, or `async for` over it
    for every item of every page."""

    def __init__(self, first: Callable[[], Awaitable[AsyncPage[T]]]) -> None:
        self._first = first
        self._page: AsyncPage[T] | None = None

    async def _get(self) -> AsyncPage[T]:
        if self._page is None:
            self._page = await self._first()
        return self._page

    def __await__(self) -> Generator[Any, None, AsyncPage[T]]:
        return self._get().__await__()

    async def __aiter__(self) -> AsyncIterator[T]:
        async for item in await self._get():
            yield item

    async def iter_pages(self) -> AsyncIterator[AsyncPage[T]]:
        async for page in (await self._get()).iter_pages():
            yield page

    async def to_list(self, *, limit: int) -> list[T]:
        return await (await self._get()).to_list(limit=limit)
