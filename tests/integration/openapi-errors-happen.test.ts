import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isOriginPath } from "@/server/http/openapi-origin";
import { and, eq } from "drizzle-orm";
import { idempotencyKeys } from "@/db/schema";
import { scopes } from "@/server/auth/scopes";
import type { RateLimits } from "@/server/accounts/plans";
import { RateLimiter, unlimitedState, type RateState } from "@/server/http/rate-limit";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty } from "../support/hotel";

// Issue 24, item 1, the other way round: every error status the document declares for an
// operation can actually happen. Each (operation, status) is provoked here through the real HTTP
// handlers, or it is in `cannotProvoke` with the reason. The harness checks every answer against
// the document, so a provoked status is also a declared one with a declared code.

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Entry = { method: string; path: string; op: Json };

/** Declared statuses no request of a test can cause on this database, and why ("status" or "operationId status"). Keep it small. */
const cannotProvoke = (kind: string): Record<string, string> =>
  kind === "postgres"
    ? { "500": "internal_error answers an unexpected exception (a bug); no request causes one on purpose, and a lost PostgreSQL connection is a 503. On PGlite a closed database provokes it." }
    : { "503": "service_unavailable answers a lost database connection; a closed PGlite is a plain error (a 500). Provoked on PostgreSQL." };

/** Counts every request but refuses those of one account: a real 429 from the rate-limit step. */
class RefusingOneAccount extends RateLimiter {
  refused = "";
  override consume(key: string, limits: RateLimits, now = Date.now()): Promise<RateState> {
    if (this.refused && key.startsWith(`acct:${this.refused}:`)) return Promise.resolve({ limit: 1, remaining: 0, reset: Math.ceil(now / 1000) + 1, retryAfter: 1 });
    return key.startsWith("ip:") ? Promise.resolve(unlimitedState(limits, now)) : super.consume(key, limits, now);
  }
}

let h: Harness;
let doc: Json;
const limiter = new RefusingOneAccount();
const entries: Entry[] = [];
/** operationId → statuses an error answer of it came with. */
const provoked = new Map<string, Set<number>>();

beforeAll(async () => {
  h = await startHarness({ limiter });
  doc = (await h.get("/v1/openapi.json", { token: null })).json;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    if (path === "/openapi.json" || isOriginPath(item)) continue;
    for (const [method, op] of Object.entries(item)) entries.push({ method: method.toUpperCase(), path, op });
  }
});
afterAll(async () => h?.close());

const reads = (method: string) => method === "GET" || method === "DELETE";
/** The path with each parameter a well-formed id that names nothing. */
const concrete = (path: string, value = "x_doesnotexist") => `/v1${path.replace(/\{\w+\}/g, value)}`;
const errorStatuses = (op: Json) => Object.keys(op.responses).filter((s) => !s.startsWith("2")).map(Number);

type Init = { token?: string | null; headers?: Record<string, string>; rawBody?: string; body?: unknown; path?: string; sandbox?: boolean };

/** Sends a request to the operation and records the error status it answered. */
async function send(entry: Entry, init: Init = {}) {
  const body = init.rawBody === undefined && init.body === undefined && !reads(entry.method) ? {} : init.body;
  let res: Awaited<ReturnType<Harness["request"]>> | undefined;
  for (let attempt = 0; !res; attempt++) {
    try {
      res = await h.request(entry.method, init.path ?? concrete(entry.path), { ...init, body });
    } catch (error) {
      // A 413 answered before the whole body was sent can reset the socket under fetch: try again.
      if (attempt === 2 || !(error instanceof TypeError)) throw error;
    }
  }
  if (res.status >= 400) {
    expect(res.json?.error?.code, `${entry.method} ${entry.path} ${res.status}`).toEqual(expect.any(String));
    const seen = provoked.get(entry.op.operationId) ?? new Set<number>();
    provoked.set(entry.op.operationId, seen.add(res.status));
  }
  return res;
}

const entry = (operationId: string) => entries.find((e) => e.op.operationId === operationId)!;

