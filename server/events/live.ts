import { asc, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { events } from "@/db/schema";
import type { Tenant } from "@/server/tenancy";
import { logger } from "@/server/observability/logger";

/** What a dashboard learns of an event as it happens: enough to refetch, no payload (`object_id`: the object's id, or for a guest's preferences the guest's). */
export type LiveEvent = { id: string; type: string; property_id: string | null; object_id: string | null; created_at: string };

type Subscriber = {
  accountId: string;
  livemode: boolean;
  /** Events written before the subscription are not news to it. */
  from: Date;
  matches: (type: string) => boolean;
  push: (event: LiveEvent) => void;
};

/** How often the one reader per process looks for new events while anyone listens. */
const pollMs = 500;
/**
 * `created_at` is the writing transaction's start time, so an event can commit after a newer
 * one was already read. Each read looks this far back and skips the ids it has already seen.
 */
const lookbackMs = 10_000;
/** Rows per query; a read pages on until it has every event after the horizon. */
const pageSize = 1_000;

/**
 * The live feed behind the dashboard's subscriptions: ONE reader of the events table per
 * process, however many browsers listen, fanning each new event out to the subscribers of its
 * account and data set. It reads only while someone is subscribed.
 */
class LiveFeed {
  private subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | null = null;
  private since = new Date();
  private seen = new Map<string, number>();
  private reading = false;

  constructor(private readonly db: Db) {}

  /** Calls `push` for each new event of the tenant whose type `matches`; returns the unsubscribe. */
  subscribe(tenant: Tenant, matches: (type: string) => boolean, push: (event: LiveEvent) => void): () => void {
    const subscriber: Subscriber = { accountId: tenant.accountId, livemode: tenant.livemode, from: new Date(), matches, push };
    if (this.subscribers.size === 0) this.start();
    this.subscribers.add(subscriber);
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.stop();
    };
  }

  get size() {
    return this.subscribers.size;
  }

  private start() {
    this.since = new Date();
    this.seen.clear();
    this.timer = setInterval(() => void this.read(), pollMs);
    this.timer.unref();
  }

  private stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One read: events newer than the look-back horizon that no read has delivered yet. */
  async read(): Promise<void> {
    if (this.reading) return;
    this.reading = true;
    try {
      const now = Date.now();
      // Page by (created_at, id) from the horizon: with more than a page of events inside the
      // look-back, reading only the oldest page would return the same seen rows on every poll.
      let after = { at: new Date(this.since.getTime() - lookbackMs).toISOString(), id: "" };
      for (;;) {
        const rows = await this.page(after);
        for (const row of rows) this.deliver(row);
        if (rows.length < pageSize) break;
        const last = rows[rows.length - 1];
        after = { at: last.at, id: last.id };
      }
      // Forget ids older than any future read can return.
      for (const [id, at] of this.seen) if (at < now - 2 * lookbackMs && at < this.since.getTime() - lookbackMs) this.seen.delete(id);
    } catch (error) {
      logger.warn({ err: error }, "live feed read failed; trying again");
    } finally {
      this.reading = false;
    }
  }

  /** The cursor is the database's own text of `created_at`: a Date would drop its microseconds. */
  private page(after: { at: string; id: string }): Promise<Row[]> {
    return this.db
      .select({
        id: events.id,
        accountId: events.accountId,
        livemode: events.livemode,
        type: events.type,
        propertyId: events.propertyId,
        // The object's id; a guest's preferences (which have none of their own) are the guest's.
        objectId: sql<string | null>`coalesce(${events.object}->>'id', ${events.object}->>'guest_id')`,
        createdAt: events.createdAt,
        at: sql<string>`${events.createdAt}::text`,
      })
      .from(events)
      .where(sql`(${events.createdAt}, ${events.id}) > (${after.at}::timestamptz, ${after.id})`)
      .orderBy(asc(events.createdAt), asc(events.id))
      .limit(pageSize);
  }

  private deliver(row: Row) {
    if (this.seen.has(row.id)) return;
    this.seen.set(row.id, row.createdAt.getTime());
    if (row.createdAt > this.since) this.since = row.createdAt;
    const event: LiveEvent = { id: row.id, type: row.type, property_id: row.propertyId, object_id: row.objectId, created_at: row.createdAt.toISOString() };
    for (const s of this.subscribers) {
      if (s.accountId === row.accountId && s.livemode === row.livemode && row.createdAt >= s.from && s.matches(row.type)) s.push(event);
    }
  }
}

type Row = { id: string; accountId: string; livemode: boolean; type: string; propertyId: string | null; objectId: string | null; createdAt: Date; at: string };

const feeds = new WeakMap<Db, LiveFeed>();

/** The process's feed for a database (one reader per database handle). */
export function liveFeedFor(db: Db): LiveFeed {
  let feed = feeds.get(db);
  if (!feed) feeds.set(db, (feed = new LiveFeed(db)));
  return feed;
}

/**
 * The feed as an async iterable for one subscriber, ending when `signal` aborts: what a tRPC
 * subscription yields.
 */
export async function* liveEvents({ db, tenant, matches, signal }: { db: Db; tenant: Tenant; matches: (type: string) => boolean; signal?: AbortSignal }): AsyncGenerator<LiveEvent> {
  const queue: LiveEvent[] = [];
  let wake: (() => void) | null = null;
  const unsubscribe = liveFeedFor(db).subscribe(tenant, matches, (event) => {
    queue.push(event);
    wake?.();
  });
  const aborted = new Promise<void>((resolve) => signal?.addEventListener("abort", () => resolve(), { once: true }));
  try {
    while (!signal?.aborted) {
      while (queue.length) yield queue.shift()!;
      await Promise.race([new Promise<void>((resolve) => (wake = resolve)), aborted]);
      wake = null;
    }
  } finally {
    unsubscribe();
  }
}
