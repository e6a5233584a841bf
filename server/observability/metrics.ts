import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

type MetricsHolder = { __innkeepMetrics?: ReturnType<typeof createMetrics> };

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpRequests = new Counter({
    name: "innkeep_http_requests_total",
    help: "REST requests by route template, method and status.",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const httpDuration = new Histogram({
    name: "innkeep_http_request_duration_seconds",
    help: "REST request latency by route template and method.",
    labelNames: ["route", "method"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  return { registry, httpRequests, httpDuration };
}

/** One registry per process (globalThis survives Next's module duplication and hot reload). */
export function metrics() {
  const holder = globalThis as MetricsHolder;
  holder.__innkeepMetrics ??= createMetrics();
  return holder.__innkeepMetrics;
}
