import { connect } from "node:net";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guests, idempotencyKeys, reservations } from "@/db/schema";
import { scopes } from "@/server/auth/scopes";
import { parseProxyTrust } from "@/server/proxy-trust";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { registerClient } from "../support/oauth";

// Malformed requests found by the fuzzers and by hand (issue 26, point 4): each gets the
// contract's error, never a 5xx, and changes nothing.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const rows = async () => ({
  guests: Number((await h.db.select({ n: count() }).from(guests))[0].n),
  reservations: Number((await h.db.select({ n: count() }).from(reservations))[0].n),
  keys: Number((await h.db.select({ n: count() }).from(idempotencyKeys))[0].n),
});

const json = { "content-type": "application/json" };

/** A POST whose body is the given bytes, as they are (fetch would re-encode a string as UTF-8). */
async function postBytes(path: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  const res = await fetch(`${h.baseUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${h.main.token}`, "content-type": "application/json", ...headers },
    body: Buffer.from(bytes),
  });
  return { status: res.status, headers: res.headers, json: (await res.json()) as { error: { code: string; message: string; param?: string; request_id: string } } };
}

/** Raw bytes on a socket, for requests Node's HTTP parser refuses before any app sees them. */
function rawExchange(request: Buffer | string): Promise<string> {
  const url = new URL(h.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.on("error", reject);
  });
}

describe("nesting", () => {
  it("4,000 levels of nesting with an Idempotency-Key: 400 invalid_json naming the limit, nothing stored", async () => {
    const before = await rows();
    const deep = `{"first_name":"Ana","last_name":"Lima","email":"ana@example.com","extra":${"[".repeat(4000)}${"]".repeat(4000)}}`;
    for (const headers of [{ "idempotency-key": "deep-1" }, {}] as Array<Record<string, string>>) {
      const res = await postBytes("/v1/guests", new TextEncoder().encode(deep), headers);
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe("invalid_json");
      expect(res.json.error.message).toContain("32 levels");
      expect(res.headers.get("service-request-id")).toMatch(/^req_/);
    }
    expect(await rows()).toEqual(before);
  });

  it("32 levels are read (and then judged by the operation's schema), 33 are not", async () => {
    const nested = (levels: number) => `{"first_name":"Ana","last_name":"Lima","email":"ana@example.com","x":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`;
    // The object itself is level 1: 32 levels in all reach the schema, which refuses the unknown field.
    expectError(await h.post("/v1/guests", undefined, { rawBody: nested(32), headers: json }), 422, "parameter_unknown");
    expectError(await h.post("/v1/guests", undefined, { rawBody: nested(33), headers: json }), 400, "invalid_json");
  });
});

describe("text that is not UTF-8", () => {
  const cases: Array<[string, number[]]> = [
    ["an invalid byte (Ana\\xff)", [0xff]],
    ["an overlong encoding of '/'", [0xc0, 0xaf]],
    ["an encoded UTF-16 surrogate", [0xed, 0xa0, 0x80]],
    ["a sequence cut short", [0xe2, 0x82]],
  ];
  for (const [what, bytes] of cases) {
    it(`${what}: 400 invalid_json, never stored as U+FFFD`, async () => {
      const before = await rows();
      const head = new TextEncoder().encode('{"first_name":"Ana');
      const tail = new TextEncoder().encode('","last_name":"Lima","email":"ana.utf8@example.com"}');
      const res = await postBytes("/v1/guests", new Uint8Array([...head, ...bytes, ...tail]), { "idempotency-key": `utf8-${bytes.join("-")}` });
      expect(res.status).toBe(400);
      expect(res.json.error).toMatchObject({ code: "invalid_json", message: "The request body is not valid UTF-8." });
      expect(await rows()).toEqual(before);
    });
  }

  it("still reads correct multi-byte UTF-8", async () => {
    const res = await postBytes("/v1/guests", new TextEncoder().encode('{"first_name":"Zoë","last_name":"Ñúñez 山田","email":"zoe.utf8@example.com"}'));
    expect(res.status).toBe(201);
    expect((res.json as unknown as { first_name: string; last_name: string })).toMatchObject({ first_name: "Zoë", last_name: "Ñúñez 山田" });
  });
});

