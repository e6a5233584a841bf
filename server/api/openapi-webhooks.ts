import type { OpenAPIHono, z } from "@hono/zod-openapi";

type OpenAPIRegistry = OpenAPIHono["openAPIRegistry"];

/**
 * The document's `webhooks`: one entry per event type, the POST Innkeep makes to a registered
 * endpoint, with its signed headers and the event envelope whose `data.object` is typed per type.
 * The envelopes come from the event payload registry beside it (server/api/event-payloads.ts); the app passes them in.
 */
export function registerWebhooks(registry: OpenAPIRegistry, envelopes: Record<string, z.ZodType>) {
  registry.registerComponent("parameters", "ServiceSignature", {
    name: "Service-Signature",
    in: "header",
    required: true,
    description:
      "`t=<unix seconds>,v1=<hex>`: `v1` is the lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint's whole secret (`whsec_…`, prefix included), as Stripe signs. During a secret rotation one `v1=` per valid secret. Refuse a `t` older than 300 seconds; compare in constant time.",
    schema: { type: "string", pattern: "^t=\\d+(,v1=[0-9a-f]{64})+$" },
    example: "t=1795000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
  });
  registry.registerComponent("parameters", "DeliveryRequestId", {
    name: "Service-Request-Id",
    in: "header",
    required: true,
    description: "New on every attempt.",
    schema: { type: "string", pattern: "^req_" },
    example: "req_1a2B3c4D5e6F7g8H9i0J1k2L",
  });
  for (const [type, envelope] of Object.entries(envelopes)) {
    registry.registerWebhook({
      method: "post",
      path: type,
      operationId: `${type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase())}Webhook`,
      summary: type === "ping" ? "Test event (ping)" : `Event ${type}`,
      description:
        type === "ping"
          ? "Sent to one endpoint by the dashboard's **Send test event**, whatever it selects, to check signature verification end to end."
          : `Sent to every endpoint of the account and environment that selects \`${type}\` (or \`*\`). At least once: deduplicate by \`id\`.`,
      tags: ["Webhooks"],
      security: [],
      parameters: [{ $ref: "#/components/parameters/ServiceSignature" }, { $ref: "#/components/parameters/DeliveryRequestId" }],
      request: { body: { required: true, content: { "application/json": { schema: envelope } } } },
      responses: {
        "2XX": { description: "Received. Answer within 5 seconds; handle the event afterwards." },
        "4XX": { description: "Any other 4xx fails the delivery for good (408 and 429 are retried); answer 401 to a bad signature." },
        "5XX": { description: "Retried: 8 attempts over about 103 hours; then the delivery can be replayed." },
      },
    });
  }
}
