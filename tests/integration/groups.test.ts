import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { auditLog, groups, properties, rooms } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { addDays, type IsoDate } from "@/lib/dates";
import { TRPCError } from "@trpc/server";
import { apiErrorOf } from "@/server/trpc/errors";
import { createCaller } from "@/server/trpc/routers/_app";
import { staffErrorMessage } from "@/lib/words";
import { guestFieldError } from "@/components/reservations/guest-errors";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { countEvents, eventsFor, inventoryOf, liveHotel, ok, type Caller } from "../support/hotel";

// Issue 27, item 2: an upgrade with or without a charge, and several rooms in one booking (a
// group: one guest or one per room, one folio each or a master folio, room by room). Item 1: the
// property's night-audit hour and walk-in rule, editable. Every amount below is worked out by hand
// from the rates the test loads: Standard 10,000 a night, Deluxe 15,000, Suite (not on the plan).

let h: Harness;
let caller: Caller;
let code = 0;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

const STANDARD = 10_000;
const DELUXE = 15_000;

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { standard: string; deluxe: string; suite: string; plan: string; roomsOf: Record<string, string[]> };

/** A fresh property: Standard (`standardRooms`), Deluxe (`deluxeRooms`), Suite (1 room, sleeps 4); one refundable plan on Standard and Deluxe. */
async function hotelWith(standardRooms: number, deluxeRooms: number): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const roomsOf: Record<string, string[]> = {};
  const type = async (name: string, count: number, max: number) => {
    const t = ok(await h.post("/v1/room_types", { property_id: hotel.propertyId, code: `G${++code}`, name, max_occupancy: max }, caller), 201);
    roomsOf[t.id] = [];
    for (let i = 0; i < count; i++) roomsOf[t.id].push(ok(await h.post("/v1/rooms", { room_type_id: t.id, number: `G${++code}`, floor: 1 }, caller), 201).id);
    return t.id as string;
  };
  const standard = await type("Standard", standardRooms, 2);
  const deluxe = await type("Deluxe", deluxeRooms, 2);
  const suite = await type("Suite", 1, 4);
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where property_id = ${hotel.propertyId}`);
  const plan = ok(
    await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: `P${++code}`, name: "Flexible", room_type_ids: [standard, deluxe], refundable: true, cancellation_deadline_hours: 24 }, caller),
    201,
  ).id as string;
  for (const [roomType, amount] of [[standard, STANDARD], [deluxe, DELUXE]] as const) {
    ok(await h.post(`/v1/rate_plans/${plan}/rates`, { room_type_id: roomType, from: hotel.today, to: addDays(hotel.today, 30), amount }, caller));
  }
  return { ...hotel, standard, deluxe, suite, plan, roomsOf };
}

const guest = (first: string, last = "Lovelace") => ({ first_name: first, last_name: last, email: `${first.toLowerCase()}.${last.toLowerCase()}@example.com` });
const book = (hotel: Hotel, roomType: string, from: IsoDate, to: IsoDate, who = guest("Ada")) =>
  h.post("/v1/reservations", { property_id: hotel.propertyId, guest: who, check_in: from, check_out: to, room_type_id: roomType, rate_plan_id: hotel.plan, adults: 1 }, caller);
const act = (id: string, action: string, body: unknown = {}) => h.post(`/v1/reservations/${id}/${action}`, body, caller);
const folioOf = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, caller));
const roomCharges = (folio: { charges: { kind: string; amount: { amount: number }; description: string; date: string }[] }) => folio.charges.filter((c) => c.kind === "room_night");
const soldOf = async (hotel: Hotel, roomType: string, from: IsoDate, to: IsoDate) => [...(await inventoryOf(h, caller, hotel.propertyId, roomType, from, to)).values()].map((n) => n.sold);
const setBusinessDate = (hotel: Hotel, date: IsoDate) => h.db.update(properties).set({ businessDate: date }).where(eq(properties.id, hotel.propertyId));
const groupBody = (hotel: Hotel, from: IsoDate, to: IsoDate, roomTypes: string[], extra: Record<string, unknown> = {}) => ({
  property_id: hotel.propertyId,
  guest: guest("Ada"),
  check_in: from,
  check_out: to,
  rooms: roomTypes.map((room_type_id) => ({ room_type_id, rate_plan_id: hotel.plan, adults: 1 })),
  ...extra,
});

/** A digest of everything a refused request must leave as it was at the property. */
async function footprint(hotel: Hotel) {
  const digest = async (query: ReturnType<typeof sql>) => rowsOf<{ d: string }>(await h.db.execute(query))[0].d;
  return {
    reservations: await digest(sql`select md5(coalesce(string_agg(r::text, '|' order by r.id), '')) as d from reservations r where r.property_id = ${hotel.propertyId}`),
    charges: await digest(sql`select md5(coalesce(string_agg(c::text, '|' order by c.id), '')) as d from folio_charges c join folios f on f.id = c.folio_id where f.property_id = ${hotel.propertyId}`),
    folios: await digest(sql`select md5(coalesce(string_agg(f::text, '|' order by f.id), '')) as d from folios f where f.property_id = ${hotel.propertyId}`),
    nights: await digest(sql`select md5(coalesce(string_agg(n::text, '|' order by n.room_type_id, n.date), '')) as d from inventory_nights n where n.property_id = ${hotel.propertyId}`),
    rooms: await digest(sql`select md5(coalesce(string_agg(r::text, '|' order by r.id), '')) as d from rooms r where r.property_id = ${hotel.propertyId}`),
    groups: await digest(sql`select md5(coalesce(string_agg(g::text, '|' order by g.id), '')) as d from groups g where g.property_id = ${hotel.propertyId}`),
    properties: await digest(sql`select md5(p::text) as d from properties p where p.id = ${hotel.propertyId}`),
    events: await digest(sql`select count(*)::text as d from events e where e.property_id = ${hotel.propertyId}`),
  };
}

/** A raw POST/PATCH with any body text, for blank and malformed bodies. */
const raw = (method: string, path: string, body: string, type = "application/json") =>
  fetch(`${h.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${caller.token}`, "content-type": type }, body }).then(async (res) => ({ status: res.status, json: await res.json() }));

describe("POST /v1/reservations/{id}/upgrade", () => {
  it("charged: a confirmed stay moves to Deluxe at Deluxe's price; the folio, the total and both types' inventory follow", async () => {
    const hotel = await hotelWith(2, 1);
    const T = hotel.today;
    const r = ok(await book(hotel, hotel.standard, T, addDays(T, 3)), 201);
    expect(r.total.amount).toBe(3 * STANDARD);
    const up = ok(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "difference" }));
    // 3 nights × 15,000 = 45,000: 15,000 more than the 30,000 booked.
    expect(up).toMatchObject({ status: "confirmed", room_type_id: hotel.deluxe, total: { amount: 45_000 }, nights: 3 });
    expect(up.nightly).toEqual([0, 1, 2].map((i) => ({ date: addDays(T, i), amount: DELUXE })));
    const folio = await folioOf(r.id);
    expect(roomCharges(folio).map((c) => c.amount.amount)).toEqual([DELUXE, DELUXE, DELUXE]);
    expect(roomCharges(folio).every((c) => c.description.startsWith("Deluxe (upgraded from Standard)"))).toBe(true);
    expect(folio.balance.amount).toBe(45_000);
    expect(await soldOf(hotel, hotel.standard, T, addDays(T, 3))).toEqual([0, 0, 0]);
    expect(await soldOf(hotel, hotel.deluxe, T, addDays(T, 3))).toEqual([1, 1, 1]);
    expect(await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id && o.room_type_id === hotel.deluxe)).toHaveLength(1);
    const ranges = await eventsFor(h, h.main.account.id, "inventory.updated", (o) => o.property_id === hotel.propertyId && o.from === T && o.to === addDays(T, 3));
    // The booking's range of Standard, then the upgrade's of Standard and Deluxe.
    expect(ranges.map((e) => (e.object as { room_type_id: string }).room_type_id)).toEqual([hotel.standard, hotel.standard, hotel.deluxe]);
    // The reports count the stay's nights under Deluxe at its new price.
    const revenue = ok(await h.get(`/v1/reports/revenue?property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 3)}`, caller));
    expect(revenue.totals.room_revenue).toBe(45_000);
  });

  it("free for a guest in house: the nights from today keep their price, the folio says complimentary, the guest moves to a Deluxe room", async () => {
    const hotel = await hotelWith(2, 1);
    const T = hotel.today;
    const [first] = hotel.roomsOf[hotel.standard];
    const [deluxeRoom] = hotel.roomsOf[hotel.deluxe];
    const r = ok(await book(hotel, hotel.standard, T, addDays(T, 3)), 201);
    ok(await act(r.id, "check_in", { room_id: first }));
    await setBusinessDate(hotel, addDays(T, 1)); // the night of T was slept in Standard
    const up = ok(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "none" }));
    expect(up).toMatchObject({ status: "checked_in", room_type_id: hotel.deluxe, room_id: deluxeRoom, total: { amount: 30_000 } });
    const charges = roomCharges(await folioOf(r.id));
    expect(charges.map((c) => [c.date, c.amount.amount])).toEqual([[T, STANDARD], [addDays(T, 1), STANDARD], [addDays(T, 2), STANDARD]]);
    expect(charges[0].description).toMatch(/^Standard, Flexible/);
    expect(charges.slice(1).every((c) => c.description.startsWith("Deluxe (complimentary upgrade from Standard)"))).toBe(true);
    expect(await soldOf(hotel, hotel.standard, T, addDays(T, 3))).toEqual([1, 0, 0]);
    expect(await soldOf(hotel, hotel.deluxe, T, addDays(T, 3))).toEqual([0, 1, 1]);
    const [left] = await h.db.select().from(rooms).where(eq(rooms.id, first));
    expect(left).toMatchObject({ occupied: false, housekeepingStatus: "dirty" });
    const moves = ok(await h.get(`/v1/reservations/${r.id}/room_moves`, caller));
    expect(moves.data).toMatchObject([{ from_room_id: first, to_room_id: deluxeRoom, reason: "Upgrade to Deluxe" }]);
    // The API's nights are dates and prices, as before the upgrade.
    expect(up.nightly).toEqual([0, 1, 2].map((i) => ({ date: addDays(T, i), amount: STANDARD })));
    // The production report by room type tells what the inventory does: the night slept in
    // Standard is Standard's, the two after it Deluxe's; the stay is counted once in the total.
    const production = ok(await h.get(`/v1/reports/production?property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 1)}&group_by=room_type`, caller));
    const byType = Object.fromEntries(production.data.map((row: Record<string, unknown>) => [row.group, [row.reservations, row.room_nights, row.room_revenue, row.gross]]));
    expect(byType).toEqual({ [hotel.standard]: [1, 1, STANDARD, STANDARD], [hotel.deluxe]: [1, 2, 2 * STANDARD, 2 * STANDARD] });
    expect(production.totals).toMatchObject({ reservations: 1, room_nights: 3, room_revenue: 3 * STANDARD, gross: 3 * STANDARD });
    // Leaving a night early then gives back a Deluxe night and keeps the one slept in Standard.
    ok(await act(r.id, "change_departure", { check_out: addDays(T, 2) }));
    expect(await soldOf(hotel, hotel.standard, T, addDays(T, 3))).toEqual([1, 0, 0]);
    expect(await soldOf(hotel, hotel.deluxe, T, addDays(T, 3))).toEqual([0, 1, 0]);
    const shorter = ok(await h.get(`/v1/reports/production?property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 1)}&group_by=room_type`, caller));
    expect(Object.fromEntries(shorter.data.map((row: Record<string, unknown>) => [row.group, row.room_nights]))).toEqual({ [hotel.standard]: 1, [hotel.deluxe]: 1 });
  });

  it("is refused when the target type is full, and for anything else it cannot do; nothing changes", async () => {
    const hotel = await hotelWith(2, 1);
    const T = hotel.today;
    const r = ok(await book(hotel, hotel.standard, T, addDays(T, 3)), 201);
    ok(await book(hotel, hotel.deluxe, addDays(T, 2), addDays(T, 4), guest("Grace", "Hopper")), 201); // Deluxe's one room is sold on T+2
    const before = await footprint(hotel);
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "difference" }), 409, "no_availability", "room_type_id");
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "none" }), 409, "no_availability", "room_type_id");
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.standard, charge: "none" }), 422, "parameter_invalid", "room_type_id"); // already
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.suite, charge: "difference" }), 422, "parameter_invalid", "room_type_id"); // not on the plan
    expectError(await act(r.id, "upgrade", { room_type_id: "rt_nope", charge: "none" }), 404, "resource_missing", "room_type_id");
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.suite, charge: "none", room_id: hotel.roomsOf[hotel.suite][0] }), 422, "parameter_invalid", "room_id"); // not in house
    expect(await footprint(hotel)).toEqual(before);
    // A suite on no plan, free of charge: fine, at the old price.
    expect(ok(await act(r.id, "upgrade", { room_type_id: hotel.suite, charge: "none" }))).toMatchObject({ room_type_id: hotel.suite, total: { amount: 30_000 } });
    ok(await act(r.id, "cancel"));
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "none" }), 409, "invalid_state_transition");
  });

  it("a blank or malformed body changes nothing", async () => {
    const hotel = await hotelWith(1, 1);
    const r = ok(await book(hotel, hotel.standard, hotel.today, addDays(hotel.today, 2)), 201);
    const before = await footprint(hotel);
    const path = `/v1/reservations/${r.id}/upgrade`;
    for (const body of ["", " \n", "{}"]) expect((await raw("POST", path, body)).json.error.code).toBe("parameter_missing");
    expect((await raw("POST", path, "{\"room_type_id\":")).json.error.code).toBe("invalid_json");
    expect((await raw("POST", path, "{}", "text/plain")).status).toBe(415);
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.deluxe }), 422, "parameter_missing", "charge");
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "half" }), 422, "parameter_invalid", "charge");
    expectError(await act(r.id, "upgrade", { room_type_id: hotel.deluxe, charge: "none", price: 1 }), 422, "parameter_unknown", "price");
    expectError(await act(r.id, "upgrade", { room_type_id: 7, charge: "none" }), 422, "parameter_invalid", "room_type_id");
    expect(await footprint(hotel)).toEqual(before);
  });
});

describe("groups: several rooms in one booking", () => {
  it("books 3 rooms atomically on one master folio; refuses the whole group when one type is full, changing nothing", async () => {
    const hotel = await hotelWith(2, 2);
    const T = addDays(hotel.today, 2);
    const created = ok(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 2), [hotel.standard, hotel.deluxe, hotel.standard]), caller), 201);
    expect(created).toMatchObject({ object: "group", billing: "master", name: "Lovelace group", check_in: T, check_out: addDays(T, 2) });
    // 2 nights × (10,000 + 15,000 + 10,000) = 70,000.
    expect(created.total.amount).toBe(70_000);
    expect(created.reservations.map((r: { room_type_id: string }) => r.room_type_id)).toEqual([hotel.standard, hotel.deluxe, hotel.standard]);
    expect(created.reservations.every((r: { group_id: string; folio_id: string; status: string }) => r.group_id === created.id && r.folio_id === created.master_folio_id && r.status === "confirmed")).toBe(true);
    const master = await folioOf(created.reservations[1].id);
    expect(master.id).toBe(created.master_folio_id);
    expect(roomCharges(master)).toHaveLength(6);
    expect(master.balance.amount).toBe(70_000);
    expect(await soldOf(hotel, hotel.standard, T, addDays(T, 2))).toEqual([2, 2]);
    expect(await soldOf(hotel, hotel.deluxe, T, addDays(T, 2))).toEqual([1, 1]);
    expect(ok(await h.get(`/v1/groups/${created.id}`, caller))).toEqual(created);
    expect(await eventsFor(h, h.main.account.id, "group.created", (o) => o.id === created.id)).toHaveLength(1);
    expect(await eventsFor(h, h.main.account.id, "reservation.created", (o) => o.group_id === created.id)).toHaveLength(3);

    // Standard is now full over [T, T+2): a group asking for one more Standard is refused whole.
    const before = await footprint(hotel);
    // Deluxe has a room left and is asked for first: its sale is undone with the rest.
    const refused = await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 1), [hotel.deluxe, hotel.standard]), caller);
    expectError(refused, 409, "no_availability", "rooms.1.room_type_id");
    expect(await footprint(hotel)).toEqual(before);
    expect(await soldOf(hotel, hotel.deluxe, T, addDays(T, 1))).toEqual([1]);
    // A room's own field at fault is named with its index.
    expectError(
      await h.post("/v1/groups", { ...groupBody(hotel, T, addDays(T, 1), [hotel.suite, hotel.deluxe]), rooms: [{ room_type_id: hotel.suite, rate_plan_id: hotel.plan, adults: 1 }, { room_type_id: hotel.deluxe, rate_plan_id: hotel.plan, adults: 1 }] }, caller),
      422,
      "parameter_invalid",
      "rooms.0.rate_plan_id",
    );
    expect(await footprint(hotel)).toEqual(before);
  });

  it("cancelling one room releases only its nights, and the master folio drops by exactly its charges", async () => {
    const hotel = await hotelWith(2, 1);
    const T = addDays(hotel.today, 3); // beyond the 24-hour deadline: a free cancellation
    const group = ok(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 3), [hotel.standard, hotel.deluxe]), caller), 201);
    const [standardRoom, deluxeRoom] = group.reservations;
    // 3 × 10,000 + 3 × 15,000 = 75,000; 20,000 paid on the master.
    ok(await h.post("/v1/payments", { reservation_id: standardRoom.id, amount: 20_000, payment_method: { type: "cash" } }, caller), 201);
    expect((await folioOf(deluxeRoom.id)).balance.amount).toBe(55_000);
    expect(ok(await act(deluxeRoom.id, "cancel"))).toMatchObject({ status: "cancelled", group_id: group.id });
    const master = await folioOf(standardRoom.id);
    expect(master).toMatchObject({ status: "open", balance: { amount: 55_000 - 3 * DELUXE } });
    expect(roomCharges(master).map((c) => c.amount.amount)).toEqual([STANDARD, STANDARD, STANDARD]);
    expect(await soldOf(hotel, hotel.deluxe, T, addDays(T, 3))).toEqual([0, 0, 0]);
    expect(await soldOf(hotel, hotel.standard, T, addDays(T, 3))).toEqual([1, 1, 1]);
    expect(ok(await h.get(`/v1/groups/${group.id}`, caller)).total.amount).toBe(30_000);
    // Cancelling the group cancels what is still confirmed; then there is nothing left to cancel.
    const cancelled = ok(await h.post(`/v1/groups/${group.id}/cancel`, { reason: "Conference moved" }, caller));
    expect(cancelled.reservations.map((r: { status: string }) => r.status)).toEqual(["cancelled", "cancelled"]);
    expect(await soldOf(hotel, hotel.standard, T, addDays(T, 3))).toEqual([0, 0, 0]);
    expect((await folioOf(standardRoom.id)).balance.amount).toBe(-20_000); // the deposit, owed back
    expect(await eventsFor(h, h.main.account.id, "group.cancelled", (o) => o.id === group.id)).toHaveLength(1);
    expectError(await h.post(`/v1/groups/${group.id}/cancel`, {}, caller), 409, "invalid_state_transition");
  });

  it("checks in room by room; on a master folio a room leaves unsettled and the last one settles it", async () => {
    const hotel = await hotelWith(2, 1);
    const T = hotel.today;
    const group = ok(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe]), caller), 201);
    const [a, b] = group.reservations;
    expect(ok(await act(a.id, "check_in"))).toMatchObject({ status: "checked_in" });
    expect(ok(await h.get(`/v1/reservations/${b.id}`, caller)).status).toBe("confirmed");
    ok(await act(b.id, "check_in"));
    await setBusinessDate(hotel, addDays(T, 1));
    // The master holds 10,000 + 15,000; the first room leaves without settling it.
    expect(ok(await act(a.id, "check_out"))).toMatchObject({ status: "checked_out" });
    expect(await folioOf(b.id)).toMatchObject({ status: "open", balance: { amount: 25_000 } });
    expectError(await act(b.id, "check_out"), 409, "balance_outstanding");
    ok(await h.post("/v1/payments", { reservation_id: b.id, payment_method: { type: "cash" } }, caller), 201);
    ok(await act(b.id, "check_out"));
    expect(await folioOf(a.id)).toMatchObject({ status: "closed", balance: { amount: 0 } });
  });

  it("individual billing: one folio each with its own room's charges, and one guest per room", async () => {
    const hotel = await hotelWith(2, 1);
    const T = addDays(hotel.today, 1);
    const body = groupBody(hotel, T, addDays(T, 2), [hotel.standard, hotel.deluxe], { billing: "individual", name: "Hopper wedding" });
    body.rooms[1] = { ...body.rooms[1], guest: guest("Grace", "Hopper") } as (typeof body.rooms)[number];
    const group = ok(await h.post("/v1/groups", body, caller), 201);
    expect(group).toMatchObject({ billing: "individual", master_folio_id: null, name: "Hopper wedding" });
    const [a, b] = group.reservations;
    expect(a.folio_id).not.toBe(b.folio_id);
    expect([a.guest.first_name, b.guest.first_name]).toEqual(["Ada", "Grace"]);
    expect(roomCharges(await folioOf(a.id)).map((c) => c.amount.amount)).toEqual([STANDARD, STANDARD]);
    expect((await folioOf(b.id)).balance.amount).toBe(2 * DELUXE);
    const list = ok(await h.get(`/v1/groups?property_id=${hotel.propertyId}`, caller));
    expect(list.data.map((g: { id: string }) => g.id)).toEqual([group.id]);
  });

  it("blank or malformed bodies to the group operations change nothing", async () => {
    const hotel = await hotelWith(2, 1);
    const T = addDays(hotel.today, 1);
    const group = ok(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe]), caller), 201);
    const before = await footprint(hotel);
    for (const body of ["", " \n", "{}"]) expect((await raw("POST", "/v1/groups", body)).json.error.code).toBe("parameter_missing");
    expect((await raw("POST", "/v1/groups", "{\"rooms\":[")).json.error.code).toBe("invalid_json");
    expect((await raw("POST", "/v1/groups", "{}", "text/plain")).status).toBe(415);
    expect((await raw("POST", `/v1/groups/${group.id}/cancel`, "{\"reason\":")).json.error.code).toBe("invalid_json");
    expectError(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 1), [hotel.standard]), caller), 422, "parameter_invalid", "rooms");
    expectError(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe], { billing: "split" }), caller), 422, "parameter_invalid", "billing");
    expectError(await h.post("/v1/groups", { ...groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe]), rooms: [{ room_type_id: hotel.standard, rate_plan_id: hotel.plan }, { room_type_id: hotel.deluxe, rate_plan_id: hotel.plan, adults: 1 }] }, caller), 422, "parameter_missing", "rooms.0.adults");
    expectError(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe], { color: "red" }), caller), 422, "parameter_unknown", "color");
    expectError(await h.post("/v1/groups", groupBody(hotel, addDays(T, 1), T, [hotel.standard, hotel.deluxe]), caller), 422, "parameter_invalid");
    expectError(await h.post(`/v1/groups/${group.id}/cancel`, { reason: "" }, caller), 422, "parameter_invalid", "reason");
    expectError(await h.post(`/v1/groups/${group.id}/cancel`, { everything: true }, caller), 422, "parameter_unknown", "everything");
    expectError(await h.post("/v1/groups/grp_nope/cancel", {}, caller), 404, "resource_missing", "id");
    expectError(await h.get("/v1/groups/grp_nope", caller), 404, "resource_missing", "id");
    expect(await footprint(hotel)).toEqual(before);
  });
});

describe("groups: a guest for each room, and the price as the folios charge it", () => {
  const as = (role: StaffRole) =>
    createCaller({
      db: h.db,
      session: { user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@groups.example` }, expires: new Date(Date.now() + 3_600_000).toISOString() },
      livemode: true,
    });
  /** VAT 10 % on top of the rate and a city tax of 300 per person per night. */
  const withTaxes = async (hotel: Hotel) => {
    ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 10 }, caller), 201);
    ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "City tax", kind: "per_person_per_night", amount: 300 }, caller), 201);
  };
  const guestsNamed = async (last: string) => rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from guests where last_name = ${last}`))[0].n;
  type Money = { amount: number; currency: string };
  type Price = { net: Money; tax: Money; gross: Money; taxes: { name: string; amount: Money }[] };
  const figures = (p: Price) => ({ net: p.net.amount, tax: p.tax.amount, gross: p.gross.amount, taxes: p.taxes.map((t) => [t.name, t.amount.amount]) });
  /** The gross of the distinct folios the group's rooms bill to. */
  const foliosGross = async (reservationIds: string[]) => {
    const folios = new Map<string, number>();
    for (const id of reservationIds) {
      const f = await folioOf(id);
      folios.set(f.id, f.totals.gross.amount);
    }
    return [...folios.values()].reduce((a, b) => a + b, 0);
  };

  it("the desk books three rooms each with its own guest: each reservation has its guest, the first names the group", async () => {
    const hotel = await hotelWith(2, 1);
    const T = addDays(hotel.today, 1);
    const input = groupBody(hotel, T, addDays(T, 2), [hotel.standard, hotel.deluxe, hotel.standard], { billing: "individual", source: "phone" });
    const people = [guest("Ada", "Byron"), guest("Grace", "Hopper"), guest("Katherine", "Johnson")];
    input.guest = people[0];
    input.rooms = input.rooms.map((room, i) => ({ ...room, guest: people[i] }));
    const group = await as("front_desk").groups.create(input as never);
    expect(group.name).toBe("Byron group");
    expect(group.reservations.map((r) => [r.guest.first_name, r.guest.last_name, r.guest.email])).toEqual(people.map((p) => [p.first_name, p.last_name, p.email]));
    expect(new Set(group.reservations.map((r) => r.guest.id)).size).toBe(3);
    expect(new Set(group.reservations.map((r) => r.folio_id)).size).toBe(3);
    // /v1 and the group page say the same; each guest was created once and announced.
    expect(ok(await h.get(`/v1/groups/${group.id}`, caller)).reservations.map((r: { guest: { last_name: string } }) => r.guest.last_name)).toEqual(["Byron", "Hopper", "Johnson"]);
    const desk = await as("front_desk").groups.desk({ id: group.id });
    expect(desk.rooms.map((r) => r.reservation.guest.last_name)).toEqual(["Byron", "Hopper", "Johnson"]);
    for (const p of people) {
      expect(await guestsNamed(p.last_name)).toBe(1);
      expect(await eventsFor(h, h.main.account.id, "guest.created", (o) => o.email === p.email)).toHaveLength(1);
    }
    // A guest on file is matched by e-mail, as a single booking would: booking Hopper again adds no guest.
    const again = groupBody(hotel, addDays(T, 3), addDays(T, 4), [hotel.standard, hotel.standard]);
    again.rooms = again.rooms.map((room, i) => ({ ...room, guest: [people[1], guest("Mary", "Jackson")][i] }));
    const second = await as("front_desk").groups.create(again as never);
    expect(second.reservations[0].guest.id).toBe(group.reservations[1].guest.id);
    expect(await guestsNamed("Hopper")).toBe(1);
    const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, group.id), eq(auditLog.action, "group.created")));
    expect(entry.after).toMatchObject({ reservations: [{ guest: { last_name: "Byron" } }, { guest: { last_name: "Hopper" } }, { guest: { last_name: "Johnson" } }] });
  });

  it("a wrong guest on one room is refused at that room's field and nothing is booked", async () => {
    const hotel = await hotelWith(2, 1);
    const T = addDays(hotel.today, 1);
    const before = await footprint(hotel);
    const guestsBefore = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from guests`))[0].n;
    const withRoomGuest = (i: number, who: Record<string, unknown>) => {
      const input = groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe, hotel.standard], { source: "phone" });
      input.rooms = input.rooms.map((room, k) => ({ ...room, guest: k === i ? who : guest(`Room${k}`, "Valid") }));
      return input;
    };
    const refused = async (input: unknown, index = 1) => {
      const error = await as("front_desk").groups.create(input as never).then(
        () => null,
        (e: TRPCError) => e,
      );
      expect(error).toBeInstanceOf(TRPCError);
      // The contract error the dashboard receives (the error formatter's), and its staff words.
      const api = apiErrorOf(error!, input)!;
      const shown = guestFieldError({ param: api.param ?? null, message: staffErrorMessage({ code: api.code, param: api.param ?? null, message: api.message }, { money: (m) => String(m.amount), day: (d) => d }) }, `rooms.${index}.guest.`);
      return { code: api.code, param: api.param, shown };
    };
    // Invalid e-mail on room 2, a blank last name on room 3, no e-mail at all on room 2 (not a walk-in).
    // Each is shown at that room's field in the desk's words, without the API's names.
    expect(await refused(withRoomGuest(1, { first_name: "Grace", last_name: "Hopper", email: "not-an-email" }))).toEqual({
      code: "parameter_invalid",
      param: "rooms.1.guest.email",
      shown: { field: "email", message: "Not an e-mail address." },
    });
    expect(await refused(withRoomGuest(2, { first_name: "Grace", last_name: " ", email: "grace@example.com" }), 2)).toEqual({
      code: "parameter_invalid",
      param: "rooms.2.guest.last_name",
      shown: { field: "last_name", message: "Required." },
    });
    expect(await refused(withRoomGuest(1, { first_name: "Grace", last_name: "Hopper" }))).toEqual({
      code: "parameter_missing",
      param: "rooms.1.guest.email",
      shown: { field: "email", message: "Required: only a walk-in may come without an e-mail, where the hotel allows it." },
    });
    expect(await refused(withRoomGuest(1, { first_name: "Grace", last_name: "Hopper", email: "grace@example.com", vip: true }))).toMatchObject({ code: "parameter_unknown", param: "rooms.1.guest.vip" });
    // Two rooms at fault: the first is named and shown at its field, without the API's pointer to `errors`.
    const twoWrong = withRoomGuest(1, { first_name: "Grace", last_name: "Hopper", email: "grace@" });
    twoWrong.rooms[2] = { ...twoWrong.rooms[2], guest: { first_name: "Mary", last_name: "Jackson", email: "mary@" } } as (typeof twoWrong.rooms)[number];
    expect(await refused(twoWrong)).toEqual({ code: "parameter_invalid", param: "rooms.1.guest.email", shown: { field: "email", message: "Not an e-mail address." } });
    // The same through /v1.
    expectError(await h.post("/v1/groups", withRoomGuest(1, { first_name: "Grace", last_name: "Hopper" }), caller), 422, "parameter_missing", "rooms.1.guest.email");
    expect(await footprint(hotel)).toEqual(before);
    expect(rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from guests`))[0].n).toBe(guestsBefore);
    expect(await guestsNamed("Valid")).toBe(0);
  });

  it("/v1/groups states the price as the folios charge it: net, tax and gross, the sum of the rooms' folios", async () => {
    const hotel = await hotelWith(4, 2);
    await withTaxes(hotel);
    const T = addDays(hotel.today, 3); // beyond the 24-hour deadline: a free cancellation
    // Per room, 2 nights for one adult: Standard 20,000 + VAT 2,000 + city tax 600 = 22,600;
    // Deluxe 30,000 + 3,000 + 600 = 33,600. The three rooms: 70,000 net, 8,800 tax, 78,800.
    const expected = { net: 70_000, tax: 8_800, gross: 78_800, taxes: [["VAT", 7_000], ["City tax", 1_800]] };
    for (const billing of ["individual", "master"]) {
      const created = ok(await h.post("/v1/groups", groupBody(hotel, T, addDays(T, 2), [hotel.standard, hotel.deluxe, hotel.standard], { billing }), caller), 201);
      expect(figures(created.price)).toEqual(expected);
      expect(created.price.gross.currency).toBe("USD");
      expect(created.total.amount).toBe(70_000); // the rates, as loaded
      const ids = created.reservations.map((r: { id: string }) => r.id);
      expect(await foliosGross(ids)).toBe(78_800);
      expect(figures(ok(await h.get(`/v1/groups/${created.id}`, caller)).price)).toEqual(expected);
      const listed = ok(await h.get(`/v1/groups?property_id=${hotel.propertyId}`, caller)).data.find((g: { id: string }) => g.id === created.id);
      expect(listed.price).toEqual(created.price);
      // One Standard room cancelled: its 22,600 leaves the price and the folios alike.
      ok(await act(ids[2], "cancel"));
      const after = ok(await h.get(`/v1/groups/${created.id}`, caller));
      expect(figures(after.price)).toEqual({ net: 50_000, tax: 6_200, gross: 56_200, taxes: [["VAT", 5_000], ["City tax", 1_200]] });
      expect(await foliosGross(ids.slice(0, 2))).toBe(56_200);
      expect((await as("front_desk").groups.desk({ id: created.id })).price).toEqual(after.price);
    }
  });
});

describe("the property's night-audit hour and walk-in rule", () => {
  it("PATCH /v1/properties/{id} sets both, evented; wrong values are refused and change nothing", async () => {
    const hotel = await hotelWith(1, 1);
    const path = `/v1/properties/${hotel.propertyId}`;
    const events = await countEvents(h, h.main.account.id, "property.updated");
    const updated = ok(await h.patch(path, { audit_hour: 5, walk_ins_without_email: true }, caller));
    expect(updated).toMatchObject({ audit_hour: 5, walk_ins_without_email: true });
    expect(ok(await h.get(path, caller))).toMatchObject({ audit_hour: 5, walk_ins_without_email: true });
    expect(await countEvents(h, h.main.account.id, "property.updated")).toBe(events + 1);
    const [event] = await eventsFor(h, h.main.account.id, "property.updated", (o) => o.id === hotel.propertyId);
    expect(event.object).toMatchObject({ audit_hour: 5, walk_ins_without_email: true });
    const before = await footprint(hotel);
    for (const bad of [24, -1, 3.5, "3", null]) expectError(await h.patch(path, { audit_hour: bad }, caller), 422, "parameter_invalid", "audit_hour");
    for (const bad of ["yes", 1, null]) expectError(await h.patch(path, { walk_ins_without_email: bad }, caller), 422, "parameter_invalid", "walk_ins_without_email");
    expect((await raw("PATCH", path, "{\"audit_hour\":")).json.error.code).toBe("invalid_json");
    expect(await footprint(hotel)).toEqual(before);
    // Midnight is an hour like any other.
    expect(ok(await h.patch(path, { audit_hour: 0 }, caller)).audit_hour).toBe(0);
  });
});

describe("the dashboard's procedures: roles and the audit trail", () => {
  const as = (role: StaffRole) =>
    createCaller({
      db: h.db,
      session: { user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@groups.example` }, expires: new Date(Date.now() + 3_600_000).toISOString() },
      livemode: true,
    });

  it("the desk books groups and upgrades, housekeeping cannot; owners and managers set the audit hour, the desk cannot; each change is audited", async () => {
    const hotel = await hotelWith(2, 2);
    const T = addDays(hotel.today, 1);
    const input = groupBody(hotel, T, addDays(T, 1), [hotel.standard, hotel.deluxe]);
    await expect(as("housekeeping").groups.create(input as never)).rejects.toMatchObject({ code: "FORBIDDEN" });
    const group = await as("front_desk").groups.create(input as never);
    expect(group.reservations).toHaveLength(2);
    const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, group.id), eq(auditLog.action, "group.created")));
    expect(entry).toBeTruthy();

    const single = ok(await book(hotel, hotel.standard, T, addDays(T, 2)), 201);
    const upgrade = { id: single.id, room_type_id: hotel.deluxe, charge: "difference" as const };
    await expect(as("housekeeping").reservations.previewUpgrade(upgrade)).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The preview: 2 × 15,000 = 30,000, 10,000 more; nothing kept.
    const before = await footprint(hotel);
    expect(await as("front_desk").reservations.previewUpgrade(upgrade)).toMatchObject({ total: { amount: 30_000 }, difference: { amount: 10_000 }, nights: 2, balance: { amount: 30_000 } });
    expect(await footprint(hotel)).toEqual(before);
    await expect(as("housekeeping").reservations.upgrade(upgrade)).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await as("front_desk").reservations.upgrade(upgrade)).toMatchObject({ room_type_id: hotel.deluxe, total: { amount: 30_000 } });
    const [upgraded] = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, single.id), eq(auditLog.action, "reservation.upgraded")));
    expect(upgraded.before).toMatchObject({ room_type_id: hotel.standard });
    expect(upgraded.after).toMatchObject({ room_type_id: hotel.deluxe });

    await expect(as("front_desk").setup.property.update({ id: hotel.propertyId, audit_hour: 4 })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await as("manager").setup.property.update({ id: hotel.propertyId, audit_hour: 4, walk_ins_without_email: true })).toMatchObject({ audit_hour: 4, walk_ins_without_email: true });
    const trail = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, hotel.propertyId), eq(auditLog.action, "property.updated")));
    expect(trail.at(-1)).toMatchObject({ before: expect.objectContaining({ audit_hour: 3 }), after: expect.objectContaining({ audit_hour: 4 }) });
    const [stored] = await h.db.select().from(groups).where(eq(groups.id, group.id));
    expect(stored.billing).toBe("master");
  });
});
