import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness";

// Issue 24: the OAuth endpoints are paths of the OpenAPI document, at the origin (not under /v1),
// form-encoded, with RFC 6749 errors. Each answer of /oauth/token, /oauth/revoke and the RFC 8414
// metadata is driven here and compared with what the document declares for it. (/oauth/authorize
// is the dashboard's consent page, a Next.js page: the browser specs drive it.)

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let h: Harness;
let doc: Json;
beforeAll(async () => {
  // Small per-address failure limits, so that a 429 is reached in a few requests.
  h = await startHarness({ oauthLimits: { failuresByAddress: { perSecond: 1000, perMinute: 12, perDay: 1000 }, client: { perSecond: null, perMinute: null, perDay: null } } });
  doc = (await h.get("/v1/openapi.json", { token: null })).json;
});
afterAll(async () => h?.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Sends a request at the origin and checks the answer against the document's operation. */
async function answered(path: string, method: "get" | "post", init: { body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${h.baseUrl}${path}`, { method: method.toUpperCase(), ...init });
  const text = await res.text();
  const op = doc.paths[path][method];
  const declared = op.responses[String(res.status)];
  expect(declared, `${method} ${path} answered ${res.status}: ${text}`).toBeDefined();
  const json = text ? JSON.parse(text) : undefined;
  const schema = declared.content?.["application/json"]?.schema;
  if (schema?.properties?.error) {
    expect(schema.properties.error.enum, `${path} ${res.status}`).toContain(json.error);
    expect(json.error_description).toEqual(expect.any(String));
  }
  for (const [name, header] of Object.entries(declared.headers ?? {}) as [string, Json][]) if (header.required) expect(res.headers.get(name), `${path} ${res.status} ${name}`).not.toBeNull();
  if (!declared.content) expect(text).toBe("");
  return { status: res.status, json, headers: res.headers };
}

describe("the OAuth endpoints in the document", () => {
  it("are paths at the origin, form-encoded, beside the /v1 operations", () => {
    for (const path of ["/oauth/authorize", "/oauth/token", "/oauth/revoke", "/.well-known/oauth-authorization-server"]) {
      expect(doc.paths[path]?.servers?.[0]?.url, path).toBe("/");
    }
    expect(Object.keys(doc.paths["/oauth/token"].post.requestBody.content)).toEqual(["application/x-www-form-urlencoded"]);
    expect(Object.keys(doc.paths["/oauth/revoke"].post.requestBody.content)).toEqual(["application/x-www-form-urlencoded"]);
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode;
    expect([flow.authorizationUrl, flow.tokenUrl]).toEqual(["/oauth/authorize", "/oauth/token"]);
    const authorize = doc.paths["/oauth/authorize"].get.parameters.map((p: Json) => p.name);
    expect(authorize).toEqual(["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"]);
  });

  it("the metadata answers what its schema says", async () => {
    const { status, json } = await answered("/.well-known/oauth-authorization-server", "get");
    expect(status).toBe(200);
    const schema = doc.paths["/.well-known/oauth-authorization-server"].get.responses["200"].content["application/json"].schema;
    for (const key of schema.required) expect(json[key], key).toBeDefined();
    expect(Object.keys(json).every((k) => k in schema.properties)).toBe(true);
    expect(json.grant_types_supported).toEqual(schema.properties.grant_types_supported.items.enum);
    expect(json.scopes_supported).toEqual(schema.properties.scopes_supported.items.enum);
  });

  it("token and revoke: each refusal is a declared status with a declared error", async () => {
    const json = { "content-type": "application/json" };
    const urlencoded = { "content-type": "application/x-www-form-urlencoded" };
    const basic = { ...urlencoded, authorization: `Basic ${Buffer.from("app_nothing:wrong").toString("base64")}` };
    expect((await answered("/oauth/token", "post", { body: "{}", headers: json })).json.error).toBe("invalid_request");
    expect((await answered("/oauth/token", "post", { body: form({ grant_type: "password" }), headers: urlencoded })).json.error).toBe("unsupported_grant_type");
    expect((await answered("/oauth/token", "post", { body: form({ grant_type: "refresh_token", refresh_token: "hrt_x", client_id: "app_nothing" }), headers: urlencoded })).json.error).toBe("invalid_client");
    const challenged = await answered("/oauth/token", "post", { body: form({ grant_type: "refresh_token", refresh_token: "hrt_x" }), headers: basic });
    expect([challenged.status, challenged.json.error, challenged.headers.get("www-authenticate")]).toEqual([401, "invalid_client", 'Basic realm="innkeep"']);

    expect((await answered("/oauth/revoke", "post", { body: "token=x", headers: json })).status).toBe(400);
    expect((await answered("/oauth/revoke", "post", { body: form({ token: "hrt_x" }), headers: basic })).status).toBe(401);
    expect((await answered("/oauth/revoke", "post", { body: form({ token: "hrt_x", client_id: "app_nothing" }), headers: urlencoded })).json.error).toBe("invalid_client");

    // The address's failures spent: 429 with Retry-After, on both.
    let limited: Awaited<ReturnType<typeof answered>> | undefined;
    for (let i = 0; i < 12 && limited?.status !== 429; i++) limited = await answered("/oauth/token", "post", { body: form({ grant_type: "password" }), headers: urlencoded });
    expect(limited?.status).toBe(429);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await answered("/oauth/revoke", "post", { body: form({ token: "x" }), headers: urlencoded })).status).toBe(429);
  });
});