describe("e-mail lengths (RFC 5321)", () => {
  const guest = (email: string) => ({ first_name: "Ana", last_name: "Lima", email });

  it("takes a 64-character local part and 63-character labels", async () => {
    expect((await h.post("/v1/guests", guest(`${"a".repeat(64)}@example.com`))).status).toBe(201);
    expect((await h.post("/v1/guests", guest(`ana@${"b".repeat(63)}.example.com`))).status).toBe(201);
  });

  it("refuses a 65-character local part, a 64-character label and 255 characters in all, changing nothing", async () => {
    const before = await rows();
    for (const email of [`${"a".repeat(65)}@example.com`, `ana@${"b".repeat(64)}.example.com`, `ana@${Array.from({ length: 5 }, () => "c".repeat(60)).join(".")}.com`]) {
      expectError(await h.post("/v1/guests", guest(email)), 422, "parameter_invalid", "email");
    }
    expect(await rows()).toEqual(before);
  });
});

describe("__proto__", () => {
  it("a metadata key __proto__ is refused with 422 naming it, not silently dropped", async () => {
    const before = await rows();
    const rawBody = '{"first_name":"Ana","last_name":"Lima","email":"ana.proto@example.com","metadata":{"__proto__":{"admin":"yes"}}}';
    const error = expectError(await h.post("/v1/guests", undefined, { rawBody, headers: { ...json, "idempotency-key": "proto-1" } }), 422, "parameter_invalid", "metadata.__proto__");
    expect(error.message).toContain("__proto__");
    expect(await rows()).toEqual(before);
  });
});

describe("requests Node's parser refuses", () => {
  it("headers over 16 KB: 431 with the contract's JSON error and a request id", async () => {
    const answer = await rawExchange(`GET /v1/properties HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toMatch(/\r\nservice-request-id: req_\w+\r\n/i);
    expect(answer).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "headers_too_large", request_id: expect.stringMatching(/^req_/) });
  });

  it("raw non-ASCII in the URL: 400 malformed_request with a JSON body, not an empty answer", async () => {
    const answer = await rawExchange(Buffer.concat([Buffer.from("GET /v1/guests?q="), Buffer.from("Zoë", "utf8"), Buffer.from(" HTTP/1.1\r\nHost: x\r\n\r\n")]));
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
    expect(body.error).toMatchObject({ type: "invalid_request_error", code: "malformed_request" });
    expect(answer).toMatch(/\r\nservice-request-id: req_\w+\r\n/i);
  });
});

describe("/oauth/token and /oauth/revoke are rate limited", () => {
  let limited: Harness;
  beforeAll(async () => {
    limited = await startHarness({
      // Addresses come from X-Forwarded-For here (the test's proxy is on loopback), so one test can speak from many.
      trustProxy: parseProxyTrust("loopback"),
      oauthLimits: { failuresByAddress: { perSecond: null, perMinute: 5, perDay: null }, client: { perSecond: null, perMinute: 8, perDay: null } },
    });
  });
  afterAll(async () => limited?.close());

  const token = (from: string, form: Record<string, string>, path = "/oauth/token") =>
    fetch(`${limited.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": from },
      body: new URLSearchParams(form).toString(),
    });

  it("per address: after five failed requests in the minute the sixth is 429 in OAuth's error format with Retry-After", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await token("198.51.100.10", { grant_type: "refresh_token", refresh_token: "hrt_nothing", client_id: `app_nobody${i}` }));
    expect(answers.slice(0, 5).every((r) => r.status !== 429)).toBe(true);
    const refused = answers[5];
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(await refused.json()).toEqual({ error: "too_many_requests", error_description: expect.stringContaining("retry after") });
    // Malformed bodies count too, and revocation shares the address's allowance.
    expect((await token("198.51.100.10", {}, "/oauth/revoke")).status).toBe(429);
    // Another address is not held back by this one.
    expect((await token("198.51.100.11", { grant_type: "refresh_token", refresh_token: "hrt_nothing", client_id: "app_nobody" })).status).toBe(400);
  });

  it("per client: one client's requests from many addresses stop at its own limit", async () => {
    const client = await registerClient(limited, { scopes: [...scopes] });
    const statuses = [];
    for (let i = 0; i < 9; i++) {
      const res = await token(`203.0.113.${i + 1}`, { grant_type: "refresh_token", refresh_token: "hrt_nothing", client_id: client.id, client_secret: client.secret ?? "" });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 8).every((s) => s !== 429)).toBe(true);
    expect(statuses[8]).toBe(429);
  });
});
