import { isoTime, isoTimeOrNull } from "@/lib/dates";
import type { webhookEndpoints } from "@/db/schema";
import { presentEvent } from "@/server/events/present";
import type { DeliveryWithAttempts } from "./deliveries";
import { outcomeOf, type DeliveryLogRow, type getDeliveryDetail } from "./delivery-log";
import type { EndpointStats } from "./endpoint-stats";

type DeliveryDetail = Awaited<ReturnType<typeof getDeliveryDetail>>;

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
  created_at: isoTime(e.createdAt),
  updated_at: isoTime(e.updatedAt),
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
  next_attempt_at: isoTimeOrNull(d.nextAttemptAt),
  created_at: isoTime(d.createdAt),
  updated_at: isoTime(d.updatedAt),
  attempts: d.attempts.map((a) => ({
    id: a.id,
    object: "webhook_attempt" as const,
    number: a.number,
    started_at: isoTime(a.startedAt),
    latency_ms: a.latencyMs,
    response_status: a.responseStatus,
    response_headers: a.responseHeaders,
    response_body: a.responseBody,
    error: a.error,
  })),
});

// The dashboard's views (developer console): the API objects plus what a person debugging needs.

/** The endpoint with when it was disabled and its 24-hour health. */
export const presentEndpointHealth = (e: Endpoint, stats: EndpointStats | undefined) => ({
  ...presentEndpoint(e),
  disabled_at: isoTimeOrNull(e.disabledAt),
  stats: {
    attempts_24h: stats?.attempts ?? 0,
    success_rate_24h: stats?.successRate ?? null,
    p95_latency_ms_24h: stats?.p95LatencyMs ?? null,
    waiting: stats?.waiting ?? 0,
  },
});

/** A row of the delivery log: where it stands and how its latest attempt went. */
export const presentLogRow = (d: DeliveryLogRow) => ({
  id: d.id,
  endpoint_id: d.endpointId,
  endpoint_url: d.endpoint?.url ?? null,
  event_id: d.eventId,
  event_type: d.eventType,
  source: d.source,
  status: d.status,
  outcome: outcomeOf(d.status, d.endpoint?.status),
  attempt_count: d.attemptCount,
  next_attempt_at: isoTimeOrNull(d.nextAttemptAt),
  created_at: isoTime(d.createdAt),
  last_attempt: d.lastAttempt
    ? { started_at: isoTime(d.lastAttempt.startedAt), response_status: d.lastAttempt.responseStatus, latency_ms: d.lastAttempt.latencyMs, error: d.lastAttempt.error }
    : null,
});

/** A delivery's attempt timeline, each attempt with the request as sent and the answer as stored. */
export const presentDeliveryDetail = ({ delivery, endpoint, event, requestBody }: DeliveryDetail) => ({
  ...presentDelivery(delivery),
  outcome: outcomeOf(delivery.status, endpoint?.status),
  endpoint: endpoint ? { id: endpoint.id, url: endpoint.url, status: endpoint.status, disabled_reason: endpoint.disabledReason ?? null } : null,
  event: presentEvent(event),
  attempts: delivery.attempts.map((a) => ({
    id: a.id,
    number: a.number,
    started_at: isoTime(a.startedAt),
    latency_ms: a.latencyMs,
    outcome: a.outcome,
    request: { method: "POST" as const, url: a.requestUrl ?? endpoint?.url ?? null, headers: a.requestHeaders ?? null, body: requestBody },
    response: { status: a.responseStatus, headers: a.responseHeaders, body: a.responseBody },
    error: a.error,
  })),
});
