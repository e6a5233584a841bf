import { and, asc, eq, inArray } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type DeliveryStatus } from "@/db/schema";
import { type PageRequest } from "@/server/pagination";
import { findOwned, type Ctx, listOwned } from "@/server/tenancy";

export type DeliveryFilters = { status?: DeliveryStatus; event_id?: string; event_type?: string };
type Attempt = typeof webhookAttempts.$inferSelect;

async function attemptsOf(db: Ctx["db"], deliveryIds: string[]): Promise<Map<string, Attempt[]>> {
  const byDelivery = new Map<string, Attempt[]>(deliveryIds.map((id) => [id, []]));
  if (!deliveryIds.length) return byDelivery;
  const rows = await db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, deliveryIds))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.number));
  for (const row of rows) byDelivery.get(row.deliveryId)!.push(row);
  return byDelivery;
}

/** GET /webhook_endpoints/{id}/deliveries: an endpoint's deliveries, newest first, each with its attempts. */
export async function listDeliveries({
  db,
  tenant,
  endpointId,
  filters,
  page,
}: Ctx & { endpointId: string; filters: DeliveryFilters; page: PageRequest }) {
  await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const result = await listOwned(
    db,
    webhookDeliveries,
    tenant,
    page,
    eq(webhookDeliveries.endpointId, endpointId),
    filters.status ? eq(webhookDeliveries.status, filters.status) : undefined,
    filters.event_id ? eq(webhookDeliveries.eventId, filters.event_id) : undefined,
    filters.event_type ? eq(webhookDeliveries.eventType, filters.event_type) : undefined,
  );
  const attempts = await attemptsOf(
    db,
    result.data.map((d) => d.id),
  );
  return { ...result, data: result.data.map((d) => ({ ...d, attempts: attempts.get(d.id)! })) };
}

/** GET /deliveries/{id}: one delivery with every attempt. */
export async function getDelivery({ db, tenant, id }: Ctx & { id: string }) {
  const delivery = await findOwned(db, webhookDeliveries, tenant, id, "delivery");
  const attempts = await attemptsOf(db, [delivery.id]);
  return { ...delivery, attempts: attempts.get(delivery.id)! };
}

export type DeliveryWithAttempts = Awaited<ReturnType<typeof getDelivery>>;

/** Used by tests and the dashboard: every delivery of one event to one endpoint. */
export const deliveriesOf = (db: Ctx["db"], endpointId: string, eventId: string) =>
  db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.eventId, eventId)));
