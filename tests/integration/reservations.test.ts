import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folioCharges, folios, guests, reservations, rooms } from "@/db/schema";
import { addDays, nightsOf, todayIn, weekdayOf, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, countEvents, eventsFor, insertProperty, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue #3: reservations that never overbook. Everything here runs in the live environment of
// the harness account, on a property far east (UTC+14) so that "today" is the property's, not
// the server's.

let h: Harness;
let caller: Caller;
let accountId: string;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
/** 40 rooms, 10000 a night, 15000 on Friday and Saturday nights. */
let std: RoomTypeSetup;
const d = (n: number): IsoDate => addDays(hotel.today, n);
const priceOf = (date: IsoDate) => (["fri", "sat"].includes(weekdayOf(date)) ? 15_000 : 10_000);

const setupOf = (t: RoomTypeSetup) => ({ propertyId: hotel.propertyId, roomTypeId: t.roomTypeId, ratePlanId: t.ratePlanId });
const book = (t: RoomTypeSetup, from: IsoDate, to: IsoDate, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody(setupOf(t), from, to, extra), caller);

/** Rows the account holds in the tables a booking writes. */
async function footprint() {
  const count = async (table: typeof reservations | typeof folios | typeof guests | typeof folioCharges) => {
    const [row] = await h.db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(table.accountId, accountId));
    return Number(row.n);
  };
  return { reservations: await count(reservations), folios: await count(folios), charges: await count(folioCharges), guests: await count(guests), events: await countEvents(h, accountId) };
}

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
  accountId = h.main.account.id;
  hotel = await liveHotel(h, accountId, "Pacific/Kiritimati");
  std = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 40, amount: 10_000 });
  ok(await h.post(`/v1/rate_plans/${std.ratePlanId}/rates`, { room_type_id: std.roomTypeId, from: hotel.today, to: d(90), amount: 15_000, days_of_week: ["fri", "sat"] }, caller));
});
afterAll(async () => h?.close());

