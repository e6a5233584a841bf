import type { Context } from "hono";
import type { ApiEnv } from "@/server/http/context";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { deleted, idParam } from "@/server/schemas";
import { createBackfill, getBackfill, presentBackfill } from "./backfills";
import { getDelivery, listDeliveries } from "./deliveries";
import {
  createEndpoint,
  deleteEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
  type UrlPolicy,
} from "./endpoints";
import { presentDelivery, presentEndpoint } from "./present";
import { replayEvent } from "./replay";
import {
  backfillCreateSchema,
  backfillParams,
  backfillSchema,
  deliveryListQuery,
  deliverySchema,
  emptySchema,
  endpointCreateSchema,
  endpointSchema,
  endpointUpdateSchema,
  endpointWithSecretSchema,
  replayResultSchema,
  replaySchema,
  rotateSecretSchema,
  testEventResultSchema,
  testEventSchema,
} from "./schemas";
import { sendTestEvent } from "./test-event";
import { webhookSettings } from "@/server/webhooks/settings";

const tag = "Webhooks";
const scope = "webhooks:manage" as const;
const params = idParam("we");

/** Registration's URL rules: production blocks private networks unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=1. */
const urlPolicy = (c: Context<ApiEnv>): UrlPolicy => c.get("deps").webhookUrlPolicy ?? { blockPrivateNetworks: webhookSettings().blockPrivateNetworks };

