import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { findOwned } from "@/server/tenancy";
import { selects } from "@/server/webhooks/fan-out";
import { deliveriesQueued, queuedDelivery } from "@/server/webhooks/queue";

/** Replay and backfill reach back this far (specification, Replay; the 72-hour figure). */
const replayWindowMs = 72 * 3_600_000;

export function assertInsideReplayWindow(at: Date, param: string, now = Date.now()) {
  if (at.getTime() < now - replayWindowMs) {
    throw new ApiError("outside_replay_window", `Only events from the last 72 hours can be replayed; '${param}' is older.`, { param });
  }
}

/**
 * POST /webhook_endpoints/{id}/replay: a new delivery of one event, with the event's own id,
 * queued at once (also to a disabled endpoint, where it waits like any other delivery).
 */
export async function replayEvent({ db, tenant, actor, endpointId, eventId }: ChangeCtx & { endpointId: string; eventId: string }) {
  const endpoint = await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const event = await findOwned(db, events, tenant, eventId, "event", { param: "event_id" });
  assertInsideReplayWindow(event.createdAt, "event_id");
  if (!selects(endpoint.enabledEvents, event.type)) {
    throw new ApiError(
      "parameter_invalid",
      `The endpoint does not subscribe to '${event.type}' events; add it to enabled_events to replay this event.`,
      {
        param: "event_id",
      },
    );
  }
  const delivery = await inTransaction(db, async (tx) => {
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values(queuedDelivery(tenant, endpoint.id, event, "replay", new Date()))
      .returning();
    await audit(
      tx,
      { tenant, actor },
      {
        action: "webhook_endpoint.event_replayed",
        objectType: "webhook_endpoint",
        objectId: endpoint.id,
        after: { event_type: event.type, event_created_at: event.createdAt.toISOString() },
      },
    );
    return delivery;
  });
  await deliveriesQueued([delivery.id], "replay");
  return { replayed: true as const, event_id: event.id, delivery_id: delivery.id, status: "queued" as const };
}