describe("POST /v1/reservations: the checks, in the contract's order", () => {
  it("books a valid stay: 201, confirmed, live, with its folio", async () => {
    const res = await book(std, d(3), d(5));
    const r = ok(res, 201);
    expect(r).toMatchObject({
      object: "reservation",
      livemode: true,
      status: "confirmed",
      property_id: hotel.propertyId,
      check_in: d(3),
      check_out: d(5),
      nights: 2,
      adults: 1,
      children: 0,
      room_type_id: std.roomTypeId,
      rate_plan_id: std.ratePlanId,
      room_id: null,
      source: "api",
      channel: null,
      notes: null,
      metadata: {},
      cancelled_at: null,
      cancellation_reason: null,
      guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    });
    expect(r.id).toMatch(/^res_/);
    expect(r.folio_id).toMatch(/^fol_/);
    expect(r.guest.id).toMatch(/^gst_/);
    expect(ok(await h.get(`/v1/reservations/${r.id}`, caller))).toEqual(r);
  });

  it("refuses malformed bodies with 422 and the dotted path of the field at fault", async () => {
    const valid = bookingBody(setupOf(std), d(3), d(5));
    const without = (key: string) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key));
    const cases: [unknown, "parameter_missing" | "parameter_invalid" | "parameter_unknown", string][] = [
      [without("property_id"), "parameter_missing", "property_id"],
      [without("guest"), "parameter_missing", "guest"],
      [without("check_in"), "parameter_missing", "check_in"],
      [without("check_out"), "parameter_missing", "check_out"],
      [without("room_type_id"), "parameter_missing", "room_type_id"],
      [without("rate_plan_id"), "parameter_missing", "rate_plan_id"],
      [without("adults"), "parameter_missing", "adults"],
      [{ ...valid, guest: { first_name: "Ada", last_name: "Lovelace" } }, "parameter_missing", "guest.email"],
      [{ ...valid, guest: { last_name: "Lovelace", email: "ada@example.com" } }, "parameter_missing", "guest.first_name"],
      [{ ...valid, guest: { ...valid.guest, email: "not-an-address" } }, "parameter_invalid", "guest.email"],
      [{ ...valid, guest: { ...valid.guest, first_name: "" } }, "parameter_invalid", "guest.first_name"],
      [{ ...valid, guest: { ...valid.guest, nickname: "Ada" } }, "parameter_unknown", "guest.nickname"],
      [{ ...valid, guest: "Ada Lovelace" }, "parameter_invalid", "guest"],
      [{ ...valid, discount: 10 }, "parameter_unknown", "discount"],
      [{ ...valid, check_in: "2026-02-30" }, "parameter_invalid", "check_in"],
      [{ ...valid, check_out: "tomorrow" }, "parameter_invalid", "check_out"],
      [{ ...valid, adults: 0 }, "parameter_invalid", "adults"],
      [{ ...valid, adults: "2" }, "parameter_invalid", "adults"],
      [{ ...valid, adults: 1.5 }, "parameter_invalid", "adults"],
      [{ ...valid, children: -1 }, "parameter_invalid", "children"],
      [{ ...valid, source: "fax" }, "parameter_invalid", "source"],
      [{ ...valid, source: "channel", channel: "tripadvisor" }, "parameter_invalid", "channel"],
      [{ ...valid, metadata: { vip: 1 } }, "parameter_invalid", "metadata.vip"],
      [{ ...valid, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }, "parameter_invalid", "metadata"],
    ];
    const before = await footprint();
    for (const [body, code, param] of cases) {
      const res = await h.post("/v1/reservations", body, caller);
      expectError(res, 422, code, param);
    }
    expect(await footprint()).toEqual(before);
  });

  it("checks the dates: check_out after check_in, check_in not before the property's today, at most 30 nights", async () => {
    expectError(await book(std, d(5), d(5)), 422, "parameter_invalid", "check_out");
    expectError(await book(std, d(5), d(4)), 422, "parameter_invalid", "check_out");
    expectError(await book(std, d(-1), d(2)), 422, "parameter_invalid", "check_in");
    expectError(await book(std, d(1), d(32)), 422, "parameter_invalid", "check_out");
    // In order: reversed beats past, past beats too long.
    expectError(await book(std, d(-1), d(-2)), 422, "parameter_invalid", "check_out");
    expectError(await book(std, d(-1), d(35)), 422, "parameter_invalid", "check_in");
    // Kiritimati (UTC+14) is always ahead of Pago Pago (UTC-11): that zone's today is the
    // property's past, whatever the server's own clock says.
    const pagoToday = todayIn("Pacific/Pago_Pago");
    expect(pagoToday < hotel.today).toBe(true);
    expectError(await book(std, pagoToday, d(2)), 422, "parameter_invalid", "check_in");
    // Exactly 30 nights, starting today, is fine.
    const long = ok(await book(std, d(0), d(30)), 201);
    expect(long.nights).toBe(30);
    ok(await h.post(`/v1/reservations/${long.id}/cancel`, {}, caller));
  });

  it("checks occupancy (adults + children ≤ max_occupancy) before the rate plan", async () => {
    expectError(await book(std, d(3), d(5), { adults: 3 }), 422, "parameter_invalid", "adults");
    expectError(await book(std, d(3), d(5), { adults: 2, children: 1 }), 422, "parameter_invalid", "children");
    const other = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1 });
    // Over occupancy and an uncovering rate plan: occupancy is reported first.
    expectError(await book({ ...std, ratePlanId: other.ratePlanId }, d(3), d(5), { adults: 3 }), 422, "parameter_invalid", "adults");
    ok(await book(std, d(3), d(5), { adults: 2, children: 0 }), 201);
  });

  it("refuses a rate plan that does not cover the room type, or is inactive, with 422 before any restriction", async () => {
    const other = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1 });
    expectError(await book({ ...std, ratePlanId: other.ratePlanId }, d(3), d(5)), 422, "parameter_invalid", "rate_plan_id");
    const plan = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: "OFF", name: "Off", room_type_ids: [std.roomTypeId], active: false }, caller), 201);
    // No rates at all on it either: inactivity is reported, not the missing rate (409).
    expectError(await book({ ...std, ratePlanId: plan.id }, d(3), d(5)), 422, "parameter_invalid", "rate_plan_id");
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: std.roomTypeId, from: hotel.today, to: d(10), amount: 1 }, caller));
    ok(await h.patch(`/v1/rate_plans/${plan.id}`, { active: true }, caller));
    expect(ok(await book({ ...std, ratePlanId: plan.id }, d(3), d(5)), 201).total).toEqual({ amount: 2, currency: "USD" });
  });

  it("answers 404 for an unknown property, room type or rate plan, naming the parameter", async () => {
    expectError(await h.post("/v1/reservations", { ...bookingBody(setupOf(std), d(3), d(5)), property_id: "prop_nope" }, caller), 404, "resource_missing", "property_id");
    expectError(await book({ ...std, roomTypeId: "rt_nope" }, d(3), d(5)), 404, "resource_missing", "room_type_id");
    expectError(await book({ ...std, ratePlanId: "rp_nope" }, d(3), d(5)), 404, "resource_missing", "rate_plan_id");
    // All three unknown (they are read side by side): the property is named, then the room type.
    expectError(await h.post("/v1/reservations", { ...bookingBody(setupOf({ ...std, roomTypeId: "rt_nope", ratePlanId: "rp_nope" }), d(3), d(5)), property_id: "prop_nope" }, caller), 404, "resource_missing", "property_id");
    expectError(await book({ ...std, roomTypeId: "rt_nope", ratePlanId: "rp_nope" }, d(3), d(5)), 404, "resource_missing", "room_type_id");
    // Past dates beat an unknown room type and plan: the dates are checked right after the property.
    expectError(await book({ ...std, roomTypeId: "rt_nope", ratePlanId: "rp_nope" }, d(-2), d(1)), 422, "parameter_invalid", "check_in");
  });

  it("refuses a room type or rate plan of another property of the account", async () => {
    const second = await insertProperty(h, accountId, { timezone: "Pacific/Kiritimati", name: "Second Inn" });
    const far = await buildRoomType(h, caller, second.id, hotel.today, { rooms: 1 });
    expectError(await book({ ...std, roomTypeId: far.roomTypeId }, d(3), d(5)), 422, "parameter_invalid", "room_type_id");
    expectError(await book({ ...std, ratePlanId: far.ratePlanId }, d(3), d(5)), 422, "parameter_invalid", "rate_plan_id");
  });

  describe("rate restrictions: 409 restriction_violated", () => {
    let t: RoomTypeSetup;
    beforeAll(async () => {
      t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, days: 60 });
      const set = (body: Record<string, unknown>) => h.post(`/v1/rate_plans/${t.ratePlanId}/rates`, { room_type_id: t.roomTypeId, ...body }, caller);
      ok(await set({ from: d(11), to: d(12), stop_sell: true }));
      ok(await set({ from: d(14), to: d(15), closed_to_arrival: true }));
      ok(await set({ from: d(17), to: d(18), closed_to_departure: true }));
      ok(await set({ from: d(20), to: d(21), min_stay: 3 }));
    });

    it("stop_sell on any night of the stay", async () => {
      const before = await footprint();
      const e = expectError(await book(t, d(10), d(13)), 409, "restriction_violated", null);
      expect(e.message).toContain(d(11));
      expectError(await book(t, d(11), d(12)), 409, "restriction_violated", null);
      expect(await footprint()).toEqual(before);
      ok(await book(t, d(9), d(11)), 201); // leaving on the stop-sell day
      ok(await book(t, d(12), d(13)), 201);
    });

    it("closed_to_arrival on the arrival day only", async () => {
      expectError(await book(t, d(14), d(16)), 409, "restriction_violated", "check_in");
      ok(await book(t, d(13), d(16)), 201);
    });

    it("closed_to_departure on the departure day only", async () => {
      expectError(await book(t, d(16), d(17)), 409, "restriction_violated", "check_out");
      ok(await book(t, d(16), d(18)), 201);
      ok(await book(t, d(17), d(18)), 201);
    });

    it("min_stay of the arrival night", async () => {
      expectError(await book(t, d(20), d(22)), 409, "restriction_violated", "check_out");
      ok(await book(t, d(20), d(23)), 201);
      ok(await book(t, d(19), d(21)), 201);
    });

    it("a night without a rate", async () => {
      expectError(await book(t, d(58), d(61)), 409, "restriction_violated", null);
      ok(await book(t, d(58), d(60)), 201);
    });

    it("restrictions are checked before availability", async () => {
      const one = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, days: 30 });
      ok(await book(one, d(5), d(7)), 201);
      expectError(await book(one, d(5), d(6)), 409, "no_availability", "room_type_id");
      ok(await h.post(`/v1/rate_plans/${one.ratePlanId}/rates`, { room_type_id: one.roomTypeId, from: d(5), to: d(6), stop_sell: true }, caller));
      expectError(await book(one, d(5), d(6)), 409, "restriction_violated", null);
    });
  });

  it("409 no_availability once every room is sold on some night; the refusal leaves no trace", async () => {
    const one = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1 });
    ok(await book(one, d(20), d(22)), 201);
    const before = await footprint();
    const inventoryBefore = await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(18), d(25));
    const refused = await book(one, d(21), d(23), { guest: { first_name: "New", last_name: "Person", email: "never.booked@example.com" } });
    expectError(refused, 409, "no_availability", "room_type_id");
    expectError(await book(one, d(19), d(21)), 409, "no_availability", "room_type_id");
    expect(await footprint()).toEqual(before); // no reservation, folio, charge, guest or event
    expect(await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(18), d(25))).toEqual(inventoryBefore);
    // Half-open ranges: arriving on the other's departure day is fine.
    ok(await book(one, d(22), d(24)), 201);
    ok(await book(one, d(18), d(20)), 201);
  });
});

