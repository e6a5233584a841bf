import { and, eq, inArray, sql } from "drizzle-orm";
import { rowsOf, type Db, type Executor } from "@/db/client";
import { eventFanoutCursor, events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { newId } from "@/server/ids";

/** Whether an endpoint's selector takes an event type. */
export const selects = (enabledEvents: readonly string[], type: string) => enabledEvents.includes("*") || enabledEvents.includes(type);

/** The cursor's one row. */
const cursorRow = eq(eventFanoutCursor.id, 1);

/** Events taken per pass. */
export const fanOutBatch = 500;

/**
 * What a fan-out process remembers between its passes: the last event it fanned out ahead of the
 * cursor (see `fanOutEvents`). Kept in memory by the dispatcher; a new process starts from the
 * cursor, and what it takes again is refused by the deliveries' unique key.
 */
export type FanOutState = { ahead: { xid: string; eventId: string } | null };

/** Events whose writing transaction is older than every one still running: none can appear behind them. */
const settled = sql`${events.xid} < pg_snapshot_xmin(pg_current_snapshot())`;

/**
 * The cursor's position as two scalar subqueries: PostgreSQL then compares the index's (xid, id)
 * with it in the index scan itself. Joined as a row, the comparison was a filter over every event
 * ever written (the events keep no "fanned out" mark): 150 ms at 200,000 events, every 20 ms.
 */
const cursorAt = sql`((select ${eventFanoutCursor.xid} from ${eventFanoutCursor} where ${cursorRow}), (select ${eventFanoutCursor.eventId} from ${eventFanoutCursor} where ${cursorRow}))`;

/** The events a pass may take after the cursor: settled ones, and with a state, those committed beyond where it has been. */
function takeable(state: FanOutState | undefined) {
  if (!state) return settled;
  if (!state.ahead) return sql`true`;
  return sql`(${settled} or (${events.xid}, ${events.id}) > (${state.ahead.xid}::xid8, ${state.ahead.eventId}))`;
}

/** A row of a pass's read: an event of the batch, with one candidate endpoint (or none). */
type PassRow = {
  id: string;
  account_id: string;
  livemode: boolean;
  type: string;
  /** As PostgreSQL prints it; passed back as it came. */
  created_at: string;
  xid: string;
  settled: boolean;
  cursor_xid: string;
  cursor_event_id: string;
  endpoint_id: string | null;
  enabled_events: string[] | null;
};

/**
 * Turns new events into deliveries: one per (event, endpoint of the same account and
 * environment that selects its type and existed when it happened).
 *
 * Events are taken in (xid, id) order after a one-row cursor. The cursor only moves over events
 * whose writing transaction is older than the oldest one still running (`pg_snapshot_xmin`):
 * every such transaction has ended, so no event can still appear behind the cursor, however late
 * it commits. Nothing is written to the event rows themselves. Disabled endpoints get their
 * deliveries too: they wait for the endpoint to be re-enabled.
 *
 * A pass is two statements and no transaction of its own. The first reads the cursor, the batch
 * after it and each event's candidate endpoints. The second inserts the deliveries and moves the
 * cursor, both only if the cursor is still where the first statement found it and no other
 * process holds it (`FOR UPDATE SKIP LOCKED`): one statement is one transaction, so a crash
 * leaves the batch whole or not done, and of two processes one fans out and the other finds the
 * cursor moved or held and goes on to deliver. (It was a transaction of seven round trips, each
 * a wait under load: most of the way from an event's commit to its first attempt.)
 *
 * With a `state` (the dispatcher's), events already committed beyond that point go out at once
 * too, without waiting for older transactions to end: under a steady flow of bookings some
 * transaction is nearly always open, and waiting for it was most of an event's way to its
 * receiver (p99 178 ms of 250 here under the bench's mixed line). The cursor still moves only
 * over settled events, so such an event is read again once settled, and the deliveries' unique
 * key (event, endpoint) makes that insert a no-op; the state remembers how far the pass went
 * ahead, so the next pass reads on from there.
 */
export async function fanOutEvents(db: Db, limit = fanOutBatch, state?: FanOutState): Promise<{ events: number; deliveryIds: string[] }> {
  const rows = rowsOf<PassRow>(
    await db.execute(sql`
      with c as (select ${eventFanoutCursor.xid}, ${eventFanoutCursor.eventId} from ${eventFanoutCursor} where ${cursorRow}),
      b as (
        select ${events.id}, ${events.accountId}, ${events.livemode}, ${events.type}, ${events.createdAt}, ${events.xid}, ${settled} as settled
        from ${events}
        where ${events.fannedOutAt} is null and (${events.xid}, ${events.id}) > ${cursorAt} and ${takeable(state)}
        order by ${events.xid}, ${events.id}
        limit ${limit}
      )
      select b.id, b.account_id, b.livemode, b.type, b.created_at::text as created_at, b.xid::text as xid, b.settled,
             c.xid::text as cursor_xid, c.event_id as cursor_event_id, w.id as endpoint_id, w.enabled_events
      from b cross join c
      left join ${webhookEndpoints} w on w.account_id = b.account_id and w.livemode = b.livemode and w.created_at <= b.created_at
      order by b.xid, b.id`),
  );
  if (!rows.length) return { events: 0, deliveryIds: [] };

  const deliveries: { id: string; account_id: string; livemode: boolean; endpoint_id: string; event_id: string; event_type: string; event_created_at: string }[] = [];
  const taken: PassRow[] = [];
  for (const row of rows) {
    if (taken[taken.length - 1]?.id !== row.id) taken.push(row);
    if (!row.endpoint_id || !selects(row.enabled_events ?? [], row.type)) continue;
    deliveries.push({
      id: newId("delivery"),
      account_id: row.account_id,
      livemode: row.livemode,
      endpoint_id: row.endpoint_id,
      event_id: row.id,
      event_type: row.type,
      event_created_at: row.created_at,
    });
  }
  // Settled events sort first (their xids are the lower ones): the cursor moves over them only.
  const lastSettled = taken.findLast((e) => e.settled);
  const last = taken[taken.length - 1];
  const { cursor_xid: atXid, cursor_event_id: atEvent } = rows[0];
  // One JSON parameter for the whole batch: building a thousand-row VALUES list cost drizzle
  // more CPU than the deliveries' attempts did.
  const [written] = rowsOf<{ held: number; delivery_ids: string[] }>(
    await db.execute(sql`
      with c as (
        select id from event_fanout_cursor where id = 1 and xid = ${atXid}::xid8 and event_id = ${atEvent}
        for update skip locked
      ), moved as (
        update event_fanout_cursor set xid = ${lastSettled?.xid ?? atXid}::xid8, event_id = ${lastSettled?.id ?? atEvent}
        where id = (select id from c) and ${!!lastSettled}::boolean
        returning id
      ), inserted as (
        insert into webhook_deliveries (id, account_id, livemode, endpoint_id, event_id, event_type, event_created_at, source, status, next_attempt_at)
        select id, account_id, livemode, endpoint_id, event_id, event_type, event_created_at, 'event', 'queued', event_created_at
        from jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb)
          as r(id text, account_id text, livemode boolean, endpoint_id text, event_id text, event_type text, event_created_at timestamptz)
        where exists (select 1 from c)
        on conflict do nothing
        returning id
      )
      select (select count(*) from c)::int as held, coalesce((select array_agg(id) from inserted), '{}') as delivery_ids`),
  );
  // Another process moved the cursor or holds it: it is fanning out now.
  if (!written?.held) return { events: 0, deliveryIds: [] };
  if (state && !last.settled) state.ahead = { xid: last.xid, eventId: last.id };
  return { events: taken.length, deliveryIds: written.delivery_ids };
}

/**
 * Whether `fanOutEvents` has anything to take: one read-only statement (no lock, no transaction
 * id, nothing to flush), so the dispatcher can ask often and run a pass (a write, a row lock on
 * the cursor and a commit) only when there is work.
 */
export async function eventsWaiting(db: Db, state?: FanOutState): Promise<boolean> {
  // The first such event, not exists(…): inside exists() PostgreSQL drops the order and may read
  // the whole table looking for a row it guesses to be everywhere.
  const rows = rowsOf<{ waiting: boolean }>(
    await db.execute(sql`
      select true as waiting from ${events}
      where ${events.fannedOutAt} is null and (${events.xid}, ${events.id}) > ${cursorAt} and ${takeable(state)}
      order by ${events.xid}, ${events.id}
      limit 1`),
  );
  return rows.length > 0;
}

/** The deliveries an endpoint still owes, made due now: used when it is re-enabled. */
export async function resumeDeliveries(db: Executor, endpointId: string): Promise<string[]> {
  const now = new Date();
  const rows = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ["queued", "retry_scheduled"])))
    .returning({ id: webhookDeliveries.id });
  return rows.map((r) => r.id);
}
