import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guests } from "@/db/schema";
import { expectError, expectStandardHeaders } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// Limits per account and environment (contract §5), with accounts whose limits are tiny.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const rate = (res: { headers: Headers }) => ({
  limit: Number(res.headers.get("x-ratelimit-limit")),
  remaining: Number(res.headers.get("x-ratelimit-remaining")),
  reset: Number(res.headers.get("x-ratelimit-reset")),
});

describe("per-minute limit", () => {
  it("counts down, then answers 429 with Retry-After and the headers", async () => {
    const { account, token } = await h.newAccount("Three a minute", "scale", { perSecond: 1000, perMinute: 3 });
    // The minute window opens with the first request, somewhere between sending it and its answer.
    const sent = Math.floor(Date.now() / 1000);
    const answers = [await h.get("/v1/guests", { token })];
    const answered = Math.ceil(Date.now() / 1000);
    answers.push(await h.get("/v1/guests", { token }), await h.get("/v1/guests", { token }));
    answers.forEach((res, i) => {
      expect(res.status).toBe(200);
      expect(rate(res)).toMatchObject({ limit: 3, remaining: 2 - i });
      expect(rate(res).reset).toBeGreaterThanOrEqual(sent + 60);
      expect(rate(res).reset).toBeLessThanOrEqual(answered + 60);
    });

    const refused = await h.get("/v1/guests", { token });
    const error = expectError(refused, 429, "too_many_requests", null);
    expect(error.type).toBe("rate_limit_exceeded");
    const retryAfter = refused.headers.get("retry-after");
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    expect(error.message).toBe(`Rate limit exceeded. Retry after ${retryAfter} seconds.`);
    expect(rate(refused)).toMatchObject({ limit: 3, remaining: 0 });

    // A refused write does nothing, whatever else is wrong with it.
    const post = await h.post("/v1/guests", { first_name: "No", last_name: "Way", email: "limited@example.com" }, { token, headers: { "idempotency-key": "limited" } });
    expectError(post, 429, "too_many_requests");
    expect(post.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expectError(await h.request("POST", "/v1/guests", { token, rawBody: "{", headers: { "content-type": "application/json" } }), 429, "too_many_requests");
    const live = and(eq(guests.accountId, account.id), eq(guests.livemode, true));
    expect(Number((await h.db.select({ n: count() }).from(guests).where(live))[0].n)).toBe(0);
  });

  it("sandbox is counted apart from live, and other accounts are untouched", async () => {
    const { token } = await h.newAccount("Two a minute", "scale", { perSecond: 1000, perMinute: 2 });
    for (let i = 0; i < 2; i++) expect((await h.get("/v1/guests", { token })).status).toBe(200);
    expectError(await h.get("/v1/guests", { token }), 429, "too_many_requests");

    const sandbox = await h.get("/v1/guests", { token, sandbox: true });
    expect(sandbox.status).toBe(200);
    expect(rate(sandbox)).toMatchObject({ limit: 2, remaining: 1 });

    const main = await h.get("/v1/guests");
    expect(main.status).toBe(200);
    expectStandardHeaders(main);
    expect(rate(main).limit).toBe(5000); // the Scale plan's per-minute limit
  });

  it("a second key of the same account shares the account's count", async () => {
    const { account, token } = await h.newAccount("Shared", "scale", { perSecond: 1000, perMinute: 2 });
    const second = await h.keyWith(["reservations:read"], [], account.id);
    expect((await h.get("/v1/guests", { token })).status).toBe(200);
    expect((await h.get("/v1/guests", { token: second })).status).toBe(200);
    expectError(await h.get("/v1/guests", { token }), 429, "too_many_requests");
    expectError(await h.get("/v1/guests", { token: second }), 429, "too_many_requests");
  });
});

describe("daily cap", () => {
  it("resets at the next UTC midnight, and says so", async () => {
    const { token } = await h.newAccount("Two a day", "scale", { perSecond: 1000, perMinute: 1000, perDay: 2 });
    const midnight = () => Math.ceil(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) / 1000) + 86_400;
    const before = midnight();
    for (const remaining of [1, 0]) {
      const res = await h.get("/v1/guests", { token });
      expect(rate(res)).toMatchObject({ limit: 1000, remaining });
    }
    const refused = await h.get("/v1/guests", { token });
    const after = midnight();
    expectError(refused, 429, "too_many_requests");
    expect([before, after]).toContain(rate(refused).reset);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(refused.json.error.message).toBe(`Rate limit exceeded. Retry after ${retryAfter} seconds.`);
  });
});