describe("source and channel", () => {
  it("defaults to source api, channel null", async () => {
    expect(ok(await book(std, d(3), d(4)), 201)).toMatchObject({ source: "api", channel: null });
  });

  it("takes every source; channel only with source channel, and then required", async () => {
    for (const source of ["direct", "api", "phone", "email", "walk_in"]) {
      expect(ok(await book(std, d(3), d(4), { source }), 201)).toMatchObject({ source, channel: null });
    }
    for (const channel of ["booking_com", "expedia", "airbnb", "agoda", "hotelbeds", "other"]) {
      expect(ok(await book(std, d(3), d(4), { source: "channel", channel }), 201)).toMatchObject({ source: "channel", channel });
    }
    expect(ok(await book(std, d(3), d(4), { source: "phone", channel: null }), 201)).toMatchObject({ source: "phone", channel: null });
    expectError(await book(std, d(3), d(4), { source: "channel" }), 422, "parameter_missing", "channel");
    expectError(await book(std, d(3), d(4), { source: "channel", channel: null }), 422, "parameter_missing", "channel");
    expectError(await book(std, d(3), d(4), { source: "direct", channel: "expedia" }), 422, "parameter_invalid", "channel");
    expectError(await book(std, d(3), d(4), { channel: "expedia" }), 422, "parameter_invalid", "channel");
  });

  it("keeps notes and metadata (up to 20 pairs)", async () => {
    const metadata = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`key${i}`, `value ${i}`]));
    const r = ok(await book(std, d(3), d(4), { notes: "Late arrival", metadata }), 201);
    expect(r).toMatchObject({ notes: "Late arrival", metadata });
  });
});

