import { afterEach, describe, expect, it, vi } from "vitest";
import Innkeep, { ApiError, ConflictError, ConnectionError, IdempotencyError, InvalidRequestError, TimeoutError } from "@innkeep/node";
import { backoff } from "@/clients/typescript/src/request";

// The client's retry rules, with a scripted `fetch` (the option integrators use too): which
// answers are retried, how long it waits, and that a POST keeps one Idempotency-Key throughout.
// The same rules against the real server are in tests/integration/client-api.test.ts.

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | Error | "hang";
const error = (status: number, type: string, code: string) => ({ status, body: { error: { type, code, message: code, request_id: "req_x" } } });

function scripted(steps: Step[]) {
  const calls: { url: string; method: string; headers: Headers; body?: string }[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(input), method: init?.method ?? "GET", headers: new Headers(init?.headers), body: init?.body as string | undefined });
    const step = steps.shift() ?? { status: 200, body: {} };
    if (step === "hang") {
      return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    }
    if (step instanceof Error) throw step;
    return new Response(step.body === undefined ? "" : JSON.stringify(step.body), {
      status: step.status,
      headers: { "content-type": "application/json", "service-request-id": "req_x", ...step.headers },
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}
const client = (fetch: typeof globalThis.fetch, extra: ConstructorParameters<typeof Innkeep>[0] = {}) => new Innkeep({ apiKey: "hk_test", baseUrl: "http://innkeep.test", fetch, ...extra });
const guest = { first_name: "A", last_name: "B", email: "a@b.co" };

afterEach(() => vi.restoreAllMocks());

describe("retries", () => {
  it("retries network errors, 408, 409 idempotency_key_in_use, 429 and 5xx with one Idempotency-Key", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { fetch, calls } = scripted([new TypeError("fetch failed"), { status: 408 }, error(409, "idempotency_error", "idempotency_key_in_use"), error(503, "api_error", "service_unavailable"), { status: 201, body: { id: "gst_1" } }]);
    const result = await client(fetch, { maxRetries: 4 }).guests.create(guest);
    expect(result).toEqual({ id: "gst_1" });
    const keys = calls.map((c) => c.headers.get("idempotency-key"));
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(calls.every((c) => c.body === JSON.stringify(guest))).toBe(true);
  });

  it("gives up after maxRetries (default 2) with the last answer's typed error; per call overrides", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const five = () => error(500, "api_error", "internal_error");
    const a = scripted([five(), five(), five(), five()]);
    await expect(client(a.fetch).guests.list()).rejects.toBeInstanceOf(ApiError);
    expect(a.calls).toHaveLength(3);
    const b = scripted([five(), five()]);
    await expect(client(b.fetch).guests.list({}, { maxRetries: 0 })).rejects.toMatchObject({ status: 500, code: "internal_error", requestId: "req_x" });
    expect(b.calls).toHaveLength(1);
    const c = scripted([new TypeError("socket hang up"), new TypeError("socket hang up"), new TypeError("socket hang up")]);
    await expect(client(c.fetch).guests.list()).rejects.toBeInstanceOf(ConnectionError);
    expect(c.calls).toHaveLength(3);
  });

  it("never retries what a retry cannot fix: 4xx, conflicts, a reused key", async () => {
    for (const answer of [
      error(422, "invalid_request_error", "parameter_invalid"),
      error(409, "conflict_error", "no_availability"),
      error(422, "idempotency_error", "idempotency_key_reused"),
      error(400, "invalid_request_error", "invalid_json"),
    ]) {
      const { fetch, calls } = scripted([answer, { status: 200, body: {} }]);
      const failure = await client(fetch).guests.create(guest).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(answer.body.error.code === "no_availability" ? ConflictError : answer.body.error.type === "idempotency_error" ? IdempotencyError : InvalidRequestError);
      expect(calls).toHaveLength(1);
    }
  });

  it("waits Retry-After when the server sends one, else exponential backoff with full jitter", async () => {
    const { fetch } = scripted([{ ...error(429, "rate_limit_exceeded", "too_many_requests"), headers: { "retry-after": "1" } }, { status: 200, body: { object: "list", data: [], has_more: false, next_cursor: null, prev_cursor: null } }]);
    const started = Date.now();
    await client(fetch).guests.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);

    vi.spyOn(Math, "random").mockReturnValue(0.999999);
    expect([0, 1, 2, 3, 4, 10].map((n) => Math.round(backoff(n)))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(backoff(5)).toBe(0);
  });

  it("a timeout is its own error, retried like a network error", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { fetch, calls } = scripted(["hang", "hang"]);
    await expect(client(fetch, { timeout: 50, maxRetries: 1 }).guests.list()).rejects.toBeInstanceOf(TimeoutError);
    expect(calls).toHaveLength(2);
  });
});

