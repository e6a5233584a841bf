import { count } from "drizzle-orm";
import { isoTime } from "@/lib/dates";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { events, webhookBackfills, webhookEndpoints } from "@/db/schema";
import { ApiError } from "@/server/errors";
import type { EventType } from "@/server/events/types";
import { newId } from "@/server/ids";
import { findOwned, type Ctx } from "@/server/tenancy";
import { typesOf, windowConditions } from "@/server/webhooks/backfill";
import { selects } from "@/server/webhooks/fan-out";
import { deliveriesQueued } from "@/server/webhooks/queue";
import { assertInsideReplayWindow } from "./replay";

// A backfill asked for: its window checked and recorded; the engine queues its events (server/webhooks/backfill.ts).

/** The most events one backfill may cover. */
const maxBackfillEvents = 10_000;
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
