import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { newId } from "@/server/ids";

type Endpoint = Pick<typeof webhookEndpoints.$inferSelect, "id" | "accountId" | "livemode" | "enabledEvents" | "createdAt">;

/** Whether an endpoint's selector takes an event type. */
export const selects = (enabledEvents: readonly string[], type: string) => enabledEvents.includes("*") || enabledEvents.includes(type);

/** Events fanned out per transaction. */
export const fanOutBatch = 500;

/**
 * Turns new events into deliveries: one per (event, endpoint of the same account and
 * environment that selects its type and existed when it happened). Events are taken with
 * FOR UPDATE SKIP LOCKED and marked fanned out in the transaction that inserts their
 * deliveries, so a crash redoes a batch whole or not at all, and two processes share the work.
 * Disabled endpoints get their deliveries too: they wait for the endpoint to be re-enabled.
 */
export async function fanOutEvents(db: Db, limit = fanOutBatch): Promise<{ events: number; deliveryIds: string[] }> {
  return db.transaction(async (tx) => {
    const batch = await tx
      .select({ id: events.id, accountId: events.accountId, livemode: events.livemode, type: events.type, createdAt: events.createdAt })
      .from(events)
      .where(isNull(events.fannedOutAt))
      .orderBy(asc(events.createdAt), asc(events.id))
      .limit(limit)
      .for("update", { skipLocked: true });
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
    await tx
      .update(events)
      .set({ fannedOutAt: new Date() })
      .where(inArray(events.id, batch.map((e) => e.id)));
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
