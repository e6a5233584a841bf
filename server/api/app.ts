import { Hono } from "hono";
import { OpenAPIHono, z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { ApiError } from "@/server/errors";
import { metrics } from "@/server/observability/metrics";
import { authenticate, requireAuth } from "@/server/http/authenticate";
import type { ApiDeps, ApiEnv } from "@/server/http/context";
import { serviceHeaders } from "@/server/http/service-headers-step";
import { observe } from "@/server/http/observe";
import { withExamples } from "./openapi-examples";
import { describeOperation, registerContractComponents } from "@/server/http/openapi-operation";
import { registerWebhooks } from "./openapi-webhooks";
import { eventEnvelopes } from "./event-payloads";
import { refuseMetrics } from "@/server/http/metrics-access";
import { mountOperation, writeDescriptions, type AnyOperation } from "@/server/http/operation";
import { withInputShapedBodies } from "./openapi-input-shapes";
import { rateLimit } from "@/server/http/rate-limit-step";
import { renderError } from "@/server/http/render-error";
import { operations } from "./routes";
import { createStripeWebhooks, stripeWebhooksPath } from "./stripe-webhooks";
import { bookingEnginePath, createBookingEngineApi } from "./booking-engine-api";
import { createOAuthEndpoints } from "@/server/oauth/endpoints";
import { withOAuthPaths } from "@/server/oauth/openapi";
import { latestApiVersion } from "@/server/http/versions";

/** The OpenAPI document's header; paths come from the operations themselves. */
const documentInfo = {
  openapi: "3.1.0",
  info: {
    title: "Innkeep API",
    version: latestApiVersion,
    description: [
      "Hotel property management: reservations, guests, rooms, rates, payments, housekeeping, reports and webhooks.",
      "",
      "Free-text fields (names, descriptions, notes, reasons, codes, assignees) are trimmed of leading and trailing whitespace before their",
      "length is checked, so `\"  \"` is too short. In every string, key and value, NUL characters (U+0000) and unpaired UTF-16",
      "surrogates are refused with 422 `parameter_invalid` (400 in the query string).",
      "Integers in the query string are digits only (an empty value is not 0). Date-times are RFC 3339 with `Z` or an offset; answers are in UTC with `Z`.",
      "Conventions (errors, idempotency, pagination, rate limits, sandbox, versioning, OAuth, webhooks and their signatures) are on the `/docs` page of this server, with this document rendered and an example of every request.",
    ].join("\n"),
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
  },
  servers: [{ url: "/v1" }],
};

/** The `/v1` façade: every operation behind the same chain of small steps. */
export function createRestApi(deps: ApiDeps, ops: AnyOperation[] = operations) {
  const api = new OpenAPIHono<ApiEnv>();
  registerContractComponents(api.openAPIRegistry);
  registerWebhooks(api.openAPIRegistry, eventEnvelopes);
  api.onError(renderError);
  api.use("*", async (c, next) => {
    c.set("deps", deps);
    return next();
  });
  api.use("*", observe);
  // GET /v1/openapi.json: the description of the API itself; public, and described in itself.
  // Public: no credential, no environment; counted like any request (below), so it answers the
  // rate-limit headers and can be refused with 429.
  const meta = describeOperation(
    { method: "get", path: "/openapi.json", operationId: "getOpenApiDocument", summary: "This API's OpenAPI 3.1 document", tag: "Meta", scope: null, public: true, response: z.looseObject({ openapi: z.string() }), handler: async () => undefined },
    undefined,
  );
  api.openAPIRegistry.registerPath(meta);
  // Counted like any request (by account, or by address without a credential), so even this
  // public answer carries the X-RateLimit headers; only authentication is not required.
  api.use("*", authenticate, rateLimit);
  // Made once per app, on the first request for it: the routes are all mounted by then.
  let served: object | undefined;
  api.get("/openapi.json", (c) => c.json((served ??= withOAuthPaths(withExamples(withInputShapedBodies(api.getOpenAPI31Document(documentInfo)))))));
  api.use("*", requireAuth, serviceHeaders);
  for (const op of ops) mountOperation(api, op);
  // The operations describe themselves when the document is first made (a start need not).
  const document31 = api.getOpenAPI31Document.bind(api);
  api.getOpenAPI31Document = (...args) => (writeDescriptions(api), document31(...args));
  const document30 = api.getOpenAPIDocument.bind(api);
  api.getOpenAPIDocument = (...args) => (writeDescriptions(api), document30(...args));

  // Exact patterns: the router is strict about trailing slashes, so `/guests/` must be a 404,
  // not a 405 that lists the very method that was used.
  const known = [{ method: "GET", path: "/openapi.json" }, ...ops].map((op) => ({
    method: op.method.toUpperCase(),
    pattern: new RegExp(`^${op.path.replace(/\./g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
  }));
  api.all("*", (c) => {
    const path = c.req.path.replace(/^\/v1/, "");
    const allowed = known.filter((k) => k.pattern.test(path)).map((k) => k.method);
    if (allowed.length) {
      throw new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use ${allowed.join(", ")}.`, {
        headers: { Allow: allowed.join(", ") },
      });
    }
    throw new ApiError("route_not_found", `Unrecognized request URL (${c.req.method} ${c.req.path}).`);
  });
  return api;
}

/**
 * Everything the Node listener hands to Hono: `/v1`, Stripe's events in, the booking engine's
 * public endpoints (`/book-api/…`), and the operational
 * endpoints that must answer even when Next is busy.
 */
export function createApp(deps: ApiDeps) {
  const app = new Hono();
  app.route("/v1", createRestApi(deps));
  app.route(stripeWebhooksPath, createStripeWebhooks(deps));
  app.route(bookingEnginePath, createBookingEngineApi(deps));
  app.route("/", createOAuthEndpoints(deps));
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/readyz", async (c) => {
    try {
      await deps.db.execute(sql`select 1`);
      return c.json({ status: "ready", database: "ok" });
    } catch {
      return c.json({ status: "unavailable", database: "unreachable" }, 503);
    }
  });
  app.get("/metrics", async (c) => {
    const refusal = refuseMetrics(c, deps);
    if (refusal) return refusal;
    const registry = metrics().registry;
    return c.body(await registry.metrics(), 200, { "content-type": registry.contentType });
  });
  return app;
}
