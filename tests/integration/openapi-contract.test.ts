import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOriginPath } from "@/server/http/openapi-origin";
import { scopes, type Scope } from "@/server/auth/scopes";
import { errorCodes, type ErrorCode } from "@/server/errors";
import { expectError } from "../support/assertions";
import { RateLimiter, unlimitedState } from "@/server/http/rate-limit";
import type { RateLimits } from "@/server/plans";
import { startHarness, type Harness } from "../support/harness";
import { headersRead, recordingHeaderReads, takeHeaderDrift } from "../support/openapi-validator";

/**
 * Drives every operation without a credential in a few seconds, well past the anonymous 50 a
 * second per address: those are not counted here (rate-limit.test.ts tests the counting).
 */
class AnonymousUncounted extends RateLimiter {
  override consume(key: string, limits: RateLimits, now = Date.now()) {
    return key.startsWith("ip:") ? Promise.resolve(unlimitedState(limits, now)) : super.consume(key, limits, now);
  }
}

// Issue 24, item 1: the document says everything the server does. Every operation of the served
// document is driven here with requests that provoke each error its chain can give; the harness
// checks every answer (status, error code, body, response headers) against the document and every
// request header sent against the operation's parameters (tests/support/openapi-validator.ts), so
// a status, code or header the document misses fails here, and in every other integration suite.

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Operation = { operationId: string; security: Record<string, string[]>[]; parameters?: Json[]; requestBody?: Json; responses: Record<string, Json> };

let h: Harness;
let doc: Json;
const operations: { method: string; path: string; op: Operation }[] = [];

beforeAll(async () => {
  h = await startHarness({ limiter: new AnonymousUncounted() });
  doc = (await h.get("/v1/openapi.json", { token: null })).json;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    if (path === "/openapi.json" || isOriginPath(item)) continue;
    for (const [method, op] of Object.entries(item)) operations.push({ method: method.toUpperCase(), path, op });
  }
});
afterAll(async () => h?.close());

/** The path with each parameter replaced by a value that names nothing. */
const concrete = (path: string, value = "x_doesnotexist") => `/v1${path.replace(/\{\w+\}/g, value)}`;
const reads = (method: string) => method === "GET" || method === "DELETE";
/** The codes the document declares for one operation at one status. */
const declared = (op: Operation, status: number): ErrorCode[] => op.responses[status]?.content?.["application/json"]?.schema?.properties?.error?.properties?.code?.enum ?? [];
const headerParameters = (op: Operation) =>
  (op.parameters ?? []).map((p: Json) => (p.$ref ? doc.components.parameters[p.$ref.split("/").pop()] : p)).filter((p: Json) => p.in === "header").map((p: Json) => p.name);
const scopeOf = (op: Operation): Scope | null => (op.security[0].bearerAuth[0] as Scope | undefined) ?? null;

/** Sends the request and asserts the error; the harness has already compared the answer with the document. */
async function provoke(entry: (typeof operations)[number], status: number, code: ErrorCode, init: { token?: string | null; headers?: Record<string, string>; rawBody?: string; body?: unknown; path?: string } = {}) {
  const { method, path, op } = entry;
  const body = init.rawBody === undefined && init.body === undefined && !reads(method) ? {} : init.body;
  const res = await h.request(method, init.path ?? concrete(path), { ...init, body });
  expectError(res, status, code, undefined, { rateLimit: true });
  expect(declared(op, status), `${method} ${path} ${status}`).toContain(code);
  return res;
}

