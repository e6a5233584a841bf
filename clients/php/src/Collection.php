<?php

declare(strict_types=1);

namespace Innkeep;

/**
 * One page of a list. Iterating it (`foreach`) yields every item of this page and of every later
 * page, fetched lazily with the same filters (a generator); `pages()` yields the pages themselves.
 *
 * @template T
 * @implements \IteratorAggregate<int, T>
 */
final class Collection implements \IteratorAggregate
{
    /** @var list<T> the items of this page */
    public readonly array $data;

    public readonly bool $hasMore;

    public readonly ?string $nextCursor;

    public readonly ?string $prevCursor;

    /**
     * @param array<string, mixed> $raw the list object (`{object: "list", data, has_more, next_cursor, prev_cursor}`)
     * @param \Closure(string): array<string, mixed> $fetch answers the list object after a cursor
     */
    public function __construct(array $raw, private readonly \Closure $fetch)
    {
        /** @var list<T> $data */
        $data = array_values(is_array($raw['data'] ?? null) ? $raw['data'] : []);
        $this->data = $data;
        $this->hasMore = (bool) ($raw['has_more'] ?? false);
        $this->nextCursor = is_string($raw['next_cursor'] ?? null) ? $raw['next_cursor'] : null;
        $this->prevCursor = is_string($raw['prev_cursor'] ?? null) ? $raw['prev_cursor'] : null;
    }

    /** @return Collection<T>|null the next page, or null after the last */
    public function nextPage(): ?self
    {
        if (!$this->hasMore || $this->nextCursor === null || $this->nextCursor === '') {
            return null;
        }
        return new self(($this->fetch)($this->nextCursor), $this->fetch);
    }

    /** @return \Generator<int, Collection<T>> this page and every later one */
    public function pages(): \Generator
    {
        for ($page = $this; $page !== null; $page = $page->nextPage()) {
            yield $page;
        }
    }

    /** @return \Generator<int, T> every item of this page and of every later page */
    public function autoPagingIterator(): \Generator
    {
        foreach ($this->pages() as $page) {
            foreach ($page->data as $item) {
                yield $item;
            }
        }
    }

    /** @return \Generator<int, T> */
    public function getIterator(): \Generator
    {
        return $this->autoPagingIterator();
    }

    /**
     * Every item, in order, up to `$limit` (required, so that a huge list is never read by accident).
     *
     * @return list<T>
     */
    public function toArray(int $limit): array
    {
        if ($limit < 0) {
            throw new \InvalidArgumentException('toArray needs a limit >= 0');
        }
        $items = [];
        if ($limit === 0) {
            return $items;
        }
        foreach ($this as $item) {
            $items[] = $item;
            if (count($items) >= $limit) {
                break;
            }
        }
        return $items;
    }
}
