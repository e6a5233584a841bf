import { count } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guests } from "@/db/schema";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
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

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  let proxied: Harness;
  beforeAll(async () => {
    proxied = await startHarness({ trustProxy: true });
  });
  afterAll(async () => proxied?.close());

  it("takes the client address from the left-most X-Forwarded-For entry", async () => {
    const tenOnly = await proxied.keyWith([...scopes], ["10.0.0.0/8"]);
    const get = (xff?: string) => proxied.get("/v1/guests", { token: tenOnly, headers: xff ? { "x-forwarded-for": xff } : {} });
    expect((await get("10.1.2.3")).status).toBe(200);
    expect((await get("10.1.2.3, 127.0.0.1")).status).toBe(200);
    expect((await get("::ffff:10.1.2.3")).status).toBe(200);
    expectError(await get("192.168.0.1"), 403, "ip_not_allowed");
    expectError(await get("127.0.0.1, 10.1.2.3"), 403, "ip_not_allowed");
    expectError(await get("not-an-address"), 403, "ip_not_allowed");
    // No header: the socket's address (127.0.0.1) decides.
    expectError(await get(), 403, "ip_not_allowed");
  });

  it("matches an IPv4-mapped client against an IPv4 range", async () => {
    const loopback = await proxied.keyWith([...scopes], ["127.0.0.1/32"]);
    const res = await proxied.get("/v1/guests", { token: loopback, headers: { "x-forwarded-for": "::ffff:127.0.0.1" } });
    expect(res.status).toBe(200);
    expectStandardHeaders(res);
  });
});
