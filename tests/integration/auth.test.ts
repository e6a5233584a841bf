import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guests } from "@/db/schema";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { parseProxyTrust } from "@/server/proxy-trust";
import { RateLimiter } from "@/server/http/rate-limit";
import { expectError, expectStandardHeaders } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// Bearer tokens, scopes and IP allow-lists (contract §3), from outside the app.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const guestCount = async () => Number((await h.db.select({ n: count() }).from(guests))[0].n);

describe("401 authentication_error", () => {
  it("missing_token: no Authorization header, with a Bearer challenge and rate-limit headers", async () => {
    const res = await h.get("/v1/guests", { token: null });
    expectError(res, 401, "missing_token", null);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    // Unauthenticated callers are counted by address, at the Starter plan's limits.
    expect(res.headers.get("x-ratelimit-limit")).toBe("500");
  });

  it("missing_token comes before anything else: unknown routes, bad bodies", async () => {
    expectError(await h.get("/v1/nothing", { token: null }), 401, "missing_token");
    expectError(await h.request("POST", "/v1/guests", { token: null, rawBody: "{", headers: { "content-type": "application/json" } }), 401, "missing_token");
  });

  it("invalid_token: a token that is no key of ours", async () => {
    for (const token of ["hk_garbage", "hk_", "hat_whatever", "not-a-key", h.main.token.slice(0, -1), `${h.main.token}x`]) {
      const res = await h.get("/v1/guests", { token });
      expectError(res, 401, "invalid_token", null);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    }
  });

  it("invalid_token: an Authorization header not of the form 'Bearer <token>'", async () => {
    const malformed = [
      `Basic ${Buffer.from("user:pass").toString("base64")}`,
      "Bearer",
      `Bearer ${h.main.token} extra`,
      `Token ${h.main.token}`,
      `Bearer${h.main.token}`,
      h.main.token,
    ];
    for (const authorization of malformed) {
      const res = await h.get("/v1/guests", { token: null, headers: { authorization } });
      expectError(res, 401, "invalid_token", null);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    }
    // The scheme is case-insensitive (RFC 7235).
    expect((await h.get("/v1/guests", { token: null, headers: { authorization: `bearer ${h.main.token}` } })).status).toBe(200);
  });

  it("token_revoked: a key that worked stops working once revoked", async () => {
    const key = await createApiKey({ db: h.db, input: { accountId: h.main.account.id, scopes: [...scopes] } });
    expect((await h.get("/v1/guests", { token: key.key })).status).toBe(200);
    expect(await revokeApiKey({ db: h.db, accountId: h.main.account.id, id: key.id })).toBe(true);
    const res = await h.get("/v1/guests", { token: key.key });
    expectError(res, 401, "token_revoked", null);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    const before = await guestCount();
    expectError(await h.post("/v1/guests", { first_name: "A", last_name: "B", email: "revoked@example.com" }, { token: key.key }), 401, "token_revoked");
    expect(await guestCount()).toBe(before);
    // Another account cannot revoke it (nor learn that it exists).
    const other = await h.newAccount("Other");
    const mine = await createApiKey({ db: h.db, input: { accountId: h.main.account.id, scopes: ["rooms:read"] } });
    expect(await revokeApiKey({ db: h.db, accountId: other.account.id, id: mine.id })).toBe(false);
    expect((await h.get("/v1/properties", { token: mine.key })).status).toBe(200);
  });
});

