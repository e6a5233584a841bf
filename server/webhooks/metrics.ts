import { Counter, Gauge, Histogram } from "prom-client";
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { metrics } from "@/server/observability/metrics";

type Holder = { __innkeepWebhookMetrics?: ReturnType<typeof createWebhookMetrics>; __innkeepWebhookMetricsDb?: Db };

function createWebhookMetrics() {
  const registers = [metrics().registry];
  const attempts = new Counter({
    name: "innkeep_webhook_attempts_total",
    help: "Webhook delivery attempts by outcome (succeeded, retry, failed).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const lag = new Histogram({
    name: "innkeep_webhook_delivery_lag_seconds",
    help: "From an event's creation to the first attempt of its delivery.",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers,
  });
  const waiting = new Gauge({
    name: "innkeep_webhook_deliveries_waiting",
    help: "Deliveries not yet succeeded or failed: due or scheduled, or held by a disabled endpoint.",
    labelNames: ["state"] as const,
    registers,
    async collect() {
      const db = (globalThis as Holder).__innkeepWebhookMetricsDb;
      if (!db) return;
      const rows = await db
        .select({ disabled: sql<boolean>`${webhookEndpoints.status} = 'disabled'`, status: webhookDeliveries.status, n: count() })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(and(inArray(webhookDeliveries.status, ["queued", "retry_scheduled"])))
        .groupBy(webhookEndpoints.status, webhookDeliveries.status);
      this.reset();
      for (const state of ["queued", "retry_scheduled", "endpoint_disabled"]) this.set({ state }, 0);
      for (const row of rows) this.inc({ state: row.disabled ? "endpoint_disabled" : row.status }, Number(row.n));
    },
  });
  return { attempts, lag, waiting };
}

/** The delivery engine's metrics, on the process registry that `/metrics` serves. */
export function webhookMetrics() {
  const holder = globalThis as Holder;
  holder.__innkeepWebhookMetrics ??= createWebhookMetrics();
  return holder.__innkeepWebhookMetrics;
}

/**
 * The database the waiting-deliveries gauge counts in, set by whoever runs the engine. Answers the
 * engine's way to stop: a scrape after its database is closed then counts nothing, not a failure.
 */
export function countWaitingIn(db: Db): () => void {
  const holder = globalThis as Holder;
  holder.__innkeepWebhookMetricsDb = db;
  webhookMetrics();
  return () => {
    if (holder.__innkeepWebhookMetricsDb === db) holder.__innkeepWebhookMetricsDb = undefined;
  };
}
