import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestPreferences, guests } from "@/db/schema";
import { maxBodyBytes } from "@/server/http/body";
import { apiVersions, latestApiVersion } from "@/server/http/versions";
import { expectError, expectStandardHeaders } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// The error envelope and headers of contract §1–2, one code at a time, over real HTTP.

let h: Harness;
let guestId: string;

beforeAll(async () => {
  h = await startHarness();
  const created = await h.post("/v1/guests", { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" });
  guestId = created.json.id;
});
afterAll(async () => h?.close());

/** Live guests: the sandbox starts with the seeded hotel's. */
const guestCount = async () => Number((await h.db.select({ n: count() }).from(guests).where(eq(guests.livemode, true)))[0].n);
const valid = { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" };

/** A request whose body `fetch` sends as given, with no Content-Type of its own making. */
async function send(method: string, path: string, body: BodyInit | undefined, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.baseUrl}${path}`, { method, body, headers: { authorization: `Bearer ${h.main.token}`, ...headers }, duplex: "half" } as RequestInit);
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

describe("headers on every response", () => {
  it("a success carries the request id, the version and the three rate-limit headers", async () => {
    const res = await h.get("/v1/guests");
    expect(res.status).toBe(200);
    expectStandardHeaders(res);
    const again = await h.get("/v1/guests");
    expect(again.headers.get("service-request-id")).not.toBe(res.headers.get("service-request-id"));
  });

  it("echoes the account's pinned version, or the one the request asks for", async () => {
    expect((await h.get("/v1/guests")).headers.get("service-version")).toBe(latestApiVersion);
    for (const version of apiVersions) {
      const res = await h.get("/v1/guests", { headers: { "service-version": version } });
      expect(res.status).toBe(200);
      expect(res.headers.get("service-version")).toBe(version);
    }
  });
});

describe("400 invalid_request_error", () => {
  it("invalid_json: a body that does not parse", async () => {
    for (const raw of ['{"first_name":', "{'a': 1}", "undefined", '{"a":1}}']) {
      const res = await h.request("POST", "/v1/guests", { rawBody: raw, headers: { "content-type": "application/json" } });
      expectError(res, 400, "invalid_json", null);
    }
    expect(await guestCount()).toBe(1);
  });

  it("invalid_environment: Service-Environment other than live or sandbox", async () => {
    for (const value of ["staging", "LIVE", "Sandbox", "test"]) {
      const res = await h.get("/v1/guests", { headers: { "service-environment": value } });
      expectError(res, 400, "invalid_environment", "Service-Environment");
    }
    expect((await h.get("/v1/guests", { headers: { "service-environment": "live" } })).status).toBe(200);
  });

  it("invalid_version: a Service-Version that is not one of ours", async () => {
    for (const value of ["2024-01-01", "latest", "2025-09-01x", "1"]) {
      const res = await h.get("/v1/guests", { headers: { "service-version": value } });
      const { message } = expectError(res, 400, "invalid_version", "Service-Version");
      // The refusal lists the versions there are (docs/api-conventions.md names them), so the
      // integrator who pinned a wrong one can read the right one off the error.
      expect(message).toContain(`'${value}'`);
      for (const version of ["2025-03-01", "2025-06-01", "2025-09-01"]) expect(message).toContain(version);
    }
  });

  it("parameter_invalid in the query string is a 400 naming the parameter", async () => {
    expectError(await h.get("/v1/guests?limit=abc"), 400, "parameter_invalid", "limit");
    expectError(await h.get(`/v1/guests?email=${"a".repeat(321)}`), 400, "parameter_invalid", "email");
    expectError(await h.get("/v1/guests?colour=blue"), 400, "parameter_invalid", "colour");
    // An operation without query parameters refuses any.
    expectError(await h.get(`/v1/guests/${guestId}?expand=all`), 400, "parameter_invalid", "expand");
  });
});

describe("401, 403 and 404 around the handler", () => {
  it("resource_missing: an id that names nothing", async () => {
    const res = await h.get("/v1/guests/gst_doesnotexist");
    const error = expectError(res, 404, "resource_missing", "id");
    expect(error.message).toContain("gst_doesnotexist");
    expectError(await h.get("/v1/properties/prop_doesnotexist"), 404, "resource_missing", "id");
    expectError(await h.get("/v1/guests/gst_doesnotexist/preferences"), 404, "resource_missing", "id");
    expectError(await h.patch("/v1/guests/gst_doesnotexist", { first_name: "X" }), 404, "resource_missing", "id");
    // An id too long to be ours, or holding a NUL, still names nothing: 404, not a validation error.
    expectError(await h.get(`/v1/guests/gst_${"x".repeat(200)}`), 404, "resource_missing", "id");
    expectError(await h.get("/v1/guests/gst_%00abc"), 404, "resource_missing", "id");
  });

  it("route_not_found: unknown paths, and a trailing slash on a known one", async () => {
    expectError(await h.get("/v1/nothing-here"), 404, "route_not_found", null);
    expectError(await h.get(`/v1/guests/${guestId}/nothing`), 404, "route_not_found", null);
    expectError(await h.post("/v1/guests/", valid), 404, "route_not_found", null);
    // Regression: this was a 405 telling a GET to use GET.
    expectError(await h.get("/v1/guests/"), 404, "route_not_found", null);
    expect(await guestCount()).toBe(1);
  });

  it("method_not_allowed: a known path with another method, with Allow", async () => {
    const cases: [string, string, string][] = [
      ["DELETE", "/v1/guests", "GET, POST"],
      ["PUT", `/v1/guests/${guestId}`, "GET, PATCH"],
      ["POST", `/v1/guests/${guestId}/preferences`, "GET, PUT, PATCH"],
      ["DELETE", "/v1/properties/prop_x", "GET, PATCH"],
      ["POST", "/v1/openapi.json", "GET"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await h.request(method, path, { body: method === "DELETE" ? undefined : valid });
      expectError(res, 405, "method_not_allowed", null);
      expect(res.headers.get("allow")).toBe(allow);
    }
    expect(await guestCount()).toBe(1);
  });
});

describe("bodies", () => {
  it("request_too_large: over 1 MiB, declared or streamed", async () => {
    const big = JSON.stringify({ ...valid, notes: "x".repeat(maxBodyBytes) });
    expectError(await h.request("POST", "/v1/guests", { rawBody: big, headers: { "content-type": "application/json" } }), 413, "request_too_large", null);

    // Chunked, without Content-Length: the limit holds while reading.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.slice(i, i + 64 * 1024));
        controller.close();
      },
    });
    const streamed = await send("POST", "/v1/guests", stream, { "content-type": "application/json" });
    expectError(streamed, 413, "request_too_large", null);
    expect(await guestCount()).toBe(1);
  });

  it("exactly 1 MiB is still read (the limit is not off by one)", async () => {
    const head = JSON.stringify({ ...valid, pad: "" });
    const body = head.replace('"pad":""', `"pad":"${"x".repeat(maxBodyBytes - head.length)}"`);
    expect(Buffer.byteLength(body)).toBe(maxBodyBytes);
    const res = await h.request("POST", "/v1/guests", { rawBody: body, headers: { "content-type": "application/json" } });
    expectError(res, 422, "parameter_unknown", "pad");
  });

  it("unsupported_content_type: anything but application/json", async () => {
    const json = JSON.stringify(valid);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "application/jsonp", "application/xml"]) {
      expectError(await send("POST", "/v1/guests", json, { "content-type": type }), 415, "unsupported_content_type", "Content-Type");
    }
    // No Content-Type at all (a byte body gets none from fetch).
    expectError(await send("POST", "/v1/guests", new TextEncoder().encode(json)), 415, "unsupported_content_type", "Content-Type");
    expect(await guestCount()).toBe(1);
    const withCharset = await send("POST", "/v1/guests", json, { "content-type": "application/json; charset=utf-8" });
    expect(withCharset.status).toBe(201);
  });

  it("parameter_missing: a required body field absent, with its name", async () => {
    const before = await guestCount();
    expectError(await h.post("/v1/guests", { first_name: "A", email: "missing@example.com" }), 422, "parameter_missing", "last_name");
    expectError(await h.post("/v1/guests", { first_name: "A", last_name: "B" }), 422, "parameter_missing", "email");
    // No body at all: the body itself is missing (no single field at fault), never read as {}.
    const empty = await h.request("POST", "/v1/guests");
    expectError(empty, 422, "parameter_missing", null);
    expect(empty.json.error.message).toContain("body");
    expect(await guestCount()).toBe(before);
  });

  it("parameter_invalid in a body is a 422 with the dotted path", async () => {
    const before = await guestCount();
    expectError(await h.post("/v1/guests", { ...valid, first_name: 5 }), 422, "parameter_invalid", "first_name");
    expectError(await h.post("/v1/guests", { ...valid, email: "not-an-email" }), 422, "parameter_invalid", "email");
    expectError(await h.post("/v1/guests", { ...valid, phone: "call me" }), 422, "parameter_invalid", "phone");
    expectError(await h.put(`/v1/guests/${guestId}/preferences`, { room: { floor: "middle" } }), 422, "parameter_invalid", "room.floor");
    expectError(await h.put(`/v1/guests/${guestId}/preferences`, { allergies: ["nuts", ""] }), 422, "parameter_invalid", "allergies.1");
    // A body that is JSON but not an object: no single parameter is at fault.
    expectError(await h.post("/v1/guests", [valid]), 422, "parameter_invalid", null);
    expectError(await h.post("/v1/guests", null), 422, "parameter_invalid", null);
    expect(await guestCount()).toBe(before);
    expect(await h.db.select().from(guestPreferences)).toEqual([]);
  });

  it("parameter_unknown: a field the operation does not take, top-level or nested", async () => {
    expectError(await h.post("/v1/guests", { ...valid, nickname: "Amazing" }), 422, "parameter_unknown", "nickname");
    expectError(await h.put(`/v1/guests/${guestId}/preferences`, { room: { colour: "red" } }), 422, "parameter_unknown", "room.colour");
    expectError(await h.patch(`/v1/guests/${guestId}/preferences`, { loyalty: { status: "gold" } }), 422, "parameter_unknown", "loyalty.status");
    expect(await h.db.select().from(guestPreferences)).toEqual([]);
  });

  it("text the database cannot hold is a parameter error, never a 500", async () => {
    // Regression: NUL characters and unpaired surrogates reached PostgreSQL and came back as 500.
    const before = await guestCount();
    expectError(await h.post("/v1/guests", { ...valid, first_name: "Gr\u0000ace" }), 422, "parameter_invalid", "first_name");
    expectError(await h.post("/v1/guests", { ...valid, last_name: "Hop\ud800per" }), 422, "parameter_invalid", "last_name");
    expectError(await h.patch(`/v1/guests/${guestId}/preferences`, { room: { notes: "quiet\u0000" } }), 422, "parameter_invalid", "room.notes");
    expectError(await h.put(`/v1/guests/${guestId}/preferences`, { allergies: ["ok", "\udc00"] }), 422, "parameter_invalid", "allergies.1");
    expectError(await h.get("/v1/guests?email=a%00b"), 400, "parameter_invalid", "email");
    expectError(await h.get("/v1/guests/gst_%00"), 404, "resource_missing", "id");
    expect(await guestCount()).toBe(before);
    const [ada] = await h.db.select().from(guests).where(eq(guests.id, guestId));
    expect(ada.firstName).toBe("Ada");
    expect(await h.db.select().from(guestPreferences)).toEqual([]);
  });
});

describe("when the database is gone", () => {
  let down: Harness;
  beforeAll(async () => {
    down = await startHarness();
    await down.stopDatabase();
  });
  afterAll(async () => down?.close());

  it("answers an opaque 5xx envelope, never a stack trace", async () => {
    const res = await down.get("/v1/guests");
    // postgres.js reports the ended connection (503, retry); a closed PGlite is just an error (500).
    if (down.kind === "postgres") {
      expectError(res, 503, "service_unavailable", null);
      expect(res.headers.get("retry-after")).toBe("1");
    } else {
      expectError(res, 500, "internal_error", null);
    }
    expect(res.json.error.message).toMatch(/quote the request id|temporarily unavailable/);
    expect(res.text).not.toMatch(/PGlite|CONNECTION|postgres|\.ts:\d+/i);
  });
});