describe("every declared error status, provoked", () => {
  it("through the chain: credentials, scope, address, environment, query, body, idempotency, rate limit", async () => {
    const scopeless = await h.keyWith([]);
    const elsewhere = await h.keyWith([...scopes], ["203.0.113.0/24"]);
    const throttled = await h.newAccount("Throttled");
    limiter.refused = throttled.account.id;
    for (const e of entries) {
      await send(e, { token: null }); // 401
      await send(e, { token: scopeless }); // 403 for an operation that needs a scope
      await send(e, { token: elsewhere }); // 403 ip_not_allowed
      await send(e, { path: `${concrete(e.path)}?zzz=1` }); // 400
      await send(e, { token: throttled.token }); // 429
      if (e.path.includes("{")) await send(e, { path: concrete(e.path, "x".repeat(65)) }); // 404
      if (reads(e.method)) continue;
      await send(e, { rawBody: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } }); // 415
      await send(e, { rawBody: JSON.stringify({ a: "x".repeat(1024 * 1024) }), headers: { "content-type": "application/json" } }); // 413
      // Body faults come before the lookup of a well-formed id: 422.
      await send(e, { body: { zzz_unknown: 1 } });
    }
  });

  it("a POST whose key is still in flight: 409 idempotency_key_in_use", async () => {
    for (const e of entries.filter((x) => x.method === "POST")) {
      const key = `in-flight-${e.op.operationId}`;
      // The operation's own example, answered and stored (a 2xx, or the 404 of an id that names nothing).
      const body = e.op.requestBody?.content["application/json"].example ?? {};
      await send(e, { headers: { "idempotency-key": key }, body });
      // What a concurrent request sees while the first runs: the same key, method, path and body, in flight.
      const scope = and(eq(idempotencyKeys.accountId, h.main.account.id), eq(idempotencyKeys.key, key));
      const [row] = await h.db.select().from(idempotencyKeys).where(scope);
      if (!row) continue; // not stored (its answer was a 409, 422 or 429): provoked otherwise below
      await h.db.update(idempotencyKeys).set({ state: "in_flight", lockedAt: new Date() }).where(scope);
      const res = await send(e, { headers: { "idempotency-key": key }, body });
      expect(res.json.error.code, `${e.method} ${e.path}`).toBe("idempotency_key_in_use");
    }
  });

  it("ids in a body or a query that name nothing: 404", async () => {
    for (const e of entries.filter((x) => !x.path.includes("{") && errorStatuses(x.op).includes(404))) {
      const fields = reads(e.method)
        ? (e.op.parameters ?? []).filter((p: Json) => p.in === "query" && /(^id|_id)$/.test(p.name)).map((p: Json) => p.name)
        : [];
      if (reads(e.method)) {
        // The operation's required query parameters from their examples, one id at a time naming nothing.
        const query = (e.op.parameters ?? []).filter((p: Json) => p.in === "query" && p.required);
        const example = (p: Json) => String(p.example ?? p.schema?.example ?? p.schema?.enum?.[0] ?? p.schema?.default ?? "1");
        for (const field of fields) {
          const values = new URLSearchParams(query.map((p: Json) => [p.name, example(p)]));
          values.set(field, "x_doesnotexist");
          const res = await send(e, { path: `${concrete(e.path)}?${values}` });
          expect(res.status, `${e.op.operationId} ?${values}`).toBe(404);
        }
        continue;
      }
      const example = e.op.requestBody?.content["application/json"].example ?? {};
      const missing = Object.fromEntries(Object.entries(example).map(([k, v]) => [k, /_id$/.test(k) ? "x_doesnotexist" : v]));
      const res = await send(e, { body: missing, sandbox: e.path.startsWith("/sandbox/") });
      expect(res.status, `${e.method} ${e.path} ${JSON.stringify(missing)}: ${res.text}`).toBe(404);
    }
  });

  it("an operation's own refusals: a declined card, a change its object's state forbids", async () => {
    const sandbox = { sandbox: true };
    const property = await sandboxProperty(h, h.main.token);
    const [cancelled] = ok(await h.get(`/v1/reservations?status=cancelled&property_id=${property.id}&limit=1`, sandbox)).data;
    const [confirmed] = ok(await h.get(`/v1/reservations?status=confirmed&property_id=${property.id}&limit=1`, sandbox)).data;
    const refused = async (e: Entry, path: string, body: unknown, status: number) => {
      const res = await send(e, { path, body, ...sandbox });
      expect(res.status, `${e.method} ${path}: ${res.text}`).toBe(status);
    };
    await refused(entry("updateReservation"), `/v1/reservations/${cancelled.id}`, { notes: "Late arrival" }, 409);
    const card = { type: "card", number: "4000000000000002", exp_month: 12, exp_year: 2030, cvc: "123" };
    await refused(entry("createPayment"), "/v1/payments", { reservation_id: confirmed.id, amount: 100, payment_method: card }, 402);

    const room = ok(await h.post("/v1/rooms", { room_type_id: confirmed.room_type_id, number: "9901" }, sandbox), 201);
    ok(await h.post(`/v1/rooms/${room.id}/retire`, {}, sandbox));
    await refused(entry("updateRoom"), `/v1/rooms/${room.id}`, { floor: 9 }, 409);

    const [open] = ok(await h.get(`/v1/rooms?property_id=${property.id}&limit=1`, sandbox)).data;
    const assignment = ok(await h.post("/v1/housekeeping/assignments", { property_id: property.id, room_id: open.id, date: confirmed.check_in, assignee: "maria@harbor-hotel.example" }, sandbox), 201);
    ok(await h.patch(`/v1/housekeeping/assignments/${assignment.id}`, { status: "in_progress" }, sandbox));
    ok(await h.patch(`/v1/housekeeping/assignments/${assignment.id}`, { status: "done" }, sandbox));
    await refused(entry("updateAssignment"), `/v1/housekeeping/assignments/${assignment.id}`, { status: "pending" }, 409);
  });

  it("with the database gone: 503 service_unavailable (PostgreSQL), 500 internal_error (PGlite)", async () => {
    await h.stopDatabase();
    for (const e of entries) await send(e);
  });

  it("each declared error status was provoked, or cannot be and says why", () => {
    const missing: string[] = [];
    for (const e of entries) {
      for (const status of errorStatuses(e.op)) {
        if (provoked.get(e.op.operationId)?.has(status)) continue;
        const table = cannotProvoke(h.kind);
        if (table[`${e.op.operationId} ${status}`] ?? table[String(status)]) continue;
        missing.push(`${e.op.operationId} ${status}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