describe("prices and the folio", () => {
  it("prices each night at its own rate; total is their sum; one folio charge per night", async () => {
    const from = d(7);
    const to = d(14); // a whole week: five weekday nights and a Friday and a Saturday
    const r = ok(await book(std, from, to), 201);
    const nightly = nightsOf(from, to).map((date) => ({ date, amount: priceOf(date) }));
    expect(nightly.filter((n) => n.amount === 15_000)).toHaveLength(2);
    expect(r.nightly).toEqual(nightly);
    expect(r.total).toEqual({ amount: 80_000, currency: "USD" });
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, caller));
    expect(folio).toMatchObject({ id: r.folio_id, object: "folio", livemode: true, reservation_id: r.id, status: "open", payments: [], refunds: [], balance: { amount: 80_000, currency: "USD" }, closed_at: null });
    expect(folio.charges.map((c: { kind: string; date: string; amount: { amount: number } }) => [c.kind, c.date, c.amount.amount])).toEqual(nightly.map((n) => ["room_night", n.date, n.amount]));
    for (const c of folio.charges) expect(c).toMatchObject({ object: "folio_charge", folio_id: r.folio_id, livemode: true, amount: { currency: "USD" } });
  });

  it("takes extra charges and credits on an open folio; zero or malformed amounts are refused", async () => {
    const r = ok(await book(std, d(3), d(4)), 201);
    const charge = ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Minibar", amount: 1_250 }, caller), 201);
    expect(charge).toMatchObject({ object: "folio_charge", folio_id: r.folio_id, kind: "extra", description: "Minibar", date: null, amount: { amount: 1_250, currency: "USD" } });
    expect(charge.id).toMatch(/^chg_/);
    ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Goodwill", amount: -250 }, caller), 201);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, caller)).balance.amount).toBe(priceOf(d(3)) + 1_250 - 250);
    expectError(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Nothing", amount: 0 }, caller), 422, "parameter_invalid", "amount");
    expectError(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Half", amount: 1.5 }, caller), 422, "parameter_invalid", "amount");
    expectError(await h.post(`/v1/folios/${r.folio_id}/charges`, { amount: 100 }, caller), 422, "parameter_missing", "description");
    expectError(await h.post(`/v1/folios/fol_nope/charges`, { description: "X", amount: 100 }, caller), 404, "resource_missing", "id");
  });
});

describe("guests are matched by e-mail within the account and environment", () => {
  it("creates a guest once (guest.created) and reuses it for the same address in any case", async () => {
    const first = ok(await book(std, d(3), d(4), { guest: { first_name: "Grace", last_name: "Hopper", email: "Grace.Hopper@Example.com", phone: "+1 555 0100" } }), 201);
    const second = ok(await book(std, d(4), d(5), { guest: { first_name: "G.", last_name: "H.", email: "grace.hopper@EXAMPLE.COM" } }), 201);
    expect(second.guest.id).toBe(first.guest.id);
    expect(second.guest).toEqual(first.guest); // the profile is not overwritten by a booking
    const created = await eventsFor(h, accountId, "guest.created", (o) => o.id === first.guest.id);
    expect(created).toHaveLength(1);
    expect(created[0].object).toMatchObject({ id: first.guest.id, email: "Grace.Hopper@Example.com", first_name: "Grace" });
    const guest = ok(await h.get(`/v1/guests/${first.guest.id}`, caller));
    expect(guest).toMatchObject({ first_name: "Grace", last_name: "Hopper", phone: "+1 555 0100" });
    const list = ok(await h.get(`/v1/reservations?guest_id=${first.guest.id}`, caller));
    expect(list.data.map((r: { id: string }) => r.id).sort()).toEqual([first.id, second.id].sort());
  });

  it("the same address in the sandbox is another guest", async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    const live = ok(await book(std, d(3), d(4), { guest: { first_name: "Alan", last_name: "Turing", email: "alan@example.com" } }), 201);
    const prop = ok(await h.get("/v1/properties", sandbox)).data[0];
    const types = ok(await h.get(`/v1/room_types?property_id=${prop.id}`, sandbox)).data;
    const plans = ok(await h.get(`/v1/rate_plans?property_id=${prop.id}`, sandbox)).data;
    const king = types.find((t: { code: string }) => t.code === "KING");
    const bar = plans.find((p: { code: string }) => p.code === "BAR");
    const arrival = addDays(todayIn(prop.timezone), 200);
    const res = await h.post(
      "/v1/reservations",
      bookingBody({ propertyId: prop.id, roomTypeId: king.id, ratePlanId: bar.id }, arrival, addDays(arrival, 1), { guest: { first_name: "Alan", last_name: "Turing", email: "ALAN@example.com" } }),
      sandbox,
    );
    const inSandbox = ok(res, 201);
    expect(inSandbox.livemode).toBe(false);
    expect(inSandbox.guest.id).not.toBe(live.guest.id);
    expectError(await h.get(`/v1/guests/${inSandbox.guest.id}`, caller), 404, "resource_missing", "id");
  });
});

