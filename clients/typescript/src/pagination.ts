/** One page of a cursor list, as the API answers it. */
export type Page<T> = { object: "list"; data: T[]; has_more: boolean; next_cursor: string | null; prev_cursor: string | null };

/**
 * What a `list` call returns: await it for the first page, or iterate it with `for await` for
 * every item of every page (following `next_cursor`, with the same filters), or collect with
 * `toArray({ limit })`. Pages are fetched lazily, one at a time.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  #first: Promise<Page<T>> | undefined;

  constructor(private readonly fetchPage: (cursor: string | undefined) => Promise<Page<T>>) {}

  /** The first page (fetched once, however often it is awaited). */
  page(): Promise<Page<T>> {
    this.#first ??= this.fetchPage(undefined);
    return this.#first;
  }

  then<A = Page<T>, B = never>(onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.page().then(onFulfilled, onRejected);
  }

  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.page().catch(onRejected);
  }

  /** Every page in turn, from the first. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page = await this.page();
    yield page;
    while (page.has_more && page.next_cursor) {
      page = await this.fetchPage(page.next_cursor);
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  /**
   * Every item, in order, up to `limit` (required, so that a huge list is never read by
   * accident; pass `Infinity` to mean it). Stops fetching as soon as the cap is reached.
   */
  async toArray(options: { limit: number }): Promise<T[]> {
    const limit = options?.limit;
    if (typeof limit !== "number" || !(limit >= 0)) {
      throw new TypeError(`toArray needs { limit } (a number >= 0), not ${limit === undefined ? "nothing" : JSON.stringify(limit)}: e.g. toArray({ limit: 500 }), or { limit: Infinity } to read every item.`);
    }
    const items: T[] = [];
    if (limit === 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}
