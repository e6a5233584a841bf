import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { events, webhookAttempts, webhookBackfills, webhookDeliveries, webhookEndpoints, type DeliveryStatus } from "@/db/schema";
import { presentEvent } from "@/server/events/present";
import { type PageRequest } from "@/server/pagination";
import { findOwned, listOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { getBackfill } from "./backfills";
import { getDelivery } from "./deliveries";

/** How the dashboard groups a delivery: pending ones of a disabled endpoint are "held". */
export const deliveryOutcomes = ["succeeded", "failed", "pending", "held"] as const;
export type DeliveryOutcome = (typeof deliveryOutcomes)[number];
/** The HTTP status class of a delivery's latest attempt; `network`: no answer at all. */
export const statusClasses = ["2xx", "3xx", "4xx", "5xx", "network"] as const;
export type StatusClass = (typeof statusClasses)[number];

export type DeliveryLogFilters = {
  endpoint_id?: string;
  event_id?: string;
  outcome?: DeliveryOutcome;
  event_type?: string;
  status_class?: StatusClass;
  created_gte?: string;
  created_lte?: string;
};

const pendingStatuses: DeliveryStatus[] = ["queued", "retry_scheduled"];
const disabledEndpoints = sql`(select ${webhookEndpoints.id} from ${webhookEndpoints} where ${webhookEndpoints.status} = 'disabled')`;

function outcomeCondition(outcome: DeliveryOutcome | undefined): SQL | undefined {
  if (!outcome) return undefined;
  if (outcome === "succeeded" || outcome === "failed") return eq(webhookDeliveries.status, outcome);
  return and(
    inArray(webhookDeliveries.status, pendingStatuses),
    outcome === "held" ? sql`${webhookDeliveries.endpointId} in ${disabledEndpoints}` : sql`${webhookDeliveries.endpointId} not in ${disabledEndpoints}`,
  );
}

function statusClassCondition(statusClass: StatusClass | undefined): SQL | undefined {
  if (!statusClass) return undefined;
  const low = Number(statusClass[0]) * 100;
  const answer = statusClass === "network" ? sql`a.response_status is null` : sql`a.response_status between ${low} and ${low + 99}`;
  return sql`exists (select 1 from ${webhookAttempts} a where a.delivery_id = ${webhookDeliveries.id} and a.number = ${webhookDeliveries.attemptCount} and ${answer})`;
}

/** The dashboard's word for where a delivery stands. */
export const outcomeOf = (status: DeliveryStatus, endpointStatus: string | undefined): DeliveryOutcome =>
  status === "succeeded" || status === "failed" ? status : endpointStatus === "disabled" ? "held" : "pending";

/**
 * The delivery log, fleet-wide or of one endpoint, newest first: filters by outcome, event type,
 * the latest attempt's status class and creation time; each row with its endpoint and latest attempt.
 */
export async function listDeliveryLog({ db, tenant, filters, page }: Ctx & { filters: DeliveryLogFilters; page: PageRequest }) {
  if (filters.endpoint_id) await findOwned(db, webhookEndpoints, tenant, filters.endpoint_id, "webhook endpoint", { param: "endpoint_id" });
  const result = await listOwned(
    db,
    webhookDeliveries,
    tenant,
    page,
    filters.endpoint_id ? eq(webhookDeliveries.endpointId, filters.endpoint_id) : undefined,
    filters.event_id ? eq(webhookDeliveries.eventId, filters.event_id) : undefined,
    filters.event_type ? eq(webhookDeliveries.eventType, filters.event_type) : undefined,
    filters.created_gte ? gte(webhookDeliveries.createdAt, new Date(filters.created_gte)) : undefined,
    filters.created_lte ? lte(webhookDeliveries.createdAt, new Date(filters.created_lte)) : undefined,
    outcomeCondition(filters.outcome),
    statusClassCondition(filters.status_class),
  );
  const ids = result.data.map((d) => d.id);
  const endpointIds = [...new Set(result.data.map((d) => d.endpointId))];
  const [latest, endpoints] = await Promise.all([
    ids.length
      ? db
          .selectDistinctOn([webhookAttempts.deliveryId], {
            deliveryId: webhookAttempts.deliveryId,
            responseStatus: webhookAttempts.responseStatus,
            latencyMs: webhookAttempts.latencyMs,
            error: webhookAttempts.error,
            startedAt: webhookAttempts.startedAt,
          })
          .from(webhookAttempts)
          .where(inArray(webhookAttempts.deliveryId, ids))
          .orderBy(asc(webhookAttempts.deliveryId), desc(webhookAttempts.number))
      : [],
    endpointIds.length
      ? db.select({ id: webhookEndpoints.id, url: webhookEndpoints.url, status: webhookEndpoints.status }).from(webhookEndpoints).where(inArray(webhookEndpoints.id, endpointIds))
      : [],
  ]);
  const lastOf = new Map(latest.map((a) => [a.deliveryId, a]));
  const endpointOf = new Map(endpoints.map((e) => [e.id, e]));
  return {
    ...result,
    data: result.data.map((d) => ({ ...d, endpoint: endpointOf.get(d.endpointId)!, lastAttempt: lastOf.get(d.id) ?? null })),
  };
}

export type DeliveryLogRow = Awaited<ReturnType<typeof listDeliveryLog>>["data"][number];

/**
 * One delivery as the attempt timeline shows it: every attempt with the request as sent (URL,
 * headers with the signature, and the body, which is the event's envelope rebuilt from the
 * event row byte for byte) and the answer as stored.
 */
export async function getDeliveryDetail({ db, tenant, id }: Ctx & { id: string }) {
  const delivery = await getDelivery({ db, tenant, id });
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId));
  const [event] = await db.select().from(events).where(eq(events.id, delivery.eventId));
  return { delivery, endpoint, event, requestBody: JSON.stringify(presentEvent(event)) };
}