describe("403 permission_error", () => {
  it("insufficient_scope names the scope the operation needs", async () => {
    const roomsOnly = await h.keyWith(["rooms:read"]);
    expect((await h.get("/v1/properties", { token: roomsOnly })).status).toBe(200);
    let error = expectError(await h.get("/v1/guests", { token: roomsOnly }), 403, "insufficient_scope", null);
    expect(error.message).toContain("reservations:read");

    const readOnly = await h.keyWith(["reservations:read"]);
    expect((await h.get("/v1/guests", { token: readOnly })).status).toBe(200);
    const before = await guestCount();
    error = expectError(await h.post("/v1/guests", { first_name: "A", last_name: "B", email: "scope@example.com" }, { token: readOnly }), 403, "insufficient_scope");
    expect(error.message).toContain("reservations:write");
    expect(await guestCount()).toBe(before);
  });

  it("a write scope does not imply its read scope", async () => {
    const writeOnly = await h.keyWith(["reservations:write"]);
    const created = await h.post("/v1/guests", { first_name: "W", last_name: "O", email: "write-only@example.com" }, { token: writeOnly });
    expect(created.status).toBe(201);
    const error = expectError(await h.get(`/v1/guests/${created.json.id}`, { token: writeOnly }), 403, "insufficient_scope");
    expect(error.message).toContain("reservations:read");
    expectError(await h.get("/v1/properties", { token: await h.keyWith(["rooms:write"]) }), 403, "insufficient_scope");
  });

  it("ip_not_allowed: the socket address outside the key's allow-list", async () => {
    const tenOnly = await h.keyWith([...scopes], ["10.0.0.0/8"]);
    const res = await h.get("/v1/guests", { token: tenOnly });
    const error = expectError(res, 403, "ip_not_allowed", null);
    expect(error.message).toContain("127.0.0.1");
    // Without TRUST_PROXY, X-Forwarded-For is only a header: it cannot talk the way in.
    expectError(await h.get("/v1/guests", { token: tenOnly, headers: { "x-forwarded-for": "10.1.2.3" } }), 403, "ip_not_allowed");
    const v6Only = await h.keyWith([...scopes], ["2001:db8::/32"]);
    expectError(await h.get("/v1/guests", { token: v6Only }), 403, "ip_not_allowed");
  });

  it("lets the allowed address in, in IPv4, bare and IPv4-mapped IPv6 forms", async () => {
    for (const allowed of [["127.0.0.1/32"], ["127.0.0.1"], ["127.0.0.0/8"], ["::ffff:127.0.0.1"], ["::ffff:127.0.0.1/128"], ["::ffff:127.0.0.0/104"], ["10.0.0.0/8", "127.0.0.1/32"]]) {
      const token = await h.keyWith([...scopes], allowed);
      const res = await h.get("/v1/guests", { token });
      expect(res.status, `${allowed.join(" ")}: ${res.text}`).toBe(200);
      // The forwarded address is ignored without TRUST_PROXY, so this still comes from 127.0.0.1.
      expect((await h.get("/v1/guests", { token, headers: { "x-forwarded-for": "10.9.9.9" } })).status).toBe(200);
    }
  });
});

/**
 * A reverse proxy as nginx's `$proxy_add_x_forwarded_for` behaves: it passes the caller's
 * X-Forwarded-For on and appends the address it saw the caller at (`sees`, standing in for a
 * client on another network, since every test connection comes from 127.0.0.1).
 */
