import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOriginPath } from "@/server/http/openapi-origin";
import { errorCodes } from "@/server/errors";
import { createRestApi } from "@/server/api/app";
import { RateLimiter } from "@/server/http/rate-limit";
import { apiVersions } from "@/server/http/versions";
import { startHarness, type Harness } from "../support/harness";
import { undocumented } from "../support/openapi-validator";

// The generated OpenAPI document describes exactly the routes the app serves (contract, preamble).

type Operation = { operationId?: string; security?: unknown[]; parameters?: { name: string; in: string; schema?: { example?: string } }[]; responses: Record<string, unknown> };
type Document = { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, any> } }; // eslint-disable-line @typescript-eslint/no-explicit-any

const methods = ["get", "post", "put", "patch", "delete"];
let h: Harness;
let doc: Document;

beforeAll(async () => {
  h = await startHarness();
  const res = await h.get("/v1/openapi.json", { token: null });
  expect(res.status).toBe(200);
  doc = res.json;
});
afterAll(async () => h?.close());

/** Every (METHOD, /path/{param}) the document describes. */
const documented = () =>
  Object.entries(doc.paths).filter(([, item]) => !isOriginPath(item)).flatMap(([path, item]) => Object.keys(item).filter((m) => methods.includes(m)).map((m) => `${m.toUpperCase()} ${path}`));

/** Every route of the `/v1` Hono app, minus the middleware and the catch-all (`/*`). */
function served() {
  const api = createRestApi({ db: h.db, limiter: new RateLimiter(), trustProxy: false });
  return api.routes.filter((r) => r.path !== "/*" && r.method !== "ALL").map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
}

describe("GET /v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document, served without credentials", async () => {
    const res = await h.get("/v1/openapi.json", { token: null });
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("service-request-id")).toMatch(/^req_/);
    // Counted by address without a credential, at the Starter limits: the headers are there too.
    expect(res.headers.get("x-ratelimit-limit")).toBe("500");
    expect(Number(res.headers.get("x-ratelimit-remaining"))).toBeLessThan(500);
    expect(Number(res.headers.get("x-ratelimit-reset"))).toBeGreaterThan(Date.now() / 1000 - 1);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(apiVersions as readonly string[]).toContain(doc.info.version);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
  });

  it("describes every route the app serves, and nothing it does not", () => {
    const routes = served();
    expect(routes.length).toBeGreaterThan(0);
    expect(new Set(routes).size).toBe(routes.length);
    expect(new Set(documented())).toEqual(new Set(routes));
  });

  it("every documented operation answers on its path (not route_not_found, not method_not_allowed)", async () => {
    for (const entry of documented()) {
      const [method, template] = entry.split(" ");
      const operation = doc.paths[template][method.toLowerCase()];
      const path = template.replace(/\{(\w+)\}/g, (_, name) => operation.parameters?.find((p) => p.name === name)?.schema?.example ?? "x");
      const res = await h.request(method, `/v1${path}`, { body: method === "GET" || method === "DELETE" ? undefined : {} });
      expect(res.status, `${entry}: ${res.text}`).not.toBe(405);
      expect(res.json?.error?.code, entry).not.toBe("route_not_found");
    }
  });

  it("each operation has a unique id, a bearer or OAuth requirement (unless public) and the error envelope", () => {
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      if (isOriginPath(item)) continue;
      for (const [method, op] of Object.entries(item)) {
        expect(op.operationId, `${method} ${path}`).toBeTruthy();
        expect(ids.has(op.operationId!)).toBe(false);
        ids.add(op.operationId!);
        if (path === "/openapi.json") {
          expect(op.security).toEqual([]);
          continue;
        }
        const [bearer, oauth] = op.security as Record<string, string[]>[];
        expect(Object.keys(bearer)).toEqual(["bearerAuth"]);
        expect(oauth).toEqual({ oauth2: bearer.bearerAuth });
        const success = Object.keys(op.responses).filter((s) => s.startsWith("2"));
        expect(success).toHaveLength(1);
        for (const status of ["400", "401", "403", "429", "500"]) {
          const schema = (op.responses[status] as any).content["application/json"].schema; // eslint-disable-line @typescript-eslint/no-explicit-any
          expect(schema.properties.error.required, `${method} ${path} ${status}`).toEqual(expect.arrayContaining(["type", "code", "message", "request_id"]));
        }
      }
    }
  });

  it("the error codes its operations declare, with their types, are those of server/errors.ts", () => {
    const byCode = new Map<string, Set<string>>();
    for (const item of Object.values(doc.paths).filter((i) => !isOriginPath(i))) {
      for (const op of Object.values(item)) {
        for (const response of Object.values(op.responses) as any[]) { // eslint-disable-line @typescript-eslint/no-explicit-any
          const error = response.content?.["application/json"]?.schema?.properties?.error;
          if (!error) continue;
          expect(error.required).toEqual(expect.arrayContaining(["type", "code", "message", "request_id"]));
          for (const code of error.properties.code.enum) byCode.set(code, new Set(error.properties.type.enum));
        }
      }
    }
    for (const [code, types] of byCode) expect([...types], code).toContain(errorCodes[code as keyof typeof errorCodes].type);
    // Only the answers of no route (404 route_not_found, 405, and what Node's parser refuses) belong to no operation.
    expect(new Set([...byCode.keys(), "route_not_found", "method_not_allowed", "malformed_request", "headers_too_large"])).toEqual(new Set(Object.keys(errorCodes)));
  });
});