describe("every operation, driven through its chain", () => {
  it("no credential: 401 with the bearer challenge; a credential that names nothing: 401 invalid_token", async () => {
    for (const entry of operations) {
      const res = await provoke(entry, 401, "missing_token", { token: null });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      await provoke(entry, 401, "invalid_token", { token: "hk_nothing" });
    }
  });

  it("each operation's security names the scope it enforces: a key without it gets 403, a key with only it does not", async () => {
    const keys = new Map<Scope, string>();
    for (const scope of scopes) keys.set(scope, await h.keyWith([scope]));
    for (const entry of operations) {
      const { op } = entry;
      expect(op.security).toHaveLength(2);
      expect(op.security[0].bearerAuth).toEqual(op.security[1].oauth2);
      const scope = scopeOf(entry.op);
      if (scope === null) continue;
      expect(Object.keys(doc.components.securitySchemes.oauth2.flows.authorizationCode.scopes)).toContain(scope);
      const other = scopes.find((s) => s !== scope)!;
      const refused = await provoke(entry, 403, "insufficient_scope", { token: keys.get(other)! });
      expect(refused.json.error.message).toContain(scope);
      const allowed = await h.request(entry.method, concrete(entry.path), { token: keys.get(scope)!, body: reads(entry.method) ? undefined : {} });
      expect(allowed.json?.error?.code, `${entry.method} ${entry.path} with only ${scope}`).not.toBe("insufficient_scope");
    }
  });

  it("Service-Environment and Service-Version are declared, and their faults answered as declared", async () => {
    for (const entry of operations) {
      expect(headerParameters(entry.op)).toEqual(expect.arrayContaining(["Service-Environment", "Service-Version"]));
      await provoke(entry, 400, "invalid_environment", { headers: { "service-environment": "staging" } });
      await provoke(entry, 400, "invalid_version", { headers: { "service-version": "1999-01-01" } });
    }
  });

  it("an unknown query parameter is a 400 on every operation; a forged cursor a 400 on every list", async () => {
    for (const entry of operations) {
      const path = concrete(entry.path);
      await provoke(entry, 400, "parameter_invalid", { path: `${path}?zzz=1` });
      if (entry.op.parameters?.some((p: Json) => p.name === "cursor")) await provoke(entry, 400, "invalid_cursor", { path: `${path}?cursor=forged` });
    }
  });

  it("a path id that cannot name anything is 404 resource_missing", async () => {
    for (const entry of operations.filter((e) => e.path.includes("{"))) await provoke(entry, 404, "resource_missing", { path: concrete(entry.path, "x".repeat(65)) });
  });

  it("bodies: another content type 415, broken JSON 400, over 1 MiB 413, an unknown field 422", async () => {
    for (const entry of operations.filter((e) => !reads(e.method))) {
      const path = entry.path.includes("{") ? concrete(entry.path, "x".repeat(65)) : concrete(entry.path);
      // Body faults come before the path is parsed, so an impossible id does not hide them.
      await provoke(entry, 415, "unsupported_content_type", { path, rawBody: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } });
      await provoke(entry, 400, "invalid_json", { path, rawBody: "{", headers: { "content-type": "application/json" } });
      await provoke(entry, 413, "request_too_large", { path, rawBody: JSON.stringify({ a: "x".repeat(1024 * 1024) }), headers: { "content-type": "application/json" } });
      // The operation's own example, plus a field it does not take.
      const example = entry.op.requestBody?.content["application/json"].example ?? {};
      if (!entry.path.includes("{")) await provoke(entry, 422, "parameter_unknown", { body: { ...example, zzz_unknown: 1 } });
    }
  });

  it("every POST reads Idempotency-Key: declared, and a malformed key is 400 naming it", async () => {
    for (const entry of operations.filter((e) => e.method === "POST")) {
      expect(headerParameters(entry.op)).toContain("Idempotency-Key");
      const path = entry.path.includes("{") ? concrete(entry.path, "x".repeat(65)) : concrete(entry.path);
      const res = await provoke(entry, 400, "parameter_invalid", { path, headers: { "idempotency-key": "k".repeat(256) } });
      expect(res.json.error.param).toBe("Idempotency-Key");
    }
    for (const entry of operations.filter((e) => e.method !== "POST")) expect(headerParameters(entry.op)).not.toContain("Idempotency-Key");
  });

  it("a keyed POST's replay is marked Idempotent-Replayed, a header its success declares", async () => {
    const headers = { "idempotency-key": "contract-replay-1" };
    const body = { first_name: "Re", last_name: "Play", email: "replay@example.com" };
    const first = await h.post("/v1/guests", body, { headers, sandbox: true });
    const again = await h.post("/v1/guests", body, { headers, sandbox: true });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(Object.keys(doc.paths["/guests"].post.responses["201"].headers)).toContain("Idempotent-Replayed");
  });
});

