import { and, asc, count, eq, gte, inArray, isNull, lte, sql, type SQL } from "drizzle-orm";
import { isoTime } from "@/lib/dates";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import type { Db } from "@/db/client";
import { accounts, events, webhookBackfills, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { limitsFor } from "@/server/plans";
import { ApiError } from "@/server/errors";
import type { EventType } from "@/server/events/types";
import { newId } from "@/server/ids";
import { findOwned, type Ctx } from "@/server/tenancy";
import { selects } from "./fan-out";
import { deliveriesQueued, queuedDelivery } from "./queue";
import { assertInsideReplayWindow } from "./replay";

/** The most events one backfill may cover. */
const maxBackfillEvents = 10_000;
/** Accounts without a per-second limit (enterprise, unset) are still queued at this pace. */
const fallbackPerSecond = 1_000;

type Backfill = typeof webhookBackfills.$inferSelect;

function windowConditions(b: Pick<Backfill, "accountId" | "livemode" | "since" | "until">, types: string[] | null): SQL {
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
const typesOf = (eventTypes: string[] | null, enabledEvents: string[]) => eventTypes ?? (enabledEvents.includes("*") ? null : enabledEvents);

/**
 * POST /webhook_endpoints/{id}/backfill: checks the window (inside the last 72 hours, at most
 * 10,000 events) and records the backfill; the engine then queues its events in their
 * original order, no faster than the account's per-second rate limit.
 */
export async function createBackfill({
  db,
  tenant,
  actor,
  endpointId,
  input,
}: ChangeCtx & { endpointId: string; input: { since: string; until: string; event_types?: EventType[] } }) {
  const endpoint = await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const now = new Date();
  const since = new Date(input.since);
  // The future is not backfilled: events after now reach the endpoint through the fan-out.
  const until = new Date(Math.min(new Date(input.until).getTime(), now.getTime()));
  assertInsideReplayWindow(since, "since", now.getTime());
  if (until <= since)
    throw new ApiError("parameter_invalid", "Invalid parameter 'until': must be after 'since' and not after now.", { param: "until" });
  const unselected = input.event_types?.find((t) => !selects(endpoint.enabledEvents, t));
  if (unselected) {
    throw new ApiError("parameter_invalid", `The endpoint does not subscribe to '${unselected}' events.`, { param: "event_types" });
  }
  const eventTypes = input.event_types?.length ? [...new Set(input.event_types)] : null;
  const [{ n }] = await db
    .select({ n: count() })
    .from(events)
    .where(windowConditions({ ...tenant, since, until }, typesOf(eventTypes, endpoint.enabledEvents)));
  const total = Number(n);
  if (total > maxBackfillEvents) {
    throw new ApiError(
      "parameter_invalid",
      `The window holds ${total} events; a backfill covers at most ${maxBackfillEvents}. Narrow 'since' and 'until' or 'event_types'.`,
      {
        param: "since",
      },
    );
  }
  const backfill = await inTransaction(db, async (tx) => {
    const [backfill] = await tx
      .insert(webhookBackfills)
      .values({
        id: newId("backfill"),
        accountId: tenant.accountId,
        livemode: tenant.livemode,
        endpointId: endpoint.id,
        since,
        until,
        eventTypes,
        status: total === 0 ? "completed" : "queued",
        eventsTotal: total,
      })
      .returning();
    await audit(
      tx,
      { tenant, actor },
      { action: "webhook_endpoint.backfill_started", objectType: "webhook_endpoint", objectId: endpoint.id, after: presentBackfill(backfill) },
    );
    return backfill;
  });
  await deliveriesQueued([], "backfill");
  return backfill;
}

export const getBackfill = async ({ db, tenant, endpointId, id }: Ctx & { endpointId: string; id: string }) => {
  await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const backfill = await findOwned(db, webhookBackfills, tenant, id, "backfill", { param: "backfill_id" });
  if (backfill.endpointId !== endpointId) throw new ApiError("resource_missing", `No such backfill: '${id}'`, { param: "backfill_id" });
  return backfill;
};

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

export const presentBackfill = (b: typeof webhookBackfills.$inferSelect) => ({
  id: b.id,
  object: "backfill" as const,
  livemode: b.livemode,
  endpoint_id: b.endpointId,
  since: isoTime(b.since),
  until: isoTime(b.until),
  event_types: b.eventTypes,
  status: b.status,
  events_total: b.eventsTotal,
  events_queued: b.eventsQueued,
  created_at: isoTime(b.createdAt),
  updated_at: isoTime(b.updatedAt),
});
