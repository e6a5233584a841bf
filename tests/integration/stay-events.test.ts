import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, events, reservations } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { apiVersions } from "@/server/http/versions";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, countEvents, eventsFor, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Events of issue #3: every change that names an event writes exactly one, in the change's
// transaction; a refused change writes none. The envelope follows the specification.

let h: Harness;
let caller: Caller;
let accountId: string;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let t: RoomTypeSetup;
const pinned = apiVersions[0];
const d = (n: number): IsoDate => addDays(hotel.today, n);

/** Runs a change and answers how many events of each type it wrote. */
async function written<T>(change: () => Promise<T>): Promise<{ result: T; counts: Record<string, number> }> {
  const ids = async () => (await h.db.select({ id: events.id, type: events.type }).from(events).where(eq(events.accountId, accountId)));
  const seen = new Set((await ids()).map((e) => e.id));
  const result = await change();
  const counts: Record<string, number> = {};
  for (const e of (await ids()).filter((x) => !seen.has(x.id))) counts[e.type] = (counts[e.type] ?? 0) + 1;
  return { result, counts };
}

beforeAll(async () => {
  h = await startHarness();
  // An account pinned to an older version than the newest: events carry the pinned one.
  const account = await h.newAccount("Evented Hotels");
  await h.db.update(accounts).set({ apiVersion: pinned }).where(eq(accounts.id, account.account.id));
  expect(pinned).not.toBe(apiVersions[apiVersions.length - 1]);
  caller = { token: account.token };
  accountId = account.account.id;
  hotel = await liveHotel(h, accountId, "Europe/Lisbon");
});
afterAll(async () => h?.close());