describe("request headers an operation reads", () => {
  it("the harness records each one the app reads: one the operation does not declare fails the test that met it", async () => {
    // The recorder the harness serves the app through (tests/support/harness.ts), around a handler that reads a new header.
    const app = recordingHeaderReads(async (request: Request) => {
      request.headers.get("service-environment");
      request.headers.get("X-Hotel-Hint");
      return new Response("{}");
    });
    await app(new Request("http://127.0.0.1/v1/guests", { headers: { "x-hotel-hint": "1" } }), {});
    expect(takeHeaderDrift()).toEqual(["GET /guests: read the request header 'x-hotel-hint', which the operation does not declare"]);
    // Reading every header at once is drift too: each one used must be a parameter.
    await recordingHeaderReads(async (request: Request) => (request.headers.forEach(() => undefined), new Response("{}")))(new Request("http://127.0.0.1/v1/guests"), {});
    expect(takeHeaderDrift()).toEqual(["GET /guests: read every request header (a header parameter for each one it uses)"]);
  });

  it("what the real chain read, operation by operation, is what it declares", () => {
    // The suite above drove every operation: the recorder saw the environment and version headers read on each.
    for (const { method, path } of operations) {
      const read = headersRead.get(`${method} ${path}`);
      expect(read, `${method} ${path}`).toBeDefined();
      expect([...read!], `${method} ${path}`).toEqual(expect.arrayContaining(["authorization", "service-environment", "service-version"]));
      if (method === "POST") expect([...read!], `${method} ${path}`).toContain("idempotency-key");
      else expect([...read!], `${method} ${path}`).not.toContain("idempotency-key");
    }
  });
});

