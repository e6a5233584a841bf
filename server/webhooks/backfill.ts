import { and, asc, eq, gte, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts, events, webhookBackfills, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { limitsFor } from "@/server/plans";
import { queuedDelivery } from "./queue";

/** Accounts without a per-second limit (enterprise, unset) are still queued at this pace. */
const fallbackPerSecond = 1_000;

type Backfill = typeof webhookBackfills.$inferSelect;

/** The events of a backfill's window (and types), as the count of its creation and each step read them. */
export function windowConditions(b: Pick<Backfill, "accountId" | "livemode" | "since" | "until">, types: string[] | null): SQL {
  return and(
    eq(events.accountId, b.accountId),
    eq(events.livemode, b.livemode),
    gte(events.createdAt, b.since),
    lte(events.createdAt, b.until),
    // Test events (a ping or a sample) went to one endpoint on request; a backfill never sends them again.
    isNull(events.fannedOutAt),
    types ? inArray(events.type, types) : undefined,
  )!;
}

/** The types a backfill sends: those asked for, else those the endpoint selects (null: all). */
export const typesOf = (eventTypes: string[] | null, enabledEvents: string[]) => eventTypes ?? (enabledEvents.includes("*") ? null : enabledEvents);

/**
 * One step of every unfinished backfill: queues its next events (at most one second's worth
 * of the account's rate limit, and not again within the same second) as deliveries spaced
 * evenly over that second. Each backfill is locked while it advances, so concurrent workers
 * never queue an event twice. Returns the new deliveries.
 */
export async function advanceBackfills(db: Db, now = new Date()): Promise<string[]> {
  const open = await db
    .select({ id: webhookBackfills.id })
    .from(webhookBackfills)
    .where(inArray(webhookBackfills.status, ["queued", "running"]))
    .orderBy(asc(webhookBackfills.createdAt))
    .limit(50);
  const queued: string[] = [];
  for (const { id } of open) queued.push(...(await advanceBackfill(db, id, now)));
  return queued;
}

async function advanceBackfill(db: Db, id: string, now: Date): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [b] = await tx
      .select()
      .from(webhookBackfills)
      .where(and(eq(webhookBackfills.id, id), inArray(webhookBackfills.status, ["queued", "running"])))
      .for("update", { skipLocked: true });
    if (!b || (b.status === "running" && now.getTime() - b.updatedAt.getTime() < 1_000)) return [];
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, b.endpointId));
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, b.accountId));
    const perSecond = limitsFor(account).perSecond ?? fallbackPerSecond;
    const after = b.cursorCreatedAt
      ? sql`(${events.createdAt}, ${events.id}) > (${b.cursorCreatedAt.toISOString()}::timestamptz, ${b.cursorEventId}::text)`
      : undefined;
    const batch = await tx
      .select({ id: events.id, type: events.type, createdAt: events.createdAt })
      .from(events)
      .where(and(windowConditions(b, typesOf(b.eventTypes, endpoint.enabledEvents)), after))
      .orderBy(asc(events.createdAt), asc(events.id))
      .limit(perSecond);
    const spacing = 1_000 / perSecond;
    const rows = batch.map((e, i) => ({
      ...queuedDelivery(b, b.endpointId, e, "backfill", new Date(now.getTime() + Math.floor(i * spacing))),
      backfillId: b.id,
      backfillSeq: b.eventsQueued + i + 1,
    }));
    if (rows.length) await tx.insert(webhookDeliveries).values(rows);
    const last = batch[batch.length - 1];
    const eventsQueued = b.eventsQueued + rows.length;
    await tx
      .update(webhookBackfills)
      .set({
        status: rows.length < perSecond || eventsQueued >= b.eventsTotal ? "completed" : "running",
        eventsQueued,
        cursorCreatedAt: last?.createdAt ?? b.cursorCreatedAt,
        cursorEventId: last?.id ?? b.cursorEventId,
        updatedAt: now,
      })
      .where(eq(webhookBackfills.id, b.id));
    return rows.map((r) => r.id);
  });
}