describe("state transitions", () => {
  /** A room type for stays that start today, with rooms in chosen housekeeping states. */
  let t: RoomTypeSetup;
  let free: RoomTypeSetup;
  beforeAll(async () => {
    t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, amount: 10_000, days: 30 });
    const statuses = ["dirty", "inspected", "clean"] as const;
    for (const [i, id] of t.roomIds.entries()) await h.db.update(rooms).set({ housekeepingStatus: statuses[i] }).where(eq(rooms.id, id));
    // A zero-priced plan on the same type: its stays are settled from the start.
    const plan = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: "COMP", name: "Complimentary", room_type_ids: [t.roomTypeId] }, caller), 201);
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: t.roomTypeId, from: hotel.today, to: d(30), amount: 0 }, caller));
    free = { ...t, ratePlanId: plan.id };
  });

  const act = (id: string, action: string, body: unknown = {}) => h.post(`/v1/reservations/${id}/${action}`, body, caller);
  const sold = async (setup: RoomTypeSetup, from: IsoDate, to: IsoDate) =>
    [...(await inventoryOf(h, caller, hotel.propertyId, setup.roomTypeId, from, to)).values()].map((n) => n.sold);

  it("confirmed → checked_in → checked_out, with room assignment, settlement and a dirty room", async () => {
    const a = ok(await book(t, d(0), d(3)), 201);
    const b = ok(await book(t, d(0), d(2)), 201);
    const c = ok(await book(free, d(0), d(2)), 201);
    expect(await sold(t, d(0), d(3))).toEqual([3, 3, 1]);

    // The inspected room goes first, then the clean one; a dirty room is never assigned.
    const inA = ok(await act(a.id, "check_in"));
    expect(inA).toMatchObject({ status: "checked_in", room_id: t.roomIds[1] });
    expect(inA.checked_in_at).toEqual(expect.any(String));
    expect(ok(await act(b.id, "check_in")).room_id).toBe(t.roomIds[2]);
    expect(ok(await h.get(`/v1/rooms/${t.roomIds[1]}`, caller))).toMatchObject({ occupied: true, housekeeping_status: "inspected" });
    expectError(await act(c.id, "check_in"), 409, "no_availability");
    expectError(await act(c.id, "check_in", { room_id: t.roomIds[0] }), 422, "parameter_invalid", "room_id"); // dirty
    expectError(await act(c.id, "check_in", { room_id: t.roomIds[1] }), 422, "parameter_invalid", "room_id"); // occupied
    expectError(await act(c.id, "check_in", { room_id: std.roomIds[0] }), 422, "parameter_invalid", "room_id"); // another type
    expectError(await act(c.id, "check_in", { room_id: "room_nope" }), 404, "resource_missing", "room_id");
    await h.db.update(rooms).set({ housekeepingStatus: "clean" }).where(eq(rooms.id, t.roomIds[0]));
    expect(ok(await act(c.id, "check_in", { room_id: t.roomIds[0] })).room_id).toBe(t.roomIds[0]);
    // Checking in changes no availability.
    expect(await sold(t, d(0), d(3))).toEqual([3, 3, 1]);

    // Check-out needs a settled folio.
    expectError(await act(a.id, "check_out"), 409, "balance_outstanding");
    ok(await h.post(`/v1/folios/${a.folio_id}/charges`, { description: "Parking", amount: 2_000 }, caller), 201);
    ok(await h.post(`/v1/folios/${a.folio_id}/charges`, { description: "Paid at the desk", amount: -11_000 }, caller), 201);
    // Leaving today, the arrival night is all that is charged: 10000 + 2000 - 11000 = 1000 owed.
    expectError(await act(a.id, "check_out"), 409, "balance_outstanding");
    ok(await h.post(`/v1/folios/${a.folio_id}/charges`, { description: "Paid at the desk", amount: -1_000 }, caller), 201);
    const before = await countEvents(h, accountId, "housekeeping.status_changed");
    const outA = ok(await act(a.id, "check_out"));
    expect(outA).toMatchObject({ status: "checked_out", room_id: t.roomIds[1] });
    expect(outA.checked_out_at).toEqual(expect.any(String));
    const folio = ok(await h.get(`/v1/reservations/${a.id}/folio`, caller));
    expect(folio).toMatchObject({ status: "closed", balance: { amount: 0 } });
    expect(folio.closed_at).toEqual(expect.any(String));
    expect(ok(await h.get(`/v1/rooms/${t.roomIds[1]}`, caller))).toMatchObject({ occupied: false, housekeeping_status: "dirty" });
    expect(await countEvents(h, accountId, "housekeeping.status_changed")).toBe(before + 1);
    const [changed] = await eventsFor(h, accountId, "housekeeping.status_changed", (o) => o.id === t.roomIds[1]);
    expect(changed.object).toMatchObject({ object: "room", id: t.roomIds[1], housekeeping_status: "dirty", previous_status: "inspected", occupied: false });
    // A closed, invoiced folio takes no credit (a credit note does that); a late charge goes on a
    // supplementary invoice (tests/integration/late-charges.test.ts).
    expectError(await h.post(`/v1/folios/${a.folio_id}/charges`, { description: "Late refund", amount: -500 }, caller), 409, "invalid_state_transition", "amount");

    // Leaving on the arrival day: that night stays sold, the later ones go back on sale.
    expect(await sold(t, d(0), d(3))).toEqual([3, 2, 0]);

    // A zero-priced stay is settled from the start.
    expect(ok(await h.get(`/v1/reservations/${c.id}/folio`, caller)).balance.amount).toBe(0);
    expect(ok(await act(c.id, "check_out")).status).toBe("checked_out");
    expect(await sold(t, d(0), d(3))).toEqual([3, 1, 0]);

    // An early departure after the arrival day gives back tonight and the nights after, and their
    // charges: the stay (moved to have arrived yesterday) now ends today and owes nothing more.
    await h.db.update(reservations).set({ checkIn: d(-1) }).where(eq(reservations.id, b.id));
    expect(ok(await act(b.id, "check_out"))).toMatchObject({ check_out: d(0), nights: 1 });
    expect(await sold(t, d(0), d(3))).toEqual([2, 0, 0]);

    // Nothing leaves checked_out.
    for (const action of ["check_in", "check_out", "cancel", "no_show"]) expectError(await act(a.id, action), 409, "invalid_state_transition");
  });

  it("checked_in allows only check-out", async () => {
    await h.db.update(rooms).set({ housekeepingStatus: "clean" }).where(eq(rooms.id, t.roomIds[1]));
    const r = ok(await book(t, d(0), d(1)), 201);
    ok(await act(r.id, "check_in"));
    for (const action of ["check_in", "cancel", "no_show"]) expectError(await act(r.id, action), 409, "invalid_state_transition");
    expectError(await h.patch(`/v1/reservations/${r.id}`, { notes: "x" }, caller), 409, "invalid_state_transition");
  });

  it("check-in only on the arrival date", async () => {
    const future = ok(await book(std, d(2), d(3)), 201);
    expectError(await act(future.id, "check_in"), 409, "invalid_state_transition");
    const late = ok(await book(std, d(0), d(2)), 201);
    await h.db.update(reservations).set({ checkIn: d(-1) }).where(eq(reservations.id, late.id));
    expectError(await act(late.id, "check_in"), 409, "invalid_state_transition");
    expect(ok(await h.get(`/v1/reservations/${future.id}`, caller)).status).toBe("confirmed");
  });

  it("confirmed → no_show only after the arrival date; its nights go back on sale", async () => {
    const one = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, days: 10 });
    const r = ok(await book(one, d(0), d(2)), 201);
    expectError(await act(r.id, "no_show"), 409, "invalid_state_transition");
    // The arrival night is over once its audit hour (03:00 the next morning) has passed.
    await h.db.update(reservations).set({ checkIn: d(-2) }).where(eq(reservations.id, r.id));
    expect(await sold(one, d(0), d(2))).toEqual([1, 1]);
    const events = await countEvents(h, accountId);
    const shown = ok(await act(r.id, "no_show"));
    expect(shown.status).toBe("no_show");
    expect(await sold(one, d(0), d(2))).toEqual([0, 0]);
    expect(await countEvents(h, accountId)).toBe(events + 2); // reservation.updated and inventory.updated
    for (const action of ["check_in", "check_out", "cancel", "no_show"]) expectError(await act(r.id, action), 409, "invalid_state_transition");
  });

  it("confirmed → cancelled gives the nights back; a refundable plan before its deadline drops the charges", async () => {
    const r = ok(await book(std, d(40), d(42)), 201);
    const soldBefore = await sold(std, d(40), d(42));
    const cancelled = ok(await act(r.id, "cancel", { reason: "Change of plans" }));
    expect(cancelled).toMatchObject({ status: "cancelled", cancellation_reason: "Change of plans" });
    expect(cancelled.cancelled_at).toEqual(expect.any(String));
    expect(await sold(std, d(40), d(42))).toEqual(soldBefore.map((n) => n - 1));
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, caller))).toMatchObject({ status: "closed", charges: [], balance: { amount: 0 } });
    for (const action of ["check_in", "check_out", "cancel", "no_show"]) expectError(await act(r.id, action), 409, "invalid_state_transition");
    expectError(await h.patch(`/v1/reservations/${r.id}`, { notes: "x" }, caller), 409, "invalid_state_transition");
    const listed = ok(await h.get(`/v1/reservations?status=cancelled&property_id=${hotel.propertyId}`, caller));
    expect(listed.data.map((x: { id: string }) => x.id)).toContain(r.id);
    expect(listed.data.every((x: { status: string }) => x.status === "cancelled")).toBe(true);
  });

  it("a non-refundable plan, or a cancellation past the deadline, keeps the room charges, invoiced as the cancellation charge", async () => {
    const nrf = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, refundable: false, days: 20 });
    const r1 = ok(await book(nrf, d(10), d(12)), 201);
    ok(await act(r1.id, "cancel"));
    expect(ok(await h.get(`/v1/reservations/${r1.id}/folio`, caller))).toMatchObject({ status: "closed", balance: { amount: 20_000 } });
    expect(ok(await h.get(`/v1/reservations/${r1.id}/folio`, caller)).invoice_id).toMatch(/^inv_/);
    const strict = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, deadlineHours: 24 * 365, days: 20 });
    const r2 = ok(await book(strict, d(10), d(11)), 201);
    ok(await act(r2.id, "cancel"));
    expect(ok(await h.get(`/v1/reservations/${r2.id}/folio`, caller))).toMatchObject({ status: "closed", balance: { amount: 10_000 } });
    // Either way the nights are free again.
    expect(await sold(nrf, d(10), d(12))).toEqual([0, 0]);
  });

  it("answers 404 for an unknown reservation on every action", async () => {
    for (const action of ["check_in", "check_out", "cancel", "no_show"]) expectError(await act("res_nope", action), 404, "resource_missing", "id");
    expectError(await h.patch("/v1/reservations/res_nope", { notes: "x" }, caller), 404, "resource_missing", "id");
    expectError(await h.get("/v1/reservations/res_nope/folio", caller), 404, "resource_missing", "id");
  });
});

