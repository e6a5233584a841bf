import { eq } from "drizzle-orm";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { accounts, events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { testEventType, type EventType } from "@/server/events/types";
import { newId } from "@/server/ids";
import { findOwned } from "@/server/tenancy";
import { deliveriesQueued, queuedDelivery } from "@/server/webhooks/queue";
import { sampleObject, sampleSource } from "./sample-event";

/**
 * "Send test event" (the dashboard) and `POST /webhook_endpoints/{id}/test`: a `ping`, or a sample
 * of any event type, to this one endpoint, whatever it selects. The event is written already
 * fanned out (`fanned_out_at` set: no other endpoint gets it, no list or backfill shows it) and
 * its delivery goes through the normal attempt path: signed with the endpoint's secrets, retried
 * and recorded like any other. A disabled endpoint keeps it waiting like its other deliveries.
 * A sample needs an object of its kind in the environment; without one, a 422 that changes nothing.
 */
export async function sendTestEvent({
  db,
  tenant,
  actor,
  endpointId,
  type = testEventType,
}: ChangeCtx & { endpointId: string; type?: EventType | typeof testEventType }) {
  const endpoint = await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const environment = tenant.livemode ? "live" : "sandbox";
  const sample =
    type === testEventType
      ? {
          propertyId: null,
          object: { object: "ping", endpoint_id: endpoint.id, message: "A test event sent from Innkeep. Answer 2xx once its signature checks out." },
        }
      : await sampleObject(db, tenant, type);
  if (!sample) {
    const kind = sampleSource[type as EventType];
    throw new ApiError(
      "parameter_invalid",
      `There is no ${kind} in the ${environment} environment to build a sample ${type} event from: make one first, send \`ping\`, or test from the sandbox, whose seeded hotel has one of each.`,
      { param: "type" },
    );
  }
  const delivery = await db.transaction(async (tx) => {
    const [account] = await tx.select({ apiVersion: accounts.apiVersion }).from(accounts).where(eq(accounts.id, tenant.accountId));
    const now = new Date();
    const [event] = await tx
      .insert(events)
      .values({
        id: newId("event"),
        accountId: tenant.accountId,
        livemode: tenant.livemode,
        propertyId: sample.propertyId,
        type,
        apiVersion: account.apiVersion,
        object: sample.object,
        createdAt: now,
        fannedOutAt: now,
      })
      .returning();
    const [row] = await tx
      .insert(webhookDeliveries)
      .values(queuedDelivery(tenant, endpoint.id, event, "test", now))
      .returning();
    await audit(
      tx,
      { tenant, actor },
      { action: "webhook_endpoint.test_event_sent", objectType: "webhook_endpoint", objectId: endpoint.id, after: { event_type: type } },
    );
    return row;
  });
  await deliveriesQueued([delivery.id], "test");
  return { delivery_id: delivery.id, event_id: delivery.eventId, type, endpoint_status: endpoint.status };
}
