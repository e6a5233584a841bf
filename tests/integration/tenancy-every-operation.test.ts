import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn } from "@/lib/dates";
import { isOriginPath } from "@/server/http/openapi-origin";
import { expectError } from "../support/assertions";
import { aimedPath, tableDigests } from "../support/every-operation";
import { startHarness, type Harness } from "../support/harness";
import { countEvents, ok, sandboxProperty, type Caller } from "../support/hotel";

// Issue 40, point 6 (b): another account's objects do not exist for a caller (contract §1, §2:
// 404 `resource_missing`, never 403, and nothing changes). stay-tenancy.test.ts tries 29 routes by
// hand; here every operation of the served document whose path names an object is tried, so an
// operation added later (invoices, groups, taxes, refunds, credit notes, webhook endpoints, the
// booking engine, a payment's increment …) is covered without a word here. Each is sent with the
// other account's ids in its path, the document's own example as its body and its required query
// parameters' examples, by a key with every scope, in the environment that holds the objects
// (sandbox) and in the other (live). Each must answer 404 `resource_missing` naming the path's
// parameter, and the database must be exactly as it was.

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Op = { method: string; path: string; op: Json };

let h: Harness;
let theirs: Caller;
let theirAccountId = "";
const ops: Op[] = [];
/** The other account's object each path's parameter names, by the collection before it (`/invoices/{id}/pdf` → an invoice). */
const byCollection: Record<string, string> = {};
let doc: Json;

/** One digest per table: any row added, removed or changed shows. */
const snapshot = () => tableDigests(h.db);

/** The path with each parameter the other account's object of its collection. */
function aimed(path: string): string {
  return aimedPath(path, byCollection);
}

const resolve = (x: Json): Json => (x?.$ref ? x.$ref.split("/").slice(1).reduce((o: Json, k: string) => o[k], doc) : x);

/** The required query parameters, each its documented example. */
function query(op: Json): string {
  const pairs = (op.parameters ?? [])
    .map(resolve)
    .filter((p: Json) => p.in === "query" && p.required)
    .map((p: Json) => {
      const example = p.example ?? p.schema?.example;
      if (example === undefined) throw new Error(`The required query parameter ${p.name} of ${op.operationId} has no example`);
      return `${p.name}=${encodeURIComponent(String(example))}`;
    });
  return pairs.length ? `?${pairs.join("&")}` : "";
}

/** The documented example of the body, or nothing for an operation that reads none. */
function body(op: Json): unknown {
  const content = op.requestBody?.content?.["application/json"];
  if (!content) return undefined;
  const example = content.example ?? content.schema?.example ?? resolve(content.schema)?.example;
  if (example === undefined) throw new Error(`${op.operationId} has no example body`);
  return example;
}