describe("PATCH /v1/reservations/{id}", () => {
  let one: RoomTypeSetup;
  let a: { id: string; folio_id: string };
  let b: { id: string; folio_id: string };
  beforeAll(async () => {
    one = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, amount: 10_000, days: 60 });
    a = ok(await book(one, d(30), d(32)), 201);
    b = ok(await book(one, d(33), d(35)), 201);
  });

  async function snapshot(id: string, folioId: string) {
    return {
      reservation: ok(await h.get(`/v1/reservations/${id}`, caller)),
      folio: ok(await h.get(`/v1/reservations/${id}/folio`, caller)),
      charges: (await h.db.select().from(folioCharges).where(eq(folioCharges.folioId, folioId))).map((c) => c.id).sort(),
      inventory: [...(await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(28), d(37))).values()],
      std: [...(await inventoryOf(h, caller, hotel.propertyId, std.roomTypeId, d(28), d(37))).values()],
      events: await countEvents(h, accountId),
    };
  }

  it("a change into a sold-out night fails with 409 and changes nothing", async () => {
    const before = await snapshot(b.id, b.folio_id);
    expectError(await h.patch(`/v1/reservations/${b.id}`, { check_in: d(31) }, caller), 409, "no_availability", "room_type_id");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { check_in: d(29), check_out: d(31), notes: "moved" }, caller), 409, "no_availability");
    expect(await snapshot(b.id, b.folio_id)).toEqual(before);
  });

  it("a change into a restricted stay fails with 409, an over-full room with 422, a past arrival with 422; nothing changes", async () => {
    ok(await h.post(`/v1/rate_plans/${one.ratePlanId}/rates`, { room_type_id: one.roomTypeId, from: d(36), to: d(37), stop_sell: true }, caller));
    const before = await snapshot(b.id, b.folio_id);
    expectError(await h.patch(`/v1/reservations/${b.id}`, { check_out: d(37) }, caller), 409, "restriction_violated");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { adults: 2, children: 1 }, caller), 422, "parameter_invalid", "children");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { check_in: d(-1) }, caller), 422, "parameter_invalid", "check_in");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { check_in: d(36) }, caller), 422, "parameter_invalid", "check_out");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { rate_plan_id: std.ratePlanId }, caller), 422, "parameter_invalid", "rate_plan_id");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { property_id: hotel.propertyId }, caller), 422, "parameter_unknown", "property_id");
    expectError(await h.patch(`/v1/reservations/${b.id}`, { guest: { email: "x@example.com" } }, caller), 422, "parameter_unknown", "guest.email");
    expect(await snapshot(b.id, b.folio_id)).toEqual(before);
  });

  it("moves the stay: releases its own nights first, sells the new ones, re-quotes and re-posts the charges", async () => {
    const events = await countEvents(h, accountId);
    // [30, 32) → [31, 33): night 31 was its own, 33 is where b starts.
    const moved = ok(await h.patch(`/v1/reservations/${a.id}`, { check_in: d(31), check_out: d(33) }, caller));
    expect(moved).toMatchObject({ status: "confirmed", check_in: d(31), check_out: d(33), nights: 2, total: { amount: 20_000 } });
    expect(moved.nightly).toEqual([{ date: d(31), amount: 10_000 }, { date: d(32), amount: 10_000 }]);
    const inventory = await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(30), d(35));
    expect([...inventory.values()].map((n) => n.sold)).toEqual([0, 1, 1, 1, 1]);
    const folio = ok(await h.get(`/v1/reservations/${a.id}/folio`, caller));
    expect(folio.charges.map((c: { date: string }) => c.date)).toEqual([d(31), d(32)]);
    expect(folio.balance.amount).toBe(20_000);
    // One reservation.updated and one inventory.updated covering old and new nights.
    expect(await countEvents(h, accountId)).toBe(events + 2);
    const [updated] = await eventsFor(h, accountId, "reservation.updated", (o) => o.id === a.id);
    expect(updated.object).toMatchObject({ id: a.id, check_in: d(31), check_out: d(33) });
    const ranges = await eventsFor(h, accountId, "inventory.updated", (o) => o.room_type_id === one.roomTypeId && o.to === d(33));
    expect(ranges.map((e) => e.object)).toEqual([{ object: "inventory_range", property_id: hotel.propertyId, room_type_id: one.roomTypeId, from: d(30), to: d(33) }]);
  });

  it("re-prices a change of rate plan or party without touching inventory", async () => {
    ok(await h.post(`/v1/rate_plans/${one.ratePlanId}/rates`, { room_type_id: one.roomTypeId, from: d(31), to: d(33), amount: 12_345 }, caller));
    const plan = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: "NRF1", name: "Saver", room_type_ids: [one.roomTypeId], refundable: false }, caller), 201);
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: one.roomTypeId, from: d(0), to: d(60), amount: 9_000 }, caller));
    const inventory = await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(30), d(35));
    const events = await countEvents(h, accountId, "inventory.updated");
    const adults = ok(await h.patch(`/v1/reservations/${a.id}`, { adults: 2 }, caller));
    expect(adults).toMatchObject({ adults: 2, total: { amount: 24_690 } }); // re-quoted at today's rates
    const saver = ok(await h.patch(`/v1/reservations/${a.id}`, { rate_plan_id: plan.id }, caller));
    expect(saver).toMatchObject({ rate_plan_id: plan.id, total: { amount: 18_000 }, check_in: d(31) });
    expect(ok(await h.get(`/v1/reservations/${a.id}/folio`, caller)).charges.map((c: { amount: { amount: number } }) => c.amount.amount)).toEqual([9_000, 9_000]);
    expect(await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(30), d(35))).toEqual(inventory);
    expect(await countEvents(h, accountId, "inventory.updated")).toBe(events);
  });

  it("moves the stay to another room type: one inventory.updated per type", async () => {
    const plan = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: "BOTH", name: "Both", room_type_ids: [one.roomTypeId, std.roomTypeId] }, caller), 201);
    for (const type of [one, std]) ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.roomTypeId, from: d(0), to: d(60), amount: 7_000 }, caller));
    const c = ok(await book({ ...one, ratePlanId: plan.id }, d(35), d(36)), 201);
    const stdBefore = await inventoryOf(h, caller, hotel.propertyId, std.roomTypeId, d(35), d(36));
    const events = await countEvents(h, accountId, "inventory.updated");
    const moved = ok(await h.patch(`/v1/reservations/${c.id}`, { room_type_id: std.roomTypeId }, caller));
    expect(moved).toMatchObject({ room_type_id: std.roomTypeId, total: { amount: 7_000 } });
    expect((await inventoryOf(h, caller, hotel.propertyId, one.roomTypeId, d(35), d(36))).get(d(35))!.sold).toBe(0);
    expect((await inventoryOf(h, caller, hotel.propertyId, std.roomTypeId, d(35), d(36))).get(d(35))!.sold).toBe(stdBefore.get(d(35))!.sold + 1);
    expect(await countEvents(h, accountId, "inventory.updated")).toBe(events + 2);
  });

  it("changes notes, metadata and the guest's names without re-quoting", async () => {
    const before = ok(await h.get(`/v1/reservations/${b.id}`, caller));
    const events = await countEvents(h, accountId);
    const res = ok(await h.patch(`/v1/reservations/${b.id}`, { notes: "Quiet room", metadata: { ref: "A-1" }, guest: { first_name: "Augusta" } }, caller));
    expect(res).toMatchObject({ notes: "Quiet room", metadata: { ref: "A-1" }, total: before.total, nightly: before.nightly, guest: { first_name: "Augusta", last_name: "Lovelace" } });
    expect(Date.parse(res.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(await countEvents(h, accountId)).toBe(events + 1); // reservation.updated only
    const cleared = ok(await h.patch(`/v1/reservations/${b.id}`, { notes: null }, caller));
    expect(cleared.notes).toBeNull();
  });

  it("lists reservations with filters", async () => {
    const list = ok(await h.get(`/v1/reservations?property_id=${hotel.propertyId}&check_in_from=${d(33)}&check_in_to=${d(34)}&status=confirmed`, caller));
    expect(list.data.map((r: { id: string }) => r.id)).toEqual([b.id]);
    const rows = await h.db.select({ n: sql<number>`count(*)::int` }).from(reservations).where(and(eq(reservations.accountId, accountId), eq(reservations.livemode, true)));
    const all = ok(await h.get(`/v1/reservations?limit=100&property_id=${hotel.propertyId}`, caller));
    expect(all.data.length).toBe(Math.min(100, Number(rows[0].n)));
  });
});
