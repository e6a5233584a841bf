import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { properties } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 27, item 2: stays that follow real life. A stay left early or late ends on its real
// departure, and the folio, the reservation, the inventory, availability and every report say so.
// "Today" moves by the property's business date (what the night audit and the sandbox's
// advance_day move), set here directly so the tests need no clock.

let h: Harness;
let caller: Caller;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup; businessDate?: IsoDate };
const nightly = 10_000;

/** A fresh property (so its reports hold only this test's stays), one room type, a flat 10,000 a night. */
async function hotelWith(rooms: number, fees: Record<string, unknown> = {}, refundable = true): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, amount: nightly, days: 30, refundable });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  if (Object.keys(fees).length) ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, fees, caller));
  return { ...hotel, type };
}

async function setBusinessDate(hotel: Hotel, date: IsoDate) {
  hotel.businessDate = date;
  await h.db.update(properties).set({ businessDate: date }).where(eq(properties.id, hotel.propertyId));
}
const book = (hotel: Hotel, from: IsoDate, to: IsoDate, email = "ada@example.com") =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, { guest: { first_name: "Ada", last_name: "Lovelace", email } }), caller);
const act = (id: string, action: string, body: unknown = {}) => h.post(`/v1/reservations/${id}/${action}`, body, caller);
const pay = (id: string, amount: number) => h.post("/v1/payments", { reservation_id: id, amount, payment_method: { type: "cash" } }, caller);
const folioOf = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, caller));

type Expected = { checkOut: IsoDate; nights: IsoDate[]; roomCharges: number; fees: Record<string, number>; sold: number[]; from: IsoDate; to: IsoDate; rooms: number };

/**
 * The five-way agreement: the reservation, its folio, the inventory calendar, availability and the
 * occupancy, revenue and production reports all describe the same nights. `sold` is the calendar's
 * sold count per night of [from, to); everything else follows from the nights kept.
 */
