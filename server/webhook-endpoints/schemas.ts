import { z } from "@hono/zod-openapi";
import { deliveryStatuses } from "@/db/schema";
import { eventTypes, testEventType } from "@/server/events/types";
import { apiVersions } from "@/server/http/versions";
import { idOf, timestamp } from "@/server/schemas";

const selector = z.enum(["*", ...eventTypes]);
const enabledEvents = z
  .array(selector)
  .min(1)
  .max(eventTypes.length + 1)
  .openapi({ description: '`["*"]` for every event type (the specification\'s 12 and issue 27\'s), or a list of types.', example: ["reservation.created", "reservation.cancelled"] });
const url = z
  .string()
  .min(1)
  .max(2048)
  .openapi({ format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://", description: "An absolute http(s) URL without credentials.", example: "https://example.com/innkeep/webhooks" });
const description = z.string().max(500).nullish();

export const endpointSchema = z
  .object({
    id: idOf("we"),
    object: z.literal("webhook_endpoint"),
    livemode: z.boolean(),
    url: z.string(),
    description: z.string().nullable(),
    enabled_events: z.array(z.string()),
    api_version: z.string(),
    status: z.enum(["enabled", "disabled"]),
    disabled_reason: z.enum(["circuit_breaker", "manual"]).nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("WebhookEndpoint");

export const endpointWithSecretSchema = endpointSchema
  .extend({ secret: z.string().openapi({ description: "The signing secret (`whsec_…`); shown only in this answer.", example: "whsec_…" }) })
  .openapi("WebhookEndpointWithSecret");

export const endpointCreateSchema = z
  .strictObject({ url, description, enabled_events: enabledEvents, api_version: z.enum(apiVersions).optional() })
  .openapi("WebhookEndpointCreate");

export const endpointUpdateSchema = z
  .strictObject({ url: url.optional(), description, enabled_events: enabledEvents.optional(), api_version: z.enum(apiVersions).optional() })
  .openapi("WebhookEndpointUpdate");

export const rotateSecretSchema = z
  .strictObject({
    expires_in_seconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .default(86_400)
      .openapi({ description: "How long the current secrets stay valid beside the new one (default 24 hours; 0 retires them now)." }),
  })
  .openapi("WebhookSecretRotate");

export const emptySchema = z.strictObject({});

const attemptSchema = z
  .object({
    id: idOf("att"),
    object: z.literal("webhook_attempt"),
    number: z.number().int(),
    started_at: timestamp,
    latency_ms: z.number().int(),
    response_status: z.number().int().nullable(),
    response_headers: z.record(z.string(), z.string()),
    response_body: z.string().openapi({ description: "The first 8 KiB of the answer." }),
    error: z.string().nullable(),
  })
  .openapi("WebhookAttempt");

export const deliverySchema = z
  .object({
    id: idOf("del"),
    object: z.literal("webhook_delivery"),
    livemode: z.boolean(),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    source: z.enum(["event", "replay", "backfill", "test"]),
    backfill_id: z.string().nullable(),
    status: z.enum(deliveryStatuses),
    attempt_count: z.number().int(),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
    attempts: z.array(attemptSchema),
  })
  .openapi("WebhookDelivery");

export const deliveryListQuery = z.strictObject({
  status: z.enum(deliveryStatuses).optional(),
  event_id: z.string().max(64).optional(),
  event_type: z.enum(eventTypes).optional(),
});

export const replaySchema = z.strictObject({ event_id: z.string().min(1).max(64) }).openapi("WebhookReplay");
export const replayResultSchema = z
  .object({ replayed: z.literal(true), event_id: z.string(), delivery_id: z.string(), status: z.literal("queued") })
  .openapi("WebhookReplayResult");

export const testEventSchema = z
  .strictObject({
    type: z
      .enum([testEventType, ...eventTypes])
      .optional()
      .openapi({ description: "`ping` (default), or an event type: a sample of it, built from this environment's newest object of that kind." }),
  })
  .openapi("WebhookTest");
export const testEventResultSchema = z
  .object({
    event_id: z.string().openapi({ description: "The test event: never listed, replayed by a backfill or sent to another endpoint." }),
    delivery_id: z.string(),
    type: z.enum([testEventType, ...eventTypes]),
    status: z.literal("queued"),
  })
  .openapi("WebhookTestResult");

export const backfillCreateSchema = z
  .strictObject({
    since: z.iso.datetime({ offset: true }).openapi({ description: "Start of the window (inside the last 72 hours)." }),
    until: z.iso.datetime({ offset: true }),
    event_types: z.array(z.enum(eventTypes)).max(eventTypes.length).optional(),
  })
  .openapi("WebhookBackfillCreate");

export const backfillSchema = z
  .object({
    id: idOf("bf"),
    object: z.literal("backfill"),
    livemode: z.boolean(),
    endpoint_id: z.string(),
    since: timestamp,
    until: timestamp,
    event_types: z.array(z.string()).nullable(),
    status: z.enum(["queued", "running", "completed"]),
    events_total: z.number().int(),
    events_queued: z.number().int(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Backfill");

export const backfillParams = z.strictObject({
  id: z.string().min(1).max(64).openapi({ param: { name: "id", in: "path" } }),
  backfill_id: z.string().min(1).max(64).openapi({ param: { name: "backfill_id", in: "path" } }),
});
