import type { webhookBackfills, webhookEndpoints } from "@/db/schema";
import type { DeliveryWithAttempts } from "./deliveries";

type Endpoint = typeof webhookEndpoints.$inferSelect;

/** The endpoint object; `secret` only where the contract shows it (create, rotate_secret). */
export const presentEndpoint = (e: Endpoint, secret?: string) => ({
  id: e.id,
  object: "webhook_endpoint" as const,
  livemode: e.livemode,
  url: e.url,
  description: e.description,
  enabled_events: e.enabledEvents,
  api_version: e.apiVersion,
  status: e.status,
  disabled_reason: e.disabledReason ?? null,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
  ...(secret ? { secret } : {}),
});

export const presentDelivery = (d: DeliveryWithAttempts) => ({
  id: d.id,
  object: "webhook_delivery" as const,
  livemode: d.livemode,
  endpoint_id: d.endpointId,
  event_id: d.eventId,
  event_type: d.eventType,
  source: d.source,
  backfill_id: d.backfillId,
  status: d.status,
  attempt_count: d.attemptCount,
  next_attempt_at: d.nextAttemptAt?.toISOString() ?? null,
  created_at: d.createdAt.toISOString(),
  updated_at: d.updatedAt.toISOString(),
  attempts: d.attempts.map((a) => ({
    id: a.id,
    object: "webhook_attempt" as const,
    number: a.number,
    started_at: a.startedAt.toISOString(),
    latency_ms: a.latencyMs,
    response_status: a.responseStatus,
    response_headers: a.responseHeaders,
    response_body: a.responseBody,
    error: a.error,
  })),
});

export const presentBackfill = (b: typeof webhookBackfills.$inferSelect) => ({
  id: b.id,
  object: "backfill" as const,
  livemode: b.livemode,
  endpoint_id: b.endpointId,
  since: b.since.toISOString(),
  until: b.until.toISOString(),
  event_types: b.eventTypes,
  status: b.status,
  events_total: b.eventsTotal,
  events_queued: b.eventsQueued,
  created_at: b.createdAt.toISOString(),
  updated_at: b.updatedAt.toISOString(),
});