describe("what each operation declares", () => {
  it("errors only from its chain and its own: a read never lists card errors, 413 or 415", () => {
    const availability = doc.paths["/availability"].get.responses;
    for (const status of ["402", "409", "413", "415", "422"]) expect(availability[status], status).toBeUndefined();
    for (const { method, path, op } of operations) {
      const statuses = Object.keys(op.responses).filter((s) => !s.startsWith("2"));
      expect(statuses, `${method} ${path}`).toEqual(expect.arrayContaining(["400", "401", "429", "500", "503"]));
      if (reads(method)) for (const status of ["413", "415"]) expect(op.responses[status], `${method} ${path}`).toBeUndefined();
      // A card is refused with 402 where one is charged or put on file: a payment, a booking's guarantee.
      if (!["createPayment", "createReservation", "guaranteeReservation", "incrementAuthorization"].includes(op.operationId)) expect(op.responses["402"], `${method} ${path}`).toBeUndefined();
      // Each status's codes are codes of that status in the one table.
      for (const status of statuses) for (const code of declared(op, Number(status))) expect(errorCodes[code].status === Number(status) || (code === "parameter_invalid" && status === "400"), `${path} ${status} ${code}`).toBe(true);
    }
    expect(declared(doc.paths["/payments"].post, 402).sort()).toEqual(["card_declined", "expired_card", "incorrect_cvc", "insufficient_funds"]);
    expect(doc.paths["/payments"].post.responses["402"].content["application/json"].schema.properties.error.required).toContain("payment_id");
    // A card put on file records no payment when refused: no payment_id there.
    for (const op of [doc.paths["/reservations"].post, doc.paths["/reservations/{id}/guarantee"].post]) {
      expect(declared(op, 402).sort()).toEqual(["card_declined", "expired_card", "incorrect_cvc", "insufficient_funds"]);
      expect(op.responses["402"].content["application/json"].schema.properties.error.properties.payment_id).toBeUndefined();
    }
    expect(declared(doc.paths["/reservations"].post, 409).sort()).toEqual(["idempotency_key_in_use", "no_availability", "restriction_violated"]);
  });

  it("403 property_not_granted only where a lookup meets an OAuth grant: never on webhook endpoints and deliveries, which belong to no property", () => {
    const grantCodes = (op: Operation) => declared(op, 403).filter((c) => c === "property_not_granted");
    for (const { method, path, op } of operations) {
      const accountWide = path.startsWith("/webhook_endpoints/{id}") || path.startsWith("/deliveries/");
      // Replaying names an event, which belongs to a property.
      if (accountWide && op.operationId !== "replayWebhookEvent") expect(grantCodes(op), `${method} ${path}`).toEqual([]);
    }
    for (const id of ["getReservation", "eraseGuest", "replayWebhookEvent", "createProperty"]) {
      expect(grantCodes(operations.find((o) => o.op.operationId === id)!.op), id).toEqual(["property_not_granted"]);
    }
  });

  it("every code of the table is some operation's, except those that answer no route", () => {
    const used = new Set(operations.flatMap(({ op }) => Object.keys(op.responses).flatMap((s) => declared(op, Number(s)))));
    // No route answers these: an unknown path or method, and what Node's parser refuses before any app reads the request.
    const routeless = ["route_not_found", "method_not_allowed", "malformed_request", "headers_too_large"];
    expect([...used].sort()).toEqual((Object.keys(errorCodes) as ErrorCode[]).filter((c) => !routeless.includes(c)).sort());
  });

  it("response headers: the request id, version and rate limits on every answer; Retry-After on 429 and 503; the challenge on 401", () => {
    for (const { method, path, op } of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const names = Object.keys(response.headers ?? {});
        expect(names, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(["Service-Request-Id", "Service-Version", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]));
        if (status === "429" || status === "503") expect(names).toContain("Retry-After");
        if (status === "401") expect(names).toContain("WWW-Authenticate");
      }
    }
    expect(Object.keys(doc.paths["/payments"].get.responses["200"].headers)).toEqual(expect.arrayContaining(["Deprecation", "Link"]));
  });

  it("an example on every request body and every response body, whatever its media type (JSON, CSV, PDF, the OAuth pages)", () => {
    const media: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (typeof op !== "object" || !op.responses) continue;
        for (const [type, m] of Object.entries((op.requestBody?.content ?? {}) as Record<string, Json>)) {
          expect(m.example ?? m.examples, `${method} ${path} body ${type}`).toBeDefined();
        }
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [type, m] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
            media.push(type);
            expect(m.example ?? m.examples, `${method} ${path} ${status} ${type}`).toBeDefined();
          }
        }
      }
    }
    // Every kind of answer the API gives was looked at, not only JSON.
    expect([...new Set(media)].sort()).toEqual(["application/json", "application/pdf", "text/csv", "text/html"]);
    // A report's CSV example is its JSON example as the server writes it: the header row first.
    const csv = doc.paths["/reports/occupancy"].get.responses["200"].content["text/csv"].example;
    expect(csv.split("\r\n")[0]).toBe("date,rooms_available,rooms_sold,occupancy");
  });

  it("oauth2: authorization code with the authorize, token and refresh URLs the server serves, and the eight scopes", async () => {
    const scheme = doc.components.securitySchemes.oauth2;
    expect(scheme.type).toBe("oauth2");
    const flow = scheme.flows.authorizationCode;
    expect(flow).toMatchObject({ authorizationUrl: "/oauth/authorize", tokenUrl: "/oauth/token", refreshUrl: "/oauth/token" });
    expect(Object.keys(flow.scopes).sort()).toEqual([...scopes].sort());
    expect(scheme.description).toMatch(/PKCE/);
    // The token URL is the server's: a request without a client there is an RFC 6749 error, not a 404.
    const token = await fetch(`${h.baseUrl}${flow.tokenUrl}`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=refresh_token&refresh_token=hrt_x" });
    expect([400, 401]).toContain(token.status);
    expect((await token.json()).error).toBe("invalid_client");
  });
});