async function assertAgreement(hotel: Hotel, id: string, e: Expected) {
  const roomRevenue = e.nights.length * nightly;
  // 1. The reservation.
  const r = ok(await h.get(`/v1/reservations/${id}`, caller));
  expect(r).toMatchObject({ check_out: e.checkOut, nights: e.nights.length, total: { amount: roomRevenue } });
  expect(r.nightly.map((n: { date: string }) => n.date)).toEqual(e.nights);
  // 2. The folio: one room charge per night kept, the fees as their own lines.
  const folio = await folioOf(id);
  const rooms = folio.charges.filter((c: { kind: string }) => c.kind === "room_night");
  expect(rooms.map((c: { date: string }) => c.date)).toEqual(e.nights);
  expect(rooms.reduce((s: number, c: { amount: { amount: number } }) => s + c.amount.amount, 0)).toBe(e.roomCharges);
  const fees = Object.fromEntries(folio.charges.filter((c: { kind: string }) => c.kind.endsWith("_fee")).map((c: { kind: string; amount: { amount: number } }) => [c.kind, c.amount.amount]));
  expect(fees).toEqual(e.fees);
  // 3. The calendar (inventory).
  const inventory = await inventoryOf(h, caller, hotel.propertyId, hotel.type.roomTypeId, e.from, e.to);
  expect([...inventory.values()].map((n) => n.sold)).toEqual(e.sold);
  // 4. Availability: each night from the property's today on, the rooms not sold.
  for (const [i, night] of [...inventory.keys()].entries()) {
    if (night < (hotel.businessDate ?? hotel.today)) continue;
    const quote = ok(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${night}&check_out=${addDays(night, 1)}&adults=1`, caller));
    expect(quote.data[0].available, night).toBe(e.rooms - e.sold[i]);
  }
  // 5. Every report.
  const range = `property_id=${hotel.propertyId}&from=${e.from}&to=${e.to}`;
  const occupancy = ok(await h.get(`/v1/reports/occupancy?${range}`, caller));
  expect(occupancy.data.map((n: { rooms_sold: number }) => n.rooms_sold)).toEqual(e.sold);
  expect(occupancy.totals.rooms_sold).toBe(e.nights.length);
  const revenue = ok(await h.get(`/v1/reports/revenue?${range}`, caller));
  expect(revenue.data.map((n: { room_revenue: number }) => n.room_revenue)).toEqual(e.sold.map((s) => s * nightly));
  expect(revenue.totals.room_revenue).toBe(roomRevenue);
  const production = ok(await h.get(`/v1/reports/production?${range}`, caller));
  expect(production.totals).toMatchObject({ reservations: 1, room_nights: e.nights.length, room_revenue: roomRevenue, cancellations: 0 });
}

describe("early and late departures: the folio, the reservation, the calendar, availability and every report agree", () => {
  it("an early departure gives back the unused nights and charges the plan's fee; a late one sells and charges the nights stayed", async () => {
    // Early: booked 4 nights from today (T), leaves on T+2 having slept T and T+1.
    const early = await hotelWith(2, { early_departure_fee: { type: "nights", nights: 1 } });
    const T = early.today;
    const a = ok(await book(early, T, addDays(T, 4)), 201);
    ok(await act(a.id, "check_in"));
    await setBusinessDate(early, addDays(T, 2));
    // 2 nights kept (20,000) + the fee of one night given back (10,000) = 30,000 due after the change;
    // 10,000 short: refused, and nothing changed.
    ok(await pay(a.id, 20_000), 201);
    expectError(await act(a.id, "check_out"), 409, "balance_outstanding");
    await assertAgreement(early, a.id, {
      checkOut: addDays(T, 4), nights: [T, addDays(T, 1), addDays(T, 2), addDays(T, 3)], roomCharges: 40_000, fees: {},
      sold: [1, 1, 1, 1], from: T, to: addDays(T, 4), rooms: 2,
    });
    ok(await pay(a.id, 10_000), 201);
    const out = ok(await act(a.id, "check_out"));
    expect(out).toMatchObject({ status: "checked_out", check_out: addDays(T, 2), nights: 2 });
    expect(await folioOf(a.id)).toMatchObject({ status: "closed", balance: { amount: 0 } });
    await assertAgreement(early, a.id, {
      checkOut: addDays(T, 2), nights: [T, addDays(T, 1)], roomCharges: 20_000, fees: { early_departure_fee: 10_000 },
      sold: [1, 1, 0, 0], from: T, to: addDays(T, 4), rooms: 2,
    });

    // Late: booked one night (T), still in house until T+3: the audits of T+1 and T+2 sell and
    // charge those nights (issue 35: nothing posts into a closed day afterwards).
    const late = await hotelWith(2);
    const b = ok(await book(late, T, addDays(T, 1)), 201);
    ok(await act(b.id, "check_in"));
    for (const day of [T, addDays(T, 1), addDays(T, 2)]) await runNightAudit({ db: h.db, propertyId: late.propertyId, trigger: "scheduled", date: day });
    late.businessDate = addDays(T, 3);
    ok(await pay(b.id, 30_000), 201);
    const left = ok(await act(b.id, "check_out"));
    expect(left).toMatchObject({ status: "checked_out", check_out: addDays(T, 3), nights: 3, total: { amount: 30_000 } });
    expect(await folioOf(b.id)).toMatchObject({ status: "closed", balance: { amount: 0 } });
    await assertAgreement(late, b.id, {
      checkOut: addDays(T, 3), nights: [T, addDays(T, 1), addDays(T, 2)], roomCharges: 30_000, fees: {},
      sold: [1, 1, 1, 0], from: T, to: addDays(T, 4), rooms: 2,
    });
  });

  it("leaving on the arrival day keeps the arrival night and gives back the rest; a percentage fee is taken on the nights given back", async () => {
    const hotel = await hotelWith(1, { early_departure_fee: { type: "percent", percent: 25 } });
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 3)), 201);
    ok(await act(r.id, "check_in"));
    // Kept: T (10,000). Given back: T+1, T+2 (20,000); 25 % of it = 5,000.
    ok(await pay(r.id, 15_000), 201);
    expect(ok(await act(r.id, "check_out"))).toMatchObject({ check_out: addDays(T, 1), nights: 1, total: { amount: 10_000 } });
    await assertAgreement(hotel, r.id, { checkOut: addDays(T, 1), nights: [T], roomCharges: 10_000, fees: { early_departure_fee: 5_000 }, sold: [1, 0, 0], from: T, to: addDays(T, 3), rooms: 1 });
  });
});

describe("POST /v1/reservations/{id}/change_departure", () => {
  it("shortens a stay in house (fee once), then extends it, priced and sold like a booking", async () => {
    const hotel = await hotelWith(2, { early_departure_fee: { type: "fixed", amount: 2_500 } });
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 5)), 201);
    expectError(await act(r.id, "change_departure", { check_out: addDays(T, 3) }), 409, "invalid_state_transition"); // not in house yet
    ok(await act(r.id, "check_in"));
    const shorter = ok(await act(r.id, "change_departure", { check_out: addDays(T, 3) }));
    expect(shorter).toMatchObject({ status: "checked_in", check_out: addDays(T, 3), nights: 3, total: { amount: 30_000 } });
    // Shorter again: no second fee.
    ok(await act(r.id, "change_departure", { check_out: addDays(T, 2) }));
    await assertAgreement(hotel, r.id, { checkOut: addDays(T, 2), nights: [T, addDays(T, 1)], roomCharges: 20_000, fees: { early_departure_fee: 2_500 }, sold: [1, 1, 0, 0, 0], from: T, to: addDays(T, 5), rooms: 2 });
    // Extended to T+4: two nights more at the plan's rate.
    const longer = ok(await act(r.id, "change_departure", { check_out: addDays(T, 4) }));
    expect(longer).toMatchObject({ check_out: addDays(T, 4), nights: 4, total: { amount: 40_000 } });
    await assertAgreement(hotel, r.id, {
      checkOut: addDays(T, 4), nights: [T, addDays(T, 1), addDays(T, 2), addDays(T, 3)], roomCharges: 40_000, fees: { early_departure_fee: 2_500 },
      sold: [1, 1, 1, 1, 0], from: T, to: addDays(T, 5), rooms: 2,
    });
    // Not before today, nor before the arrival night is over; not the same date.
    expectError(await act(r.id, "change_departure", { check_out: T }), 422, "parameter_invalid", "check_out");
    expectError(await act(r.id, "change_departure", { check_out: addDays(T, 4) }), 422, "parameter_invalid", "check_out");
    await setBusinessDate(hotel, addDays(T, 2));
    expectError(await act(r.id, "change_departure", { check_out: addDays(T, 1) }), 422, "parameter_invalid", "check_out");
    // Nights without a rate cannot be sold.
    expectError(await act(r.id, "change_departure", { check_out: addDays(T, 31) }), 409, "restriction_violated");
  });

  it("refuses an extension when the room type is full, and changes nothing; a closed night is not sold again at check-out", async () => {
    const hotel = await hotelWith(1);
    const T = hotel.today;
    const inHouse = ok(await book(hotel, T, addDays(T, 1)), 201);
    ok(await act(inHouse.id, "check_in"));
    const next = ok(await book(hotel, addDays(T, 1), addDays(T, 2), "grace@example.com"), 201);
    const before = await footprint(hotel);
    expectError(await act(inHouse.id, "change_departure", { check_out: addDays(T, 2) }), 409, "no_availability");
    expect(await footprint(hotel)).toEqual(before);
    // Once T+1 is closed (the business date moved past it), its night is not sold again: the
    // check-out leaves on the booked date and the next guest keeps the room's night (issue 35).
    await setBusinessDate(hotel, addDays(T, 2));
    ok(await pay(inHouse.id, 10_000), 201);
    expect(ok(await act(inHouse.id, "check_out"))).toMatchObject({ status: "checked_out", check_out: addDays(T, 1) });
    expect(ok(await h.get(`/v1/reservations/${next.id}`, caller)).status).toBe("confirmed");
    expect((await inventoryOf(h, caller, hotel.propertyId, hotel.type.roomTypeId, addDays(T, 1), addDays(T, 2))).get(addDays(T, 1))?.sold).toBe(1);
  });

  it("a blank or malformed body changes nothing", async () => {
    const hotel = await hotelWith(1);
    const r = ok(await book(hotel, hotel.today, addDays(hotel.today, 2)), 201);
    ok(await act(r.id, "check_in"));
    const before = await footprint(hotel);
    const path = `${h.baseUrl}/v1/reservations/${r.id}/change_departure`;
    const raw = (body: string, type = "application/json") =>
      fetch(path, { method: "POST", headers: { authorization: `Bearer ${caller.token}`, "content-type": type }, body }).then(async (res) => ({ status: res.status, json: await res.json() }));
    for (const body of ["", " \n", "{}"]) expect((await raw(body)).json.error.code).toBe("parameter_missing");
    expect((await raw("\x0b")).json.error.code).toBe("invalid_json");
    expect((await raw("{\"check_out\":")).json.error.code).toBe("invalid_json");
    expect((await raw("{}", "text/plain")).status).toBe(415);
    expectError(await act(r.id, "change_departure", { check_out: "tomorrow" }), 422, "parameter_invalid", "check_out");
    expectError(await act(r.id, "change_departure", { check_out: addDays(hotel.today, 3), nights: 3 }), 422, "parameter_unknown", "nights");
    expectError(await act(r.id, "change_departure", { check_out: null }), 422, "parameter_invalid", "check_out");
    expectError(await act("res_nope", "change_departure", { check_out: addDays(hotel.today, 3) }), 404, "resource_missing", "id");
    expect(await footprint(hotel)).toEqual(before);
  });
});

describe("no-shows by staff, from the arrival night's audit hour, with the plan's fee", () => {
  it("is refused while the arrival night runs, then replaces the room charges by the fee", async () => {
    const hotel = await hotelWith(2, { no_show_fee: { type: "percent", percent: 50 } });
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 2)), 201);
    // Today is the arrival date and its audit hour (03:00 tomorrow) has not come.
    expectError(await act(r.id, "no_show"), 409, "invalid_state_transition");
    await setBusinessDate(hotel, addDays(T, 1));
    expect(ok(await act(r.id, "no_show")).status).toBe("no_show");
    // 50 % of the two nights booked (20,000) = 10,000, the only line left.
    const folio = await folioOf(r.id);
    expect(folio.charges.map((c: { kind: string; amount: { amount: number } }) => [c.kind, c.amount.amount])).toEqual([["no_show_fee", 10_000]]);
    // The fee is invoiced when it is posted, and is owed (a receivable).
    expect(folio).toMatchObject({ status: "closed", balance: { amount: 10_000 } });
    expect(folio.invoice_id).toMatch(/^inv_/);
    expect([...(await inventoryOf(h, caller, hotel.propertyId, hotel.type.roomTypeId, T, addDays(T, 2))).values()].map((n) => n.sold)).toEqual([0, 0]);
  });

  it("without a fee: the whole stay on a non-refundable plan, nothing on a refundable one", async () => {
    const nrf = await hotelWith(1, {}, false);
    const a = ok(await book(nrf, nrf.today, addDays(nrf.today, 3)), 201);
    await setBusinessDate(nrf, addDays(nrf.today, 1));
    ok(await act(a.id, "no_show"));
    expect((await folioOf(a.id)).charges.map((c: { kind: string; amount: { amount: number } }) => [c.kind, c.amount.amount])).toEqual([["no_show_fee", 30_000]]);
    const bar = await hotelWith(1);
    const b = ok(await book(bar, bar.today, addDays(bar.today, 3)), 201);
    await setBusinessDate(bar, addDays(bar.today, 1));
    ok(await act(b.id, "no_show"));
    expect(await folioOf(b.id)).toMatchObject({ charges: [], status: "closed", balance: { amount: 0 } });
  });
});

describe("rate plan fees through /v1/rate_plans", () => {
  it("are set at creation, changed and removed by PATCH, and shown on the plan", async () => {
    const hotel = await hotelWith(1);
    const type = ok(await h.get(`/v1/rate_plans/${hotel.type.ratePlanId}`, caller));
    expect(type).toMatchObject({ early_departure_fee: null, no_show_fee: null, late_check_out_fee: null });
    const created = ok(
      await h.post(
        "/v1/rate_plans",
        { property_id: hotel.propertyId, code: "FEES", name: "With fees", room_type_ids: [hotel.type.roomTypeId], no_show_fee: { type: "nights", nights: 1 }, late_check_out_fee: { type: "fixed", amount: 4_000 } },
        caller,
      ),
      201,
    );
    expect(created).toMatchObject({ early_departure_fee: null, no_show_fee: { type: "nights", nights: 1 }, late_check_out_fee: { type: "fixed", amount: 4_000 } });
    const changed = ok(await h.patch(`/v1/rate_plans/${created.id}`, { early_departure_fee: { type: "percent", percent: 10 }, late_check_out_fee: null }, caller));
    expect(changed).toMatchObject({ early_departure_fee: { type: "percent", percent: 10 }, no_show_fee: { type: "nights", nights: 1 }, late_check_out_fee: null });
  });

  it("refuse malformed fees and change nothing", async () => {
    const hotel = await hotelWith(1, { no_show_fee: { type: "fixed", amount: 1_000 } });
    const path = `/v1/rate_plans/${hotel.type.ratePlanId}`;
    const before = ok(await h.get(path, caller));
    const bad: [unknown, Parameters<typeof expectError>[2], string][] = [
      [{ type: "weekly", amount: 5 }, "parameter_invalid", "no_show_fee.type"],
      [{ type: "percent", percent: 0 }, "parameter_invalid", "no_show_fee.percent"],
      [{ type: "percent", percent: 101 }, "parameter_invalid", "no_show_fee.percent"],
      [{ type: "percent", percent: 12.5 }, "parameter_invalid", "no_show_fee.percent"],
      [{ type: "fixed", amount: -5 }, "parameter_invalid", "no_show_fee.amount"],
      [{ type: "nights" }, "parameter_missing", "no_show_fee.nights"],
      [{ type: "fixed", amount: 5, percent: 3 }, "parameter_unknown", "no_show_fee.percent"],
      ["50%", "parameter_invalid", "no_show_fee"],
    ];
    for (const [fee, code, param] of bad) expectError(await h.patch(path, { no_show_fee: fee }, caller), 422, code, param);
    expect(ok(await h.get(path, caller))).toEqual(before);
  });
});

/** Rows of a property's stays, folios, charges, inventory and events: any change shows. */
async function footprint(hotel: Hotel) {
  const digest = async (query: ReturnType<typeof sql>) => rowsOf<{ d: string }>(await h.db.execute(query))[0].d;
  return {
    reservations: await digest(sql`select md5(coalesce(string_agg(r::text, '|' order by r.id), '')) as d from reservations r where r.property_id = ${hotel.propertyId}`),
    charges: await digest(
      sql`select md5(coalesce(string_agg(c::text, '|' order by c.id), '')) as d from folio_charges c join folios f on f.id = c.folio_id where f.property_id = ${hotel.propertyId}`,
    ),
    folios: await digest(sql`select md5(coalesce(string_agg(f::text, '|' order by f.id), '')) as d from folios f where f.property_id = ${hotel.propertyId}`),
    nights: await digest(sql`select md5(coalesce(string_agg(n::text, '|' order by n.room_type_id, n.date), '')) as d from inventory_nights n where n.property_id = ${hotel.propertyId}`),
    events: await digest(sql`select count(*)::text as d from events e where e.property_id = ${hotel.propertyId}`),
  };
}

describe("in house: room moves and late check-out", () => {
  it("moves a guest to another ready room: the old one turns dirty, the history is kept; anything else changes nothing", async () => {
    const hotel = await hotelWith(3);
    const [first, second, third] = hotel.type.roomIds;
    const r = ok(await book(hotel, hotel.today, addDays(hotel.today, 2)), 201);
    ok(await act(r.id, "check_in", { room_id: first }));
    const before = await footprint(hotel);
    await h.db.execute(sql`update rooms set housekeeping_status = 'dirty' where id = ${third}`);
    const dirtyBefore = await footprint(hotel);
    expectError(await act(r.id, "move_room", { room_id: first }), 422, "parameter_invalid", "room_id"); // already there
    expectError(await act(r.id, "move_room", { room_id: third }), 422, "parameter_invalid", "room_id"); // dirty
    expectError(await act(r.id, "move_room", { room_id: "room_nope" }), 404, "resource_missing", "room_id");
    expectError(await act(r.id, "move_room", {}), 422, "parameter_missing", "room_id");
    expectError(await act(r.id, "move_room", { room_id: second, floor: 2 }), 422, "parameter_unknown", "floor");
    expect(await footprint(hotel)).toEqual(dirtyBefore);
    expect(before.reservations).toEqual(dirtyBefore.reservations);

    const moved = ok(await act(r.id, "move_room", { room_id: second, reason: "Noisy air conditioning" }));
    expect(moved).toMatchObject({ status: "checked_in", room_id: second });
    expect(ok(await h.get(`/v1/rooms/${first}`, caller))).toMatchObject({ occupied: false, housekeeping_status: "dirty" });
    expect(ok(await h.get(`/v1/rooms/${second}`, caller))).toMatchObject({ occupied: true, housekeeping_status: "clean" });
    const history = ok(await h.get(`/v1/reservations/${r.id}/room_moves`, caller));
    expect(history.data).toMatchObject([{ object: "room_move", reservation_id: r.id, from_room_id: first, to_room_id: second, reason: "Noisy air conditioning" }]);
    // The folio and the nights are untouched by a move.
    await assertAgreement(hotel, r.id, { checkOut: addDays(hotel.today, 2), nights: [hotel.today, addDays(hotel.today, 1)], roomCharges: 20_000, fees: {}, sold: [1, 1], from: hotel.today, to: addDays(hotel.today, 2), rooms: 3 });
    // A confirmed stay has no room to move from.
    const later = ok(await book(hotel, addDays(hotel.today, 1), addDays(hotel.today, 2), "grace@example.com"), 201);
    expectError(await act(later.id, "move_room", { room_id: first }), 409, "invalid_state_transition");
  });

  it("grants a late check-out on the departure day with the plan's fee, once", async () => {
    const hotel = await hotelWith(1, { late_check_out_fee: { type: "percent", percent: 50 } });
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 2)), 201);
    ok(await act(r.id, "check_in"));
    expectError(await act(r.id, "late_check_out"), 409, "invalid_state_transition"); // not the departure day
    await setBusinessDate(hotel, addDays(T, 2));
    ok(await act(r.id, "late_check_out"));
    expectError(await act(r.id, "late_check_out"), 409, "invalid_state_transition");
    // 50 % of the last night (10,000) = 5,000.
    expect(Object.fromEntries((await folioOf(r.id)).charges.filter((c: { kind: string }) => c.kind.endsWith("_fee")).map((c: { kind: string; amount: { amount: number } }) => [c.kind, c.amount.amount]))).toEqual({ late_check_out_fee: 5_000 });
    expectError(await act(r.id, "late_check_out", { late: true }), 422, "parameter_unknown", "late");
  });
});