describe("which changes write which events", () => {
  it("a room type writes room_type.created; each room writes room.created and one inventory.updated from today on", async () => {
    const { result: type, counts } = await written(async () => ok(await h.post("/v1/room_types", { property_id: hotel.propertyId, code: "EV", name: "Evented", max_occupancy: 2 }, caller), 201));
    expect(counts).toEqual({ "room_type.created": 1 });
    const room = await written(async () => ok(await h.post("/v1/rooms", { room_type_id: type.id, number: "E1" }, caller), 201));
    expect(room.counts).toEqual({ "room.created": 1, "inventory.updated": 1 });
    const [event] = await eventsFor(h, accountId, "inventory.updated", (o) => o.room_type_id === type.id);
    expect(event.object).toEqual({ object: "inventory_range", property_id: hotel.propertyId, room_type_id: type.id, from: hotel.today, to: null });
    expect(event.propertyId).toBe(hotel.propertyId);
  });

  it("rate plans write rate_plan.created or rate_plan.updated beside one rate.updated; daily rates one rate.updated", async () => {
    const type = ok(await h.post("/v1/room_types", { property_id: hotel.propertyId, code: "EV2", name: "Evented 2", max_occupancy: 2 }, caller), 201);
    const plan = await written(async () => ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: "EVP", name: "Evented", room_type_ids: [type.id] }, caller), 201));
    expect(plan.counts).toEqual({ "rate_plan.created": 1, "rate.updated": 1 });
    const rates = await written(async () => ok(await h.post(`/v1/rate_plans/${plan.result.id}/rates`, { room_type_id: type.id, from: d(0), to: d(3), amount: 100 }, caller)));
    expect(rates.counts).toEqual({ "rate.updated": 1 });
    const [event] = await eventsFor(h, accountId, "rate.updated", (o) => o.object === "rate_calendar" && o.rate_plan_id === plan.result.id);
    expect(event.object).toMatchObject({ rate_plan_id: plan.result.id, room_type_id: type.id, from: d(0), to: d(3) });
    const patched = await written(async () => ok(await h.patch(`/v1/rate_plans/${plan.result.id}`, { name: "Renamed" }, caller)));
    expect(patched.counts).toEqual({ "rate_plan.updated": 1, "rate.updated": 1 });
    // Refused: no event.
    const refused = await written(async () => h.post(`/v1/rate_plans/${plan.result.id}/rates`, { room_type_id: type.id, from: d(5), to: d(6), stop_sell: true }, caller));
    expect(refused.result.status).toBe(422);
    expect(refused.counts).toEqual({});
  });

  it("holds write one inventory.updated when made and one when released; a refused hold none", async () => {
    t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, days: 30 });
    const hold = await written(async () => ok(await h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(5), to: d(7), rooms: 1 }, caller), 201));
    expect(hold.counts).toEqual({ "inventory.updated": 1 });
    const range = { object: "inventory_range", property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(5), to: d(7) };
    expect((await eventsFor(h, accountId, "inventory.updated", (o) => o.room_type_id === t.roomTypeId && o.from === d(5))).map((e) => e.object)).toEqual([range]);
    const refused = await written(async () => h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(5), to: d(7), rooms: 2 }, caller));
    expect(refused.result.status).toBe(409);
    expect(refused.counts).toEqual({});
    const release = await written(async () => ok(await h.del(`/v1/inventory/holds/${hold.result.id}`, caller)));
    expect(release.counts).toEqual({ "inventory.updated": 1 });
  });

  it("a booking writes reservation.created, inventory.updated and, for a new guest, guest.created", async () => {
    const first = await written(async () => ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, d(2), d(4), { guest: { first_name: "Eve", last_name: "Vent", email: "eve@example.com" } }), caller), 201));
    expect(first.counts).toEqual({ "reservation.created": 1, "inventory.updated": 1, "guest.created": 1 });
    const r = first.result;
    const [created] = await eventsFor(h, accountId, "reservation.created", (o) => o.id === r.id);
    expect(created.object).toEqual(ok(await h.get(`/v1/reservations/${r.id}`, caller))); // the full resource
    const [range] = await eventsFor(h, accountId, "inventory.updated", (o) => o.room_type_id === t.roomTypeId && o.from === d(2));
    expect(range.object).toEqual({ object: "inventory_range", property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(2), to: d(4) });
    const [guest] = await eventsFor(h, accountId, "guest.created", (o) => o.id === r.guest.id);
    expect(guest.object).toMatchObject({ object: "guest", id: r.guest.id, email: "eve@example.com" });
    const again = await written(async () => ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, d(2), d(3), { guest: { first_name: "Eve", last_name: "Vent", email: "EVE@example.com" } }), caller), 201));
    expect(again.counts).toEqual({ "reservation.created": 1, "inventory.updated": 1 });
  });

  it("refused bookings write nothing, whatever the reason", async () => {
    const base = bookingBody({ propertyId: hotel.propertyId, ...t }, d(2), d(4), { guest: { first_name: "No", last_name: "Body", email: "nobody@example.com" } });
    const attempts = [
      { body: { ...base, check_in: d(3) }, status: 201 }, // takes the last room of night 3
      { body: base, status: 409 }, // no availability on night 3
      { body: { ...base, adults: 5 }, status: 422 },
      { body: { ...base, check_in: d(-1) }, status: 422 },
      { body: { ...base, rate_plan_id: "rp_nope" }, status: 404 },
      { body: { ...base, check_in: d(40), check_out: d(41) }, status: 409 }, // no rate
    ];
    for (const [i, attempt] of attempts.entries()) {
      const { result, counts } = await written(() => h.post("/v1/reservations", attempt.body, caller));
      expect(result.status, result.text).toBe(attempt.status);
      if (i > 0) expect(counts).toEqual({});
    }
  });

  it("modifications, cancellation and no-show write reservation.updated or .cancelled with inventory.updated", async () => {
    const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, d(10), d(12)), caller), 201);
    expect((await written(async () => ok(await h.patch(`/v1/reservations/${r.id}`, { notes: "Window seat" }, caller)))).counts).toEqual({ "reservation.updated": 1 });
    expect((await written(async () => ok(await h.patch(`/v1/reservations/${r.id}`, { check_out: d(13) }, caller)))).counts).toEqual({ "reservation.updated": 1, "inventory.updated": 1 });
    const other = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, d(14), d(15)), caller), 201);
    ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, d(14), d(15)), caller), 201);
    const refused = await written(() => h.patch(`/v1/reservations/${r.id}`, { check_out: d(15), notes: "longer" }, caller));
    expect(refused.result.status).toBe(409);
    expect(refused.counts).toEqual({});
    const cancel = await written(async () => ok(await h.post(`/v1/reservations/${r.id}/cancel`, { reason: "Weather" }, caller)));
    expect(cancel.counts).toEqual({ "reservation.cancelled": 1, "inventory.updated": 1 });
    const [cancelled] = await eventsFor(h, accountId, "reservation.cancelled", (o) => o.id === r.id);
    expect(cancelled.object).toMatchObject({ id: r.id, status: "cancelled", cancellation_reason: "Weather" });
    expect((await written(() => h.post(`/v1/reservations/${r.id}/cancel`, {}, caller))).counts).toEqual({});
    // A no-show, once the arrival night is over (moved into the past in the database, past its 03:00 audit hour).
    await h.db.update(reservations).set({ checkIn: d(-2), checkOut: d(1) }).where(eq(reservations.id, other.id));
    expect((await written(async () => ok(await h.post(`/v1/reservations/${other.id}/no_show`, {}, caller)))).counts).toEqual({ "reservation.updated": 1, "inventory.updated": 1 });
  });

  it("check-in writes reservation.checked_in; check-out reservation.checked_out, housekeeping.status_changed and invoice.created", async () => {
    const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, d(0), d(1)), caller), 201);
    expect((await written(() => h.post(`/v1/reservations/${r.id}/check_out`, {}, caller))).counts).toEqual({});
    const checkIn = await written(async () => ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller)));
    expect(checkIn.counts).toEqual({ "reservation.checked_in": 1 });
    const unpaid = await written(() => h.post(`/v1/reservations/${r.id}/check_out`, {}, caller));
    expect(unpaid.result.status).toBe(409);
    expect(unpaid.counts).toEqual({});
    expect((await written(async () => ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Settled", amount: -10_000 }, caller), 201))).counts).toEqual({});
    const checkOut = await written(async () => ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller)));
    // The settled folio closes into its invoice (tests/integration/invoices.test.ts).
    expect(checkOut.counts).toEqual({ "reservation.checked_out": 1, "housekeeping.status_changed": 1, "invoice.created": 1 });
    const [out] = await eventsFor(h, accountId, "reservation.checked_out", (o) => o.id === r.id);
    expect(out.object).toMatchObject({ status: "checked_out", room_id: checkIn.result.room_id });
  });
});