async function appendingProxy(target: string, sees: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const incoming = req.headers["x-forwarded-for"];
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string" && name !== "host" && name !== "connection") headers[name] = value;
    headers["x-forwarded-for"] = incoming ? `${incoming}, ${sees}` : sees;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers });
    res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("behind one trusted proxy that appends to X-Forwarded-For (TRUST_PROXY=1)", () => {
  let proxied: Harness;
  const proxies: Array<{ close(): Promise<void> }> = [];
  beforeAll(async () => {
    proxied = await startHarness({ trustProxy: parseProxyTrust("1") });
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.close()));
    await proxied?.close();
  });
  const through = async (sees: string) => {
    const proxy = await appendingProxy(proxied.baseUrl, sees);
    proxies.push(proxy);
    return (token: string, xff?: string) => fetch(`${proxy.url}/v1/guests`, { headers: { authorization: `Bearer ${token}`, ...(xff ? { "x-forwarded-for": xff } : {}) } });
  };

  it("takes the address the proxy appended, so a caller cannot choose its own", async () => {
    const tenOnly = await proxied.keyWith([...scopes], ["10.0.0.0/8"]);
    const fromTen = await through("10.1.2.3");
    expect((await fromTen(tenOnly)).status).toBe(200);
    // Whatever the caller wrote before the proxy's entry proves nothing, either way.
    expect((await fromTen(tenOnly, "192.168.0.1")).status).toBe(200);
    const fromElsewhere = await through("192.168.7.9");
    const spoofed = await fromElsewhere(tenOnly, "10.1.2.3");
    expect(spoofed.status).toBe(403);
    expect(((await spoofed.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "ip_not_allowed", message: expect.stringContaining("192.168.7.9") });
    expect((await fromElsewhere(tenOnly, "10.1.2.3, 10.4.4.4")).status).toBe(403);
  });

  it("matches an IPv4-mapped client against an IPv4 range", async () => {
    const loopback = await proxied.keyWith([...scopes], ["127.0.0.1/32"]);
    const res = await proxied.get("/v1/guests", { token: loopback, headers: { "x-forwarded-for": "::ffff:127.0.0.1" } });
    expect(res.status).toBe(200);
    expectStandardHeaders(res);
  });

  it("counts anonymous requests by the appended address: a made-up X-Forwarded-For buys no fresh allowance", async () => {
    const limiter = new RateLimiter();
    const limited = await startHarness({ trustProxy: parseProxyTrust("1"), limiter });
    try {
      const proxy = await appendingProxy(limited.baseUrl, "10.8.8.8");
      proxies.push(proxy);
      // The anonymous per-second allowance is 50: 100 requests at once, each with a different
      // made-up address. Counted by the made-up addresses, all 100 would be answered 401. (One
      // after the other they took 5.8 s on a loaded machine, and the window started afresh.)
      const answers = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => (await fetch(`${proxy.url}/v1/guests`, { headers: { "x-forwarded-for": `172.16.0.${i}` } })).status),
      );
      expect(answers.every((status) => status === 401 || status === 429)).toBe(true);
      expect(answers.filter((status) => status === 429).length).toBeGreaterThan(0);
      expect(answers.filter((status) => status === 401).length).toBeGreaterThanOrEqual(50);
    } finally {
      await limited.close();
    }
  });
});

describe("behind two proxies, trusted by address (TRUST_PROXY=loopback, 10.0.0.0/8)", () => {
  let proxied: Harness;
  beforeAll(async () => {
    proxied = await startHarness({ trustProxy: parseProxyTrust("loopback, 10.0.0.0/8") });
  });
  afterAll(async () => proxied?.close());

  it("walks from the right past every trusted proxy to the first address that is not one", async () => {
    const key = await proxied.keyWith([...scopes], ["203.0.113.0/24"]);
    const get = (xff: string) => proxied.get("/v1/guests", { token: key, headers: { "x-forwarded-for": xff } });
    // client → edge proxy (10.0.0.5 saw 203.0.113.7) → this proxy on loopback.
    expect((await get("203.0.113.7, 10.0.0.5")).status).toBe(200);
    expect((await get("198.51.100.1, 203.0.113.7, 10.0.0.5")).status).toBe(200);
    expectError(await get("203.0.113.7, 198.51.100.1, 10.0.0.5"), 403, "ip_not_allowed");
  });
});

describe("TRUST_PROXY's forms", () => {
  it("reads 0 and nothing as no proxy, a number as hops, a list as addresses; refuses true and nonsense", () => {
    expect(parseProxyTrust(undefined)).toBe(false);
    expect(parseProxyTrust("0")).toBe(false);
    const two = parseProxyTrust("2");
    expect(two && [two("1.2.3.4", 0), two("1.2.3.4", 1), two("1.2.3.4", 2)]).toEqual([true, true, false]);
    const listed = parseProxyTrust("loopback, 10.0.0.0/8");
    expect(listed && [listed("127.0.0.1", 0), listed("10.9.9.9", 1), listed("11.0.0.1", 1)]).toEqual([true, true, false]);
    expect(() => parseProxyTrust("true")).toThrow(/every hop/);
    expect(() => parseProxyTrust("10.0.0.0/99")).toThrow();
  });
});
