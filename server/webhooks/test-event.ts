import { eq } from "drizzle-orm";
import { accounts, events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { testEventType } from "@/server/events/types";
import { newId } from "@/server/ids";
import { findOwned, type Ctx } from "@/server/tenancy";
import { deliveriesQueued } from "./queue";

/**
 * "Send test event": a `ping` event to this one endpoint, whatever it selects. The event is
 * written already fanned out (no other endpoint gets it) and its delivery goes through the
 * normal attempt path: signed with the endpoint's secrets, retried and recorded like any other.
 * A disabled endpoint keeps it waiting like its other deliveries.
 */
export async function sendTestEvent({ db, tenant, endpointId }: Ctx & { endpointId: string }) {
  const endpoint = await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const delivery = await db.transaction(async (tx) => {
    const [account] = await tx.select({ apiVersion: accounts.apiVersion }).from(accounts).where(eq(accounts.id, tenant.accountId));
    const now = new Date();
    const [event] = await tx
      .insert(events)
      .values({
        id: newId("event"),
        accountId: tenant.accountId,
        livemode: tenant.livemode,
        propertyId: null,
        type: testEventType,
        apiVersion: account.apiVersion,
        object: { object: "ping", endpoint_id: endpoint.id, message: "A test event sent from the Innkeep dashboard. Answer 2xx once its signature checks out." },
        createdAt: now,
        fannedOutAt: now,
      })
      .returning();
    const [row] = await tx
      .insert(webhookDeliveries)
      .values({
        id: newId("delivery"),
        accountId: tenant.accountId,
        livemode: tenant.livemode,
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        eventCreatedAt: event.createdAt,
        source: "test",
        status: "queued",
        nextAttemptAt: now,
      })
      .returning();
    return row;
  });
  await deliveriesQueued([delivery.id], "test");
  return { delivery_id: delivery.id, event_id: delivery.eventId, endpoint_status: endpoint.status };
}