/** Where one event went: each delivery of it with its endpoint and outcome (the events page). */
export async function deliveriesOfEvent({ db, tenant, eventId }: Ctx & { eventId: string }) {
  const rows = await db
    .select({ delivery: webhookDeliveries, endpointUrl: webhookEndpoints.url, endpointStatus: webhookEndpoints.status })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(ownedBy(webhookDeliveries, tenant, eq(webhookDeliveries.eventId, eventId)))
    .orderBy(desc(webhookDeliveries.createdAt));
  return rows;
}

/** A backfill with what became of its deliveries so far: queued (waiting), sent (succeeded), failed. */
export async function backfillProgress(ctx: Ctx & { endpointId: string; id: string }) {
  const backfill = await getBackfill(ctx);
  const [counts] = await ctx.db
    .select({
      succeeded: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'succeeded')`,
      failed: sql<number>`count(*) filter (where ${webhookDeliveries.status} = 'failed')`,
      waiting: sql<number>`count(*) filter (where ${webhookDeliveries.status} in ('queued', 'retry_scheduled'))`,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.backfillId, backfill.id));
  const sent = Number(counts.succeeded);
  const failed = Number(counts.failed);
  const waiting = Number(counts.waiting);
  // Done once every event is queued and none of its deliveries still waits.
  const finished = backfill.status === "completed" && waiting === 0;
  return { backfill, sent, failed, waiting, finished };
}

/** An endpoint's latest backfills, newest first. */
export const recentBackfills = ({ db, tenant, endpointId, limit = 5 }: Ctx & { endpointId: string; limit?: number }) =>
  db
    .select()
    .from(webhookBackfills)
    .where(ownedBy(webhookBackfills, tenant, eq(webhookBackfills.endpointId, endpointId)))
    .orderBy(desc(webhookBackfills.createdAt))
    .limit(limit);