// Issue #14, point 4: every answer is one the document describes. The harness checks each answer
// against the served document (tests/support/openapi-validator.ts); these show the check bites.
describe("answers and the document", () => {
  it("the three reports declare text/csv beside JSON, with the very columns the CSV carries", async () => {
    const property = (await h.get("/v1/properties", { sandbox: true })).json.data[0];
    for (const kind of ["occupancy", "revenue", "production"]) {
      const response = doc.paths[`/reports/${kind}`].get.responses["200"] as { description: string; content: Record<string, { schema: { description?: string } }> };
      expect(Object.keys(response.content).sort()).toEqual(["application/json", "text/csv"]);
      const res = await h.get(`/v1/reports/${kind}?property_id=${property.id}&from=2026-01-01&to=2026-01-03&format=csv&group_by=rate_plan`.replace(kind === "production" ? "" : "&group_by=rate_plan", ""), { sandbox: true });
      expect(res.status, res.text).toBe(200);
      const header = res.text.split("\r\n")[0].split(",");
      for (const column of header) expect(response.content["text/csv"].schema.description, `${kind}: ${column}`).toContain(`\`${column}\``);
      expect(response.description).toContain("text/csv");
    }
  });

  it("an answer off the document is reported: an undeclared media type, status or body", async () => {
    const list = { object: "list", data: [], has_more: false, next_cursor: null, prev_cursor: null };
    expect(await undocumented({ method: "GET", path: "/v1/guests?limit=2", status: 200, contentType: "application/json; charset=utf-8", text: JSON.stringify(list) })).toEqual([]);
    expect((await undocumented({ method: "GET", path: "/v1/guests", status: 200, contentType: "text/csv", text: "a,b\r\n" }))[0]).toMatch(/media type 'text\/csv' not in the document/);
    expect((await undocumented({ method: "GET", path: "/v1/guests", status: 201, contentType: "application/json", text: JSON.stringify(list) }))[0]).toMatch(/status not in the document/);
    const drift = await undocumented({ method: "GET", path: "/v1/guests", status: 200, contentType: "application/json", text: JSON.stringify({ ...list, has_more: "no" }) });
    expect(drift.join("\n")).toMatch(/has_more/);
    const badGuest = { id: "gst_1", object: "guest", livemode: true, first_name: "A", last_name: "B", email: "a@b.example", phone: null, created_at: "yesterday", updated_at: "2026-01-01T00:00:00Z" };
    expect((await undocumented({ method: "GET", path: "/v1/guests/gst_1", status: 200, contentType: "application/json", text: JSON.stringify(badGuest) })).join("\n")).toMatch(/created_at/);
    // The CSV of a report is declared.
    expect(await undocumented({ method: "GET", path: "/v1/reports/occupancy?format=csv", status: 200, contentType: "text/csv; charset=utf-8", text: "date\r\n" })).toEqual([]);
  });
});

// Issue #14, point 10: each rule the server enforces is stated in the document, so a generated
// client and a fuzzer know it; the document's verdict and the server's agree.
describe("rules the server enforces are in the document", () => {
  /** A request body's schema: written into its operation, in its input shape (issue #14, point 2). */
  const body = (path: string, method = "post") => {
    const paths = doc.paths as unknown as Record<string, Record<string, { requestBody: { content: Record<string, { schema: any }> } }>>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const operation = paths[path] ?? paths[`/v1${path}`];
    return operation[method].requestBody.content["application/json"].schema;
  };

  it("e-mail: the documented pattern refuses what the server refuses (0@com), and accepts what it accepts", async () => {
    const email = body("/guests").properties.email;
    expect(email.format).toBe("email");
    const pattern = new RegExp(email.pattern);
    for (const address of ["0@com", "ana@localhost", "a@b.c", "ana.rule@example.com", "a.b+c@mail.example.co", "x@1.io", "@example.com", "ana@exa_mple.com"]) {
      const res = await h.post("/v1/guests", { first_name: "E", last_name: "Mail", email: address }, { sandbox: true });
      expect([201, 422], res.text).toContain(res.status);
      expect(pattern.test(address), `${address}: the document says ${pattern.test(address)}, the server answered ${res.status}`).toBe(res.status === 201);
    }
  });

  it("webhook url is a uri, http(s); a charge amount is never 0; metadata keys are 1–40 characters, at most 20", () => {
    expect(body("/webhook_endpoints").properties.url).toMatchObject({ format: "uri", pattern: expect.stringContaining("://") });
    expect(body("/folios/{id}/charges").properties.amount).toMatchObject({ type: "integer", not: { const: 0 } });
    expect(body("/reservations").properties.metadata).toMatchObject({ maxProperties: 20, propertyNames: { minLength: 1, maxLength: 40 } });
  });

  it("trimming and the refusal of NUL and unpaired surrogates are stated, and hold", async () => {
    const info = (doc as unknown as { info: { description: string } }).info.description;
    expect(info).toMatch(/trimmed/);
    expect(info).toMatch(/NUL/);
    expect(info).toMatch(/unpaired/);
    expect((await h.post("/v1/guests", { first_name: "   ", last_name: "T", email: "trim@example.com" }, { sandbox: true })).status).toBe(422);
    expect((await h.post("/v1/guests", { first_name: "A\u0000", last_name: "T", email: "nul@example.com" }, { sandbox: true })).status).toBe(422);
    expect((await h.post("/v1/guests", { first_name: "A\ud800", last_name: "T", email: "half@example.com" }, { sandbox: true })).status).toBe(422);
  });
});