describe("options", () => {
  it("sends the credential, environment and version; exposes lastResponse", async () => {
    const { fetch, calls } = scripted([{ status: 200, body: { id: "res_1" }, headers: { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "99", "x-ratelimit-reset": "1700000000" } }]);
    const innkeep = client(fetch, { environment: "sandbox", version: "2025-09-01" });
    await innkeep.reservations.retrieve("res_1");
    expect(calls[0].url).toBe("http://innkeep.test/v1/reservations/res_1");
    expect(calls[0].headers.get("authorization")).toBe("Bearer hk_test");
    expect(calls[0].headers.get("service-environment")).toBe("sandbox");
    expect(calls[0].headers.get("service-version")).toBe("2025-09-01");
    expect(calls[0].headers.get("idempotency-key")).toBeNull();
    expect(innkeep.lastResponse).toMatchObject({ status: 200, requestId: "req_x", rateLimit: { limit: 100, remaining: 99, reset: 1_700_000_000 } });
  });

  it("refreshes an expired OAuth access token once through the refreshToken hook", async () => {
    const { fetch, calls } = scripted([error(401, "authentication_error", "token_expired"), { status: 200, body: { id: "gst_1" } }]);
    const refreshToken = vi.fn(async () => "hat_new");
    const innkeep = new Innkeep({ accessToken: "hat_old", refreshToken, baseUrl: "http://innkeep.test", fetch });
    expect(await innkeep.guests.retrieve("gst_1")).toEqual({ id: "gst_1" });
    expect(refreshToken).toHaveBeenCalledTimes(1);
    expect(calls.map((c) => c.headers.get("authorization"))).toEqual(["Bearer hat_old", "Bearer hat_new"]);
  });

  it("encodes path parameters and query values", async () => {
    const { fetch, calls } = scripted([{ status: 200, body: {} }, { status: 200, body: { object: "list", data: [], has_more: false, next_cursor: null, prev_cursor: null } }]);
    const innkeep = client(fetch);
    await innkeep.webhookEndpoints.retrieveBackfill("we_1", "bf/2");
    await innkeep.reservations.list({ status: "confirmed", check_in_from: "2026-01-01" });
    expect(calls[0].url).toBe("http://innkeep.test/v1/webhook_endpoints/we_1/backfills/bf%2F2");
    expect(calls[1].url).toBe("http://innkeep.test/v1/reservations?status=confirmed&check_in_from=2026-01-01");
  });
});

// Issue 40, point 4: a client without a key says so where it is made (as the Python, Go and PHP
// clients do), not as a 401 on every call; the message names the variable the examples read.
describe("a client without credentials", () => {
  it.each([{}, { apiKey: undefined }, { apiKey: "" }, { accessToken: "  " }])("is refused at construction: %j", (options) => {
    expect(() => new Innkeep(options)).toThrow(/^No API key: .*INNKEEP_API_KEY/);
  });

  it("an access token alone is a credential", () => {
    expect(() => new Innkeep({ accessToken: "hat_x" })).not.toThrow();
  });
});
