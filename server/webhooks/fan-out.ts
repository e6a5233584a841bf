import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import { rowsOf, type Db } from "@/db/client";
import { isoTime } from "@/server/dates";
import { eventFanoutCursor, events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { newId } from "@/server/ids";

type Endpoint = Pick<typeof webhookEndpoints.$inferSelect, "id" | "accountId" | "livemode" | "enabledEvents" | "createdAt">;

/** Whether an endpoint's selector takes an event type. */
export const selects = (enabledEvents: readonly string[], type: string) => enabledEvents.includes("*") || enabledEvents.includes(type);

/** The cursor's one row. */
const cursorRow = eq(eventFanoutCursor.id, 1);

/** Events fanned out per transaction. */
export const fanOutBatch = 500;

/**
 * What a fan-out process remembers between its passes: the last event it fanned out ahead of the
 * cursor (see `fanOutEvents`). Kept in memory by the dispatcher; a new process starts from the
 * cursor, and what it takes again is refused by the deliveries' unique key.
 */
export type FanOutState = { ahead: { xid: string; eventId: string } | null };

/** Events whose writing transaction is older than every one still running: none can appear behind them. */
const settled = sql`${events.xid} < pg_snapshot_xmin(pg_current_snapshot())`;

/** The events a pass may take after the cursor: settled ones, and with a state, those committed beyond where it has been. */
function takeable(state: FanOutState | undefined) {
  if (!state) return settled;
  if (!state.ahead) return sql`true`;
  return sql`(${settled} or (${events.xid}, ${events.id}) > (${state.ahead.xid}::xid8, ${state.ahead.eventId}))`;
}

/**
 * Turns new events into deliveries: one per (event, endpoint of the same account and
 * environment that selects its type and existed when it happened).
 *
 * Events are taken in (xid, id) order after a one-row cursor. The cursor only moves over events
 * whose writing transaction is older than the oldest one still running (`pg_snapshot_xmin`):
 * every such transaction has ended, so no event can still appear behind the cursor, however late
 * it commits. The deliveries and the cursor's move are one transaction, so a crash redoes a batch
 * whole or not at all; the cursor is taken with SKIP LOCKED, so of two processes one fans out
 * and the other goes on to deliver. Nothing is written to the event rows themselves.
 * Disabled endpoints get their deliveries too: they wait for the endpoint to be re-enabled.
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
  const pass = await db.transaction(async (tx) => {
    const [cursor] = await tx.select().from(eventFanoutCursor).where(cursorRow).for("update", { skipLocked: true });
    // Another process holds the cursor: it is fanning out now.
    if (!cursor) return null;
    const batch = await tx
      .select({
        id: events.id,
        accountId: events.accountId,
        livemode: events.livemode,
        type: events.type,
        createdAt: events.createdAt,
        xid: events.xid,
        settled: sql<boolean>`${settled}`,
      })
      .from(events)
      .where(and(isNull(events.fannedOutAt), sql`(${events.xid}, ${events.id}) > (${cursor.xid}::xid8, ${cursor.eventId})`, takeable(state)))
      .orderBy(asc(events.xid), asc(events.id))
      .limit(limit);
    if (!batch.length) return null;
    const accountIds = [...new Set(batch.map((e) => e.accountId))];
    const newest = batch.reduce((max, e) => (e.createdAt > max ? e.createdAt : max), batch[0].createdAt);
    const endpoints: Endpoint[] = await tx
      .select({
        id: webhookEndpoints.id,
        accountId: webhookEndpoints.accountId,
        livemode: webhookEndpoints.livemode,
        enabledEvents: webhookEndpoints.enabledEvents,
        createdAt: webhookEndpoints.createdAt,
      })
      .from(webhookEndpoints)
      .where(and(inArray(webhookEndpoints.accountId, accountIds), lte(webhookEndpoints.createdAt, newest)));

    const rows: { id: string; account_id: string; livemode: boolean; endpoint_id: string; event_id: string; event_type: string; event_created_at: string }[] = [];
    for (const event of batch) {
      for (const endpoint of endpoints) {
        if (endpoint.accountId !== event.accountId || endpoint.livemode !== event.livemode) continue;
        if (endpoint.createdAt > event.createdAt || !selects(endpoint.enabledEvents, event.type)) continue;
        rows.push({
          id: newId("delivery"),
          account_id: event.accountId,
          livemode: event.livemode,
          endpoint_id: endpoint.id,
          event_id: event.id,
          event_type: event.type,
          event_created_at: isoTime(event.createdAt),
        });
      }
    }
    // One JSON parameter for the whole batch: building a thousand-row VALUES list cost drizzle
    // more CPU than the deliveries' attempts did.
    const inserted = rows.length
      ? rowsOf<{ id: string }>(
          await tx.execute(sql`
            insert into webhook_deliveries (id, account_id, livemode, endpoint_id, event_id, event_type, event_created_at, source, status, next_attempt_at)
            select id, account_id, livemode, endpoint_id, event_id, event_type, event_created_at, 'event', 'queued', event_created_at
            from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
              as r(id text, account_id text, livemode boolean, endpoint_id text, event_id text, event_type text, event_created_at timestamptz)
            on conflict do nothing
            returning id`),
        )
      : [];
    // Settled events sort first (their xids are the lower ones): the cursor moves over them only.
    const lastSettled = batch.findLast((e) => e.settled);
    if (lastSettled) await tx.update(eventFanoutCursor).set({ xid: lastSettled.xid, eventId: lastSettled.id }).where(cursorRow);
    const last = batch[batch.length - 1];
    return { events: batch.length, deliveryIds: inserted.map((r) => r.id), ahead: last.settled ? null : { xid: last.xid, eventId: last.id } };
  });
  if (!pass) return { events: 0, deliveryIds: [] };
  // Remembered once committed: a pass that failed leaves the state as it was.
  if (state && pass.ahead) state.ahead = pass.ahead;
  return { events: pass.events, deliveryIds: pass.deliveryIds };
}

/**
 * Whether `fanOutEvents` has anything to take: one read-only statement (no lock, no transaction
 * id, nothing to flush), so the dispatcher can ask often and open the fan-out's transaction (a
 * row lock on the cursor, and a commit) only when there is work.
 */
export async function eventsWaiting(db: Db, state?: FanOutState): Promise<boolean> {
  const [row] = rowsOf<{ waiting: boolean }>(
    await db.execute(sql`
      select exists (
        select 1 from ${events}, ${eventFanoutCursor}
        where ${cursorRow} and ${events.fannedOutAt} is null and (${events.xid}, ${events.id}) > (${eventFanoutCursor.xid}, ${eventFanoutCursor.eventId}) and ${takeable(state)}
      ) as waiting`),
  );
  return !!row?.waiting;
}

/** The deliveries an endpoint still owes, made due now: used when it is re-enabled. */
export async function resumeDeliveries(db: Db, endpointId: string): Promise<string[]> {
  const now = new Date();
  const rows = await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), inArray(webhookDeliveries.status, ["queued", "retry_scheduled"])))
    .returning({ id: webhookDeliveries.id });
  return rows.map((r) => r.id);
}
