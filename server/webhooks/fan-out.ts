import { and, asc, eq, inArray, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
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
 * Turns new events into deliveries: one per (event, endpoint of the same account and
 * environment that selects its type and existed when it happened).
 *
 * Events are taken in (xid, id) order after a one-row cursor, and only those whose writing
 * transaction is older than the oldest one still running (`pg_snapshot_xmin`): every such
 * transaction has ended, so no event can still appear behind the cursor, however late it
 * commits. The deliveries and the cursor's move are one transaction, so a crash redoes a batch
 * whole or not at all; the cursor is taken with SKIP LOCKED, so of two processes one fans out
 * and the other goes on to deliver. Nothing is written to the event rows themselves.
 * Disabled endpoints get their deliveries too: they wait for the endpoint to be re-enabled.
 */
export async function fanOutEvents(db: Db, limit = fanOutBatch): Promise<{ events: number; deliveryIds: string[] }> {
  return db.transaction(async (tx) => {
    const [cursor] = await tx.select().from(eventFanoutCursor).where(cursorRow).for("update", { skipLocked: true });
    // Another process holds the cursor: it is fanning out now.
    if (!cursor) return { events: 0, deliveryIds: [] };
    const batch = await tx
      .select({ id: events.id, accountId: events.accountId, livemode: events.livemode, type: events.type, createdAt: events.createdAt, xid: events.xid })
      .from(events)
      .where(
        and(
          isNull(events.fannedOutAt),
          sql`(${events.xid}, ${events.id}) > (${cursor.xid}::xid8, ${cursor.eventId})`,
          sql`${events.xid} < pg_snapshot_xmin(pg_current_snapshot())`,
        ),
      )
      .orderBy(asc(events.xid), asc(events.id))
      .limit(limit);
    if (!batch.length) return { events: 0, deliveryIds: [] };

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

    const rows: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const event of batch) {
      for (const endpoint of endpoints) {
        if (endpoint.accountId !== event.accountId || endpoint.livemode !== event.livemode) continue;
        if (endpoint.createdAt > event.createdAt || !selects(endpoint.enabledEvents, event.type)) continue;
        rows.push({
          id: newId("delivery"),
          accountId: event.accountId,
          livemode: event.livemode,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          eventCreatedAt: event.createdAt,
          source: "event",
          status: "queued",
          nextAttemptAt: event.createdAt,
        });
      }
    }
    const inserted = [];
    for (let i = 0; i < rows.length; i += 1000) {
      inserted.push(...(await tx.insert(webhookDeliveries).values(rows.slice(i, i + 1000)).onConflictDoNothing().returning({ id: webhookDeliveries.id })));
    }
    const last = batch[batch.length - 1];
    await tx.update(eventFanoutCursor).set({ xid: last.xid, eventId: last.id }).where(cursorRow);
    return { events: batch.length, deliveryIds: inserted.map((r) => r.id) };
  });
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
