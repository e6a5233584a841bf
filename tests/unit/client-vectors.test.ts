import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import Innkeep, * as errors from "@innkeep/node";
import { SignatureVerificationError } from "@innkeep/node";
import { backoff, send, type Transport } from "@/clients/typescript/src/request";

// The shared test vectors of clients/testdata/, which every client library's tests read too:
// webhook signatures, the retry decision table, error bodies and their classes, pagination walks.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const vectors = (name: string): any => JSON.parse(readFileSync(new URL(`../../clients/testdata/${name}`, import.meta.url), "utf8"));

type SignatureCase = { name: string; payload: string; header: string | null; secret: string; now: number; tolerance: number; expected: { valid: boolean; event_id?: string; reason?: string } };
type Decision = { name: string; answer: Answer; retry: boolean; wait?: { seconds?: number; backoff?: boolean } };
type Sequence = { name: string; method: string; max_retries: number | null; answers: Answer[]; expected: { attempts: number; result?: unknown; error?: Record<string, unknown> } };
type ErrorCase = Answer & { name: string; expected: { class: string; is_a: string[]; type: string; code: string; param: string | null; request_id: string | null; message?: string; retry_after?: number; payment_id?: string; amount?: number; currency?: string } };
type Walk = { name: string; path: string; params: Record<string, unknown>; pages: { expected_query: Record<string, string>; answer: unknown }[]; expected_ids: string[] };

type Answer = { status?: number; body?: unknown; text?: string; headers?: Record<string, string>; network_error?: boolean; timeout?: boolean };
type Seen = { url: URL; method: string; headers: Headers; body: string | undefined };

