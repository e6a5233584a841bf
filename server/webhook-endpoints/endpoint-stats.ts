import { and, count, eq, gte, inArray, sql } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";

const dayMs = 86_400_000;
const hourMs = 3_600_000;

export type EndpointStats = {
  /** Attempts over the last 24 hours, and the share of them answered 2xx (null: none made). */
  attempts: number;
  successRate: number | null;
  /** 95th percentile of attempt latency over the last 24 hours, in ms (null: no attempts). */
  p95LatencyMs: number | null;
  /** Deliveries not finished yet: queued or waiting for a retry (or for a re-enable). */
  waiting: number;
};

/** Health of each endpoint for the endpoints list: 24-hour success rate, p95 latency, deliveries waiting. */
export async function endpointStats({ db, tenant, endpointIds, now = new Date() }: Ctx & { endpointIds: string[]; now?: Date }): Promise<Map<string, EndpointStats>> {
  const stats = new Map<string, EndpointStats>(endpointIds.map((id) => [id, { attempts: 0, successRate: null, p95LatencyMs: null, waiting: 0 }]));
  if (!endpointIds.length) return stats;
  // Attempts carry no tenant columns: only the caller's own endpoints are looked at.
  const owned = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(ownedBy(webhookEndpoints, tenant, inArray(webhookEndpoints.id, endpointIds)));
  const ids = owned.map((e) => e.id);
  if (!ids.length) return stats;
  const [attempts, waiting] = await Promise.all([
    db
      .select({
        endpointId: webhookAttempts.endpointId,
        attempts: count(),
        succeeded: sql<number>`count(*) filter (where ${webhookAttempts.outcome} = 'succeeded')`,
        p95: sql<number | null>`percentile_cont(0.95) within group (order by ${webhookAttempts.latencyMs})`,
      })
      .from(webhookAttempts)
      .where(and(inArray(webhookAttempts.endpointId, ids), gte(webhookAttempts.startedAt, new Date(now.getTime() - dayMs))))
      .groupBy(webhookAttempts.endpointId),
    db
      .select({ endpointId: webhookDeliveries.endpointId, n: count() })
      .from(webhookDeliveries)
      .where(and(inArray(webhookDeliveries.endpointId, ids), inArray(webhookDeliveries.status, ["queued", "retry_scheduled"])))
      .groupBy(webhookDeliveries.endpointId),
  ]);
  for (const row of attempts) {
    const n = Number(row.attempts);
    stats.set(row.endpointId, {
      ...stats.get(row.endpointId)!,
      attempts: n,
      successRate: n ? Number(row.succeeded) / n : null,
      p95LatencyMs: row.p95 === null ? null : Math.round(Number(row.p95)),
    });
  }
  for (const row of waiting) stats.get(row.endpointId)!.waiting = Number(row.n);
  return stats;
}

export type HourBucket = { hour: string; succeeded: number; retry: number; failed: number };

/**
 * Attempts per hour by outcome over the last `hours` hours (oldest first, every hour present):
 * succeeded, failed and retried (`retry`), failed for good (`failed`).
 */
export async function attemptsPerHour({ db, tenant, endpointId, hours = 24, now = new Date() }: Ctx & { endpointId: string; hours?: number; now?: Date }): Promise<HourBucket[]> {
  await findOwned(db, webhookEndpoints, tenant, endpointId, "webhook endpoint");
  const currentHour = Math.floor(now.getTime() / hourMs);
  const first = currentHour - hours + 1;
  const bucket = sql<number>`floor(extract(epoch from ${webhookAttempts.startedAt}) / 3600)::int`;
  const rows = await db
    .select({ bucket, outcome: webhookAttempts.outcome, n: count() })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.endpointId, endpointId), gte(webhookAttempts.startedAt, new Date(first * hourMs))))
    .groupBy(bucket, webhookAttempts.outcome);
  const buckets: HourBucket[] = Array.from({ length: hours }, (_, i) => ({ hour: new Date((first + i) * hourMs).toISOString(), succeeded: 0, retry: 0, failed: 0 }));
  for (const row of rows) {
    const slot = buckets[Number(row.bucket) - first];
    if (slot) slot[row.outcome] += Number(row.n);
  }
  return buckets;
}