describe("GET /v1/events and /v1/events/{id}", () => {
  it("answers the envelope: id, type, created_at, api_version (the account's pinned), livemode, property_id, data.object", async () => {
    const list = ok(await h.get("/v1/events?limit=100", caller));
    expect(list).toMatchObject({ object: "list", has_more: false });
    expect(list.data.length).toBe(await countEvents(h, accountId));
    for (const e of list.data) {
      expect(Object.keys(e).sort()).toEqual(["api_version", "created_at", "data", "id", "livemode", "object", "property_id", "type"]);
      expect(Object.keys(e.data)).toEqual(["object"]);
      expect(e).toMatchObject({ object: "event", api_version: pinned, livemode: true });
      expect(e.id).toMatch(/^evt_/);
      expect(new Date(e.created_at).toISOString()).toBe(e.created_at);
    }
    // Newest first.
    const times = list.data.map((e: { created_at: string }) => e.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const created = list.data.find((e: { type: string }) => e.type === "reservation.created");
    expect(created.property_id).toBe(hotel.propertyId);
    expect(created.data.object).toMatchObject({ object: "reservation", property_id: hotel.propertyId });
    expect(ok(await h.get(`/v1/events/${created.id}`, caller))).toEqual(created);
  });

  it("filters by type and creation time", async () => {
    const all = ok(await h.get("/v1/events?limit=100", caller)).data;
    const cancelled = ok(await h.get("/v1/events?type=reservation.cancelled", caller)).data;
    expect(cancelled.map((e: { id: string }) => e.id)).toEqual(all.filter((e: { type: string }) => e.type === "reservation.cancelled").map((e: { id: string }) => e.id));
    expect(cancelled.length).toBe(1);
    const middle = all[Math.floor(all.length / 2)].created_at;
    const newer = ok(await h.get(`/v1/events?limit=100&created_gte=${encodeURIComponent(middle)}`, caller)).data;
    expect(newer.map((e: { id: string }) => e.id)).toEqual(all.filter((e: { created_at: string }) => e.created_at >= middle).map((e: { id: string }) => e.id));
    expectError(await h.get("/v1/events?type=reservation.exploded", caller), 400, "parameter_invalid", "type");
  });

  it("keeps the sandbox's events apart, with livemode false", async () => {
    const sandbox = { ...caller, sandbox: true };
    ok(await h.post("/v1/guests", { first_name: "Sandy", last_name: "Box", email: "sandy@example.com" }, sandbox), 201);
    const events = ok(await h.get("/v1/events?type=guest.created", sandbox)).data;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ livemode: false, api_version: pinned, data: { object: { email: "sandy@example.com" } } });
    expectError(await h.get(`/v1/events/${events[0].id}`, caller), 404, "resource_missing", "id");
    expect(ok(await h.get("/v1/events?limit=100", caller)).data.map((e: { id: string }) => e.id)).not.toContain(events[0].id);
  });

  it("needs webhooks:manage", async () => {
    const token = await h.keyWith(["reservations:read", "rooms:read"], [], accountId);
    expectError(await h.get("/v1/events", { token }), 403, "insufficient_scope");
  });
});