/** A `fetch` that answers the given answers in turn and records each request. */
function scripted(answers: Answer[]) {
  const seen: Seen[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push({ url: new URL(String(input)), method: init?.method ?? "GET", headers: new Headers(init?.headers), body: init?.body as string | undefined });
    const a = answers.shift() ?? { status: 200, body: {} };
    if (a.network_error) throw new TypeError("fetch failed");
    if (a.timeout) return new Promise<Response>((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const text = a.text ?? (a.body === undefined ? "" : JSON.stringify(a.body));
    return new Response(text, { status: a.status, headers: { ...(a.body === undefined ? {} : { "content-type": "application/json" }), ...a.headers } });
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

function transport(fetch: typeof globalThis.fetch, sleeps: number[], maxRetries: number): Transport {
  return {
    baseUrl: "http://innkeep.test/v1",
    fetch,
    maxRetries,
    timeout: 100,
    environment: undefined,
    version: undefined,
    token: () => "hk_test",
    refresh: undefined,
    onResponse: () => {},
    sleep: async (ms) => void sleeps.push(ms),
  };
}

afterEach(() => vi.restoreAllMocks());

describe("webhook-signatures.json", () => {
  const cases = vectors("webhook-signatures.json").cases as SignatureCase[];
  it.each(cases)("$name", async (c) => {
    const options = { now: c.now, toleranceSeconds: c.tolerance };
    const payload = new TextEncoder().encode(c.payload);
    if (c.expected.valid) {
      expect(Innkeep.webhooks.constructEvent(payload, c.header, c.secret, options).id).toBe(c.expected.event_id);
      expect((await Innkeep.webhooks.constructEventAsync(c.payload, c.header, c.secret, options)).id).toBe(c.expected.event_id);
    } else {
      let failure: unknown;
      try {
        Innkeep.webhooks.constructEvent(payload, c.header, c.secret, options);
      } catch (error) {
        failure = error;
      }
      expect(failure).toBeInstanceOf(SignatureVerificationError);
      expect((failure as SignatureVerificationError).reason).toBe(c.expected.reason);
      const asyncFailure = await Innkeep.webhooks.constructEventAsync(c.payload, c.header, c.secret, options).catch((e: unknown) => e);
      expect((asyncFailure as SignatureVerificationError).reason).toBe(c.expected.reason);
    }
  });

  it("generateTestHeader signs as the vectors do", () => {
    const valid = cases.find((c) => c.name === "valid")!;
    const t = Number(/t=(\d+)/.exec(valid.header!)![1]);
    expect(Innkeep.webhooks.generateTestHeader({ payload: valid.payload, secret: valid.secret, timestamp: t })).toBe(valid.header);
  });
});

describe("retries.json", () => {
  const table = vectors("retries.json") as { backoff: { base_ms: number; bounds: { attempt: number; max_ms: number }[] }; decisions: Decision[]; sequences: Sequence[] };

  it("backoff stays under min(cap, base·2^attempt) with full jitter", () => {
    for (const { attempt, max_ms } of table.backoff.bounds) {
      vi.spyOn(Math, "random").mockReturnValue(0.999999);
      expect(backoff(attempt)).toBeLessThan(max_ms);
      expect(backoff(attempt)).toBeGreaterThan(max_ms * 0.999);
      vi.spyOn(Math, "random").mockReturnValue(0);
      expect(backoff(attempt)).toBe(0);
    }
  });

  it.each(table.decisions)("$name", async (d) => {
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const sleeps: number[] = [];
    const { fetch, seen } = scripted([d.answer, { status: 200, body: { ok: true } }]);
    const outcome = await send(transport(fetch, sleeps, 1), { method: "POST", path: "/guests", body: { first_name: "A" } }).catch((e: unknown) => e);
    if (d.retry) {
      expect(outcome).toEqual({ ok: true });
      expect(seen).toHaveLength(2);
      expect(sleeps).toEqual([d.wait?.seconds !== undefined ? d.wait.seconds * 1000 : 0.5 * table.backoff.base_ms]);
      expect(seen[1].headers.get("idempotency-key")).toBe(seen[0].headers.get("idempotency-key"));
    } else {
      expect(outcome).toBeInstanceOf(errors.InnkeepError);
      expect(seen).toHaveLength(1);
      expect(sleeps).toEqual([]);
    }
  });

  it.each(table.sequences)("$name", async (s) => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { fetch, seen } = scripted([...s.answers]);
    const innkeep = new Innkeep({ apiKey: "hk_test", baseUrl: "http://innkeep.test", fetch, timeout: 100, ...(s.max_retries === null ? {} : { maxRetries: s.max_retries }) });
    const outcome = await innkeep.request(s.method, "/guests", s.method === "POST" ? { body: { first_name: "A" } } : {}).catch((e: unknown) => e);
    expect(seen).toHaveLength(s.expected.attempts);
    if (s.method === "POST") {
      expect(new Set(seen.map((r) => r.headers.get("idempotency-key"))).size).toBe(1);
      expect(new Set(seen.map((r) => r.body))).toEqual(new Set([JSON.stringify({ first_name: "A" })]));
    }
    if (s.expected.result) return expect(outcome).toEqual(s.expected.result);
    const e = s.expected.error!;
    expect(outcome).toBeInstanceOf(errors[e.class as keyof typeof errors] as unknown as typeof errors.InnkeepError);
    expect(outcome).toMatchObject({ status: e.status, ...(e.code ? { code: e.code } : {}), ...(e.request_id ? { requestId: e.request_id } : {}) });
  });
});

describe("errors.json", () => {
  const cases = vectors("errors.json").cases as ErrorCase[];
  it.each(cases)("$name", async (c) => {
    const { fetch } = scripted([c]);
    const error = await send(transport(fetch, [], 0), { method: "GET", path: "/reservations/res_x" }).catch((e: unknown) => e);
    const e = c.expected;
    const classOf = (name: string) => errors[name as keyof typeof errors] as unknown as typeof errors.InnkeepError;
    expect((error as Error).constructor).toBe(classOf(e.class));
    for (const parent of [...e.is_a, "InnkeepError"]) expect(error).toBeInstanceOf(classOf(parent));
    expect(error).toMatchObject({ status: c.status, type: e.type, code: e.code, param: e.param ?? undefined, requestId: e.request_id ?? undefined });
    if (e.message) expect((error as Error).message).toBe(e.message);
    if (e.retry_after !== undefined) expect((error as errors.RateLimitError).retryAfter).toBe(e.retry_after);
    if (e.payment_id) expect((error as errors.CardError).paymentId).toBe(e.payment_id);
    // Money errors' amount and currency as fields; absent from every other error.
    expect({ amount: (error as errors.InnkeepError).amount, currency: (error as errors.InnkeepError).currency }).toEqual({ amount: e.amount, currency: e.currency });
  });
});

describe("pagination.json", () => {
  const walks = vectors("pagination.json").walks as Walk[];
  it.each(walks)("$name", async (w) => {
    const { fetch, seen } = scripted(w.pages.map((p) => ({ status: 200, body: p.answer })));
    const innkeep = new Innkeep({ apiKey: "hk_test", baseUrl: "http://innkeep.test", fetch });
    const ids: string[] = [];
    for await (const item of innkeep.reservations.list(w.params as never)) ids.push((item as { id: string }).id);
    expect(ids).toEqual(w.expected_ids);
    expect(seen.map((r) => r.url.pathname)).toEqual(w.pages.map(() => `/v1${w.path}`));
    expect(seen.map((r) => Object.fromEntries(r.url.searchParams))).toEqual(w.pages.map((p) => p.expected_query));
  });
});