export const webhookOperations = [
  // GET /v1/webhook_endpoints: the environment's endpoints, newest first
  defineOperation({
    method: "get", path: "/webhook_endpoints", operationId: "listWebhookEndpoints", summary: "List webhook endpoints", tag, scope,
    list: true, response: listSchema(endpointSchema, "WebhookEndpointList"),
    handler: async ({ ctx, list }) => list.envelope(await listEndpoints({ ...ctx, page: list.page }), (e) => presentEndpoint(e)),
  }),
  // POST /v1/webhook_endpoints: register an endpoint; its signing secret is shown only here
  defineOperation({
    method: "post", path: "/webhook_endpoints", operationId: "createWebhookEndpoint", summary: "Create a webhook endpoint", tag, scope,
    body: endpointCreateSchema, response: endpointWithSecretSchema, status: 201,
    errors: ["url_not_allowed"],
    handler: async ({ ctx, body, c }) => {
      const { endpoint, secret } = await createEndpoint({ ...ctx, input: body, version: ctx.version, policy: urlPolicy(c) });
      return presentEndpoint(endpoint, secret);
    },
  }),
  // GET /v1/webhook_endpoints/{id}: retrieve an endpoint
  defineOperation({
    method: "get", path: "/webhook_endpoints/{id}", operationId: "getWebhookEndpoint", summary: "Retrieve a webhook endpoint", tag, scope,
    params, response: endpointSchema,
    handler: async ({ ctx, params }) => presentEndpoint(await getEndpoint({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/webhook_endpoints/{id}: change the URL, description, event selector or API version
  defineOperation({
    method: "patch", path: "/webhook_endpoints/{id}", operationId: "updateWebhookEndpoint", summary: "Update a webhook endpoint", tag, scope,
    params, body: endpointUpdateSchema, response: endpointSchema,
    errors: ["url_not_allowed"],
    handler: async ({ ctx, params, body, c }) => presentEndpoint(await updateEndpoint({ ...ctx, id: params.id, input: body, policy: urlPolicy(c) })),
  }),
  // DELETE /v1/webhook_endpoints/{id}: delete an endpoint and its delivery log
  defineOperation({
    method: "delete", path: "/webhook_endpoints/{id}", operationId: "deleteWebhookEndpoint", summary: "Delete a webhook endpoint", tag, scope,
    params, response: deleted("webhook_endpoint"),
    handler: async ({ ctx, params }) => deleteEndpoint({ ...ctx, id: params.id }),
  }),
  // POST /v1/webhook_endpoints/{id}/rotate_secret: a new secret; the old stays valid for a while
  defineOperation({
    method: "post", path: "/webhook_endpoints/{id}/rotate_secret", operationId: "rotateWebhookSecret", summary: "Rotate an endpoint's signing secret", tag, scope,
    params, body: rotateSecretSchema, response: endpointWithSecretSchema,
    handler: async ({ ctx, params, body }) => {
      const { endpoint, secret } = await rotateSecret({ ...ctx, id: params.id, expiresInSeconds: body.expires_in_seconds });
      return presentEndpoint(endpoint, secret);
    },
  }),
  // POST /v1/webhook_endpoints/{id}/enable: re-enable; waiting deliveries go out
  defineOperation({
    method: "post", path: "/webhook_endpoints/{id}/enable", operationId: "enableWebhookEndpoint", summary: "Enable a webhook endpoint", tag, scope,
    params, body: emptySchema, response: endpointSchema,
    handler: async ({ ctx, params }) => presentEndpoint(await enableEndpoint({ ...ctx, id: params.id })),
  }),
  // POST /v1/webhook_endpoints/{id}/disable: stop attempts; deliveries wait
  defineOperation({
    method: "post", path: "/webhook_endpoints/{id}/disable", operationId: "disableWebhookEndpoint", summary: "Disable a webhook endpoint", tag, scope,
    params, body: emptySchema, response: endpointSchema,
    handler: async ({ ctx, params }) => presentEndpoint(await disableEndpoint({ ...ctx, id: params.id })),
  }),
  // POST /v1/webhook_endpoints/{id}/replay: deliver one event again, same event id
  defineOperation({
    method: "post", path: "/webhook_endpoints/{id}/replay", operationId: "replayWebhookEvent", summary: "Replay an event to an endpoint", tag, scope,
    params, body: replaySchema, response: replayResultSchema, status: 202,
    errors: ["outside_replay_window"],
    handler: async ({ ctx, params, body }) => replayEvent({ ...ctx, endpointId: params.id, eventId: body.event_id }),
  }),
  // POST /v1/webhook_endpoints/{id}/test: send this endpoint a signed ping, or a sample of an event type
  defineOperation({
    method: "post", path: "/webhook_endpoints/{id}/test", operationId: "testWebhookEndpoint", summary: "Send a test event to an endpoint", tag, scope,
    description:
      "Requires scope `webhooks:manage`. Sends this endpoint one test event, whatever events it selects: `ping` (the default), or a sample of any event type whose `data.object` is this environment's newest object of that kind, presented as a real event presents it (422 `parameter_invalid` on `type` when the environment has none). Signed, retried and recorded like any delivery; the test event is never listed, backfilled or sent to another endpoint.",
    params, body: testEventSchema, response: testEventResultSchema, status: 202,
    handler: async ({ ctx, params, body }) => {
      const sent = await sendTestEvent({ ...ctx, endpointId: params.id, type: body.type });
      return { event_id: sent.event_id, delivery_id: sent.delivery_id, type: sent.type, status: "queued" as const };
    },
  }),
  // POST /v1/webhook_endpoints/{id}/backfill: deliver a window of past events again, in order
  defineOperation({
    method: "post", path: "/webhook_endpoints/{id}/backfill", operationId: "createWebhookBackfill", summary: "Backfill events to an endpoint", tag, scope,
    params, body: backfillCreateSchema, response: backfillSchema, status: 202,
    errors: ["outside_replay_window"],
    handler: async ({ ctx, params, body }) => presentBackfill(await createBackfill({ ...ctx, endpointId: params.id, input: body })),
  }),
  // GET /v1/webhook_endpoints/{id}/backfills/{backfill_id}: a backfill's progress
  defineOperation({
    method: "get", path: "/webhook_endpoints/{id}/backfills/{backfill_id}", operationId: "getWebhookBackfill", summary: "Retrieve a backfill", tag, scope,
    params: backfillParams, response: backfillSchema,
    handler: async ({ ctx, params }) => presentBackfill(await getBackfill({ ...ctx, endpointId: params.id, id: params.backfill_id })),
  }),
  // GET /v1/webhook_endpoints/{id}/deliveries: an endpoint's delivery log, with attempts
  defineOperation({
    method: "get", path: "/webhook_endpoints/{id}/deliveries", operationId: "listWebhookDeliveries", summary: "List an endpoint's deliveries", tag, scope,
    params, query: deliveryListQuery, list: true, response: listSchema(deliverySchema, "WebhookDeliveryList"),
    handler: async ({ ctx, params, query, list }) =>
      list.envelope(await listDeliveries({ ...ctx, endpointId: params.id, filters: query, page: list.page }), presentDelivery),
  }),
  // GET /v1/deliveries/{id}: one delivery with every attempt
  defineOperation({
    method: "get", path: "/deliveries/{id}", operationId: "getWebhookDelivery", summary: "Retrieve a delivery", tag, scope,
    params: idParam("del"), response: deliverySchema,
    handler: async ({ ctx, params }) => presentDelivery(await getDelivery({ ...ctx, id: params.id })),
  }),
];