beforeAll(async () => {
  h = await startHarness();
  const other = await h.newAccount("Other Hotels");
  theirAccountId = other.account.id;
  theirs = { token: other.token, sandbox: true };
  // The other account's sandbox: the seeded hotel, and what it does not hold, made here.
  const property = await sandboxProperty(h, other.token);
  const today = todayIn(property.timezone);
  const first = async (path: string) => {
    const item = ok(await h.get(path, theirs)).data[0] as Record<string, string> | undefined;
    if (!item) throw new Error(`The other account's sandbox has nothing at ${path}`);
    return item;
  };
  const reservation = await first("/v1/reservations?status=confirmed");
  const room = await first(`/v1/rooms?property_id=${property.id}`);
  const checkedOut = await first("/v1/reservations?status=checked_out");
  const payment = await first(`/v1/payments?reservation_id=${checkedOut.id}`);
  const invoice = await first("/v1/invoices");
  const hold = ok(await h.post("/v1/inventory/holds", { property_id: property.id, room_type_id: reservation.room_type_id, from: addDays(today, 40), to: addDays(today, 41), rooms: 1 }, theirs), 201);
  const assignment = ok(await h.post("/v1/housekeeping/assignments", { property_id: property.id, date: addDays(today, 1), room_id: room.id, assignee: "Ana" }, theirs), 201);
  const tax = ok(await h.post("/v1/taxes", { property_id: property.id, name: "City tax", kind: "per_person_per_night", amount: 250 }, theirs), 201);
  const rooms = [1, 2].map(() => ({ room_type_id: reservation.room_type_id, rate_plan_id: reservation.rate_plan_id, adults: 1 }));
  const group = ok(
    await h.post("/v1/groups", { property_id: property.id, guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" }, check_in: addDays(reservation.check_in, 30), check_out: addDays(reservation.check_in, 31), rooms }, theirs),
    201,
  );
  const refund = ok(await h.post("/v1/refunds", { payment_id: payment.id, amount: 100 }, theirs), 201);
  const creditNote = ok(await h.post(`/v1/invoices/${invoice.id}/credit_notes`, { reason: "Noise", amount: 100, currency: invoice.currency ?? "USD" }, theirs), 201);
  const audit = ok(await h.post("/v1/sandbox/advance_day", {}, theirs)).audits[0];
  const endpoint = ok(await h.post("/v1/webhook_endpoints", { url: "https://hooks.example.com/innkeep", enabled_events: ["*"] }, theirs), 201);
  ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, {}, theirs), 202);
  const delivery = await first(`/v1/webhook_endpoints/${endpoint.id}/deliveries`);
  const backfill = ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/backfill`, { since: new Date(Date.now() - 3_600_000).toISOString(), until: new Date().toISOString() }, theirs), 202);
  const processor = ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: `sk_test_tenancy${Date.now()}` }, theirs), 201);
  Object.assign(byCollection, {
    properties: property.id,
    room_types: reservation.room_type_id,
    rooms: room.id,
    rate_plans: reservation.rate_plan_id,
    holds: hold.id,
    reservations: reservation.id,
    folios: reservation.folio_id,
    groups: group.id,
    guests: reservation.guest_id ?? (await first("/v1/guests")).id,
    payments: payment.id,
    refunds: refund.id,
    payment_processors: processor.id,
    assignments: assignment.id,
    taxes: tax.id,
    invoices: invoice.id,
    credit_notes: creditNote.id,
    night_audits: audit.id,
    events: (await first("/v1/events")).id,
    webhook_endpoints: endpoint.id,
    backfills: backfill.id,
    deliveries: delivery.id,
  });

  doc = ok(await h.get("/v1/openapi.json"));
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    if (isOriginPath(item) || !path.includes("{")) continue;
    for (const [method, op] of Object.entries(item)) ops.push({ method: method.toUpperCase(), path, op });
  }
}, 180_000);
afterAll(async () => h?.close());

describe("every operation that names an object in its path, with another account's ids", () => {
  it("the document's operations are all here, the newer ones too, each with an object, a body and its query", () => {
    expect(ops.length).toBeGreaterThanOrEqual(68);
    const listed = ops.map((o) => `${o.method} ${o.path}`);
    for (const expected of [
      "GET /invoices/{id}",
      "GET /invoices/{id}/pdf",
      "POST /invoices/{id}/credit_notes",
      "GET /credit_notes/{id}/pdf",
      "POST /groups/{id}/cancel",
      "PATCH /taxes/{id}",
      "GET /refunds/{id}",
      "POST /webhook_endpoints/{id}/test",
      "GET /webhook_endpoints/{id}/backfills/{backfill_id}",
      "GET /deliveries/{id}",
      "PATCH /properties/{id}/booking_engine",
      "POST /payments/{id}/increment_authorization",
      "DELETE /payment_processors/{id}",
    ]) {
      expect(listed).toContain(expected);
    }
    for (const { path, op } of ops) {
      expect(() => aimed(path), path).not.toThrow();
      expect(() => body(op), op.operationId).not.toThrow();
      expect(() => query(op), op.operationId).not.toThrow();
    }
  });

  it("the ids name real objects: the owner reads each with every GET of the list", async () => {
    const reads = ops.filter((o) => o.method === "GET");
    expect(reads.length).toBeGreaterThanOrEqual(26);
    for (const { path, op } of reads) {
      const res = await h.get(`/v1${aimed(path)}${query(op)}`, theirs);
      expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
    }
  });

  it.each([
    ["the environment that holds them (sandbox)", true],
    ["the other environment (live)", false],
  ])("in %s each answers 404 resource_missing naming its path parameter, and changes nothing", { timeout: 300_000 }, async (_, sandbox) => {
    const caller = { token: h.main.token, sandbox };
    const before = await snapshot();
    const events = await countEvents(h, theirAccountId);
    const ownEvents = await countEvents(h, h.main.account.id);
    for (const { method, path, op } of ops) {
      const res = await h.request(method, `/v1${aimed(path)}${query(op)}`, { ...caller, body: body(op) });
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(404);
      const error = expectError(res, 404, "resource_missing");
      expect(error.param, `${method} ${path}`).toBe(path.match(/\{(\w+)\}/)![1]);
      // As one that never existed: nothing of the other account shows through.
      expect(error.message).not.toContain("Other Hotels");
      expect(error.message).not.toMatch(/exists in this account/);
    }
    expect(await snapshot()).toEqual(before);
    expect(await countEvents(h, theirAccountId)).toBe(events);
    expect(await countEvents(h, h.main.account.id)).toBe(ownEvents);
  });
});
