import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rooms } from "@/db/schema";
import { addDays, nightsOf, todayIn, weekdayOf, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";

// Room types, rooms, rate plans, daily rates, inventory, holds and availability (issue #3), in
// the sandbox of the harness account: its seeded hotel, with room types of the tests' own.

let h: Harness;
let caller: Caller;
let propertyId: string;
let today: IsoDate;
const d = (n: number) => addDays(today, n);

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token, sandbox: true };
  const property = await sandboxProperty(h, h.main.token);
  propertyId = property.id;
  today = todayIn(property.timezone);
});
afterAll(async () => h?.close());

describe("room types and rooms", () => {
  it("creates, reads, updates and lists a room type", async () => {
    const created = ok(await h.post("/v1/room_types", { property_id: propertyId, code: "LOFT", name: "Loft", max_occupancy: 3, amenities: ["wifi"], description: "Top floor" }, caller), 201);
    expect(created).toMatchObject({ object: "room_type", livemode: false, property_id: propertyId, code: "LOFT", name: "Loft", max_occupancy: 3, base_occupancy: 2, room_count: 0, amenities: ["wifi"], description: "Top floor" });
    expect(created.id).toMatch(/^rt_/);
    expect(ok(await h.get(`/v1/room_types/${created.id}`, caller))).toEqual(created);
    const patched = ok(await h.patch(`/v1/room_types/${created.id}`, { name: "Loft suite", max_occupancy: 4, base_occupancy: 3 }, caller));
    expect(patched).toMatchObject({ name: "Loft suite", max_occupancy: 4, base_occupancy: 3, code: "LOFT" });
    const list = ok(await h.get(`/v1/room_types?property_id=${propertyId}&limit=100`, caller));
    expect(list.data.map((t: { code: string }) => t.code).sort()).toEqual(["DLX", "KING", "LOFT", "QQ", "STE"]);
    expect(ok(await h.get(`/v1/room_types?property_id=prop_nope`, caller)).data).toEqual([]);
  });

  it("validates room types", async () => {
    const base = { property_id: propertyId, code: "X1", name: "X", max_occupancy: 2 };
    expectError(await h.post("/v1/room_types", { ...base, code: "KING" }, caller), 422, "parameter_invalid", "code");
    expectError(await h.post("/v1/room_types", { ...base, base_occupancy: 3 }, caller), 422, "parameter_invalid", "base_occupancy");
    expectError(await h.post("/v1/room_types", { ...base, max_occupancy: 0 }, caller), 422, "parameter_invalid", "max_occupancy");
    expectError(await h.post("/v1/room_types", { ...base, code: "no spaces" }, caller), 422, "parameter_invalid", "code");
    expectError(await h.post("/v1/room_types", { ...base, view: "sea" }, caller), 422, "parameter_unknown", "view");
    expectError(await h.post("/v1/room_types", { ...base, property_id: "prop_nope" }, caller), 404, "resource_missing", "property_id");
    const { name: _, ...noName } = base;
    expectError(await h.post("/v1/room_types", noName, caller), 422, "parameter_missing", "name");
    const king = ok(await h.get(`/v1/room_types?property_id=${propertyId}&limit=100`, caller)).data.find((t: { code: string }) => t.code === "KING");
    expectError(await h.patch(`/v1/room_types/${king.id}`, { base_occupancy: 3 }, caller), 422, "parameter_invalid", "base_occupancy");
    expectError(await h.patch(`/v1/room_types/${king.id}`, { code: "QQ" }, caller), 422, "parameter_invalid", "code");
  });

  it("creates rooms: each adds one to its type's count and to its inventory from today", async () => {
    const type = ok(await h.post("/v1/room_types", { property_id: propertyId, code: "CAB", name: "Cabin", max_occupancy: 2 }, caller), 201);
    const first = ok(await h.post("/v1/rooms", { room_type_id: type.id, number: "C1", floor: 0 }, caller), 201);
    expect(first).toMatchObject({ object: "room", livemode: false, property_id: propertyId, room_type_id: type.id, number: "C1", floor: 0, housekeeping_status: "clean", occupied: false, out_of_order_until: null });
    expect(first.id).toMatch(/^room_/);
    // Night rows made now count one room; a second room raises them.
    expect([...(await inventoryOf(h, caller, propertyId, type.id, d(0), d(3))).values()].map((n) => n.total)).toEqual([1, 1, 1]);
    ok(await h.post("/v1/rooms", { room_type_id: type.id, number: "C2" }, caller), 201);
    expect([...(await inventoryOf(h, caller, propertyId, type.id, d(0), d(5))).values()].map((n) => n.total)).toEqual([2, 2, 2, 2, 2]);
    expect(ok(await h.get(`/v1/room_types/${type.id}`, caller)).room_count).toBe(2);
    expectError(await h.post("/v1/rooms", { room_type_id: type.id, number: "101" }, caller), 422, "parameter_invalid", "number"); // a seeded room's number
    expectError(await h.post("/v1/rooms", { room_type_id: "rt_nope", number: "C9" }, caller), 404, "resource_missing", "room_type_id");
    expectError(await h.post("/v1/rooms", { number: "C9" }, caller), 422, "parameter_missing", "room_type_id");
    const listed = ok(await h.get(`/v1/rooms?room_type_id=${type.id}`, caller));
    expect(listed.data.map((r: { number: string }) => r.number).sort()).toEqual(["C1", "C2"]);
    const clean = ok(await h.get(`/v1/rooms?room_type_id=${type.id}&housekeeping_status=dirty`, caller));
    expect(clean.data).toEqual([]);
    expectError(await h.get(`/v1/rooms?housekeeping_status=sparkling`, caller), 400, "parameter_invalid", "housekeeping_status");
  });

  it("moving a room to another type moves its inventory from today on", async () => {
    const a = await buildRoomType(h, caller, propertyId, today, { rooms: 2, days: 10 });
    const b = await buildRoomType(h, caller, propertyId, today, { rooms: 1, days: 10 });
    expect([...(await inventoryOf(h, caller, propertyId, a.roomTypeId, d(0), d(2))).values()].map((n) => n.total)).toEqual([2, 2]);
    expect([...(await inventoryOf(h, caller, propertyId, b.roomTypeId, d(0), d(2))).values()].map((n) => n.total)).toEqual([1, 1]);
    const moved = ok(await h.patch(`/v1/rooms/${a.roomIds[0]}`, { room_type_id: b.roomTypeId, number: "M1", floor: 7 }, caller));
    expect(moved).toMatchObject({ room_type_id: b.roomTypeId, number: "M1", floor: 7 });
    expect([...(await inventoryOf(h, caller, propertyId, a.roomTypeId, d(0), d(2))).values()].map((n) => n.total)).toEqual([1, 1]);
    expect([...(await inventoryOf(h, caller, propertyId, b.roomTypeId, d(0), d(2))).values()].map((n) => n.total)).toEqual([2, 2]);
    expect(ok(await h.get(`/v1/room_types/${a.roomTypeId}`, caller)).room_count).toBe(1);
  });
});

describe("rate plans and daily rates", () => {
  let type: RoomTypeSetup;
  beforeAll(async () => {
    type = await buildRoomType(h, caller, propertyId, today, { rooms: 1, amount: 10_000, days: 14 });
  });

  it("creates, updates and lists rate plans", async () => {
    const plan = ok(await h.post("/v1/rate_plans", { property_id: propertyId, code: "PKG", name: "Package", room_type_ids: [type.roomTypeId] }, caller), 201);
    expect(plan).toMatchObject({ object: "rate_plan", livemode: false, property_id: propertyId, code: "PKG", name: "Package", room_type_ids: [type.roomTypeId], refundable: true, cancellation_deadline_hours: 24, active: true });
    expect(plan.id).toMatch(/^rp_/);
    const off = ok(await h.patch(`/v1/rate_plans/${plan.id}`, { active: false, refundable: false }, caller));
    expect(off).toMatchObject({ active: false, refundable: false });
    const inactive = ok(await h.get(`/v1/rate_plans?property_id=${propertyId}&active=false`, caller));
    expect(inactive.data.map((p: { id: string }) => p.id)).toEqual([plan.id]);
    expectError(await h.post("/v1/rate_plans", { property_id: propertyId, code: "BAR", name: "Dup", room_type_ids: [type.roomTypeId] }, caller), 422, "parameter_invalid", "code");
    expectError(await h.post("/v1/rate_plans", { property_id: propertyId, code: "Z", name: "Z", room_type_ids: [type.roomTypeId, "rt_nope"] }, caller), 422, "parameter_invalid", "room_type_ids.1");
    expectError(await h.post("/v1/rate_plans", { property_id: propertyId, code: "Z", name: "Z", room_type_ids: [] }, caller), 422, "parameter_invalid", "room_type_ids");
  });

  it("sets prices and restrictions over a range, on chosen weekdays, and reads them back per night", async () => {
    const url = `/v1/rate_plans/${type.ratePlanId}/rates`;
    const weekend = ok(await h.post(url, { room_type_id: type.roomTypeId, from: d(0), to: d(14), amount: 14_000, days_of_week: ["fri", "sat"] }, caller));
    expect(weekend).toMatchObject({ object: "rate_calendar", livemode: false, rate_plan_id: type.ratePlanId, from: d(0), to: d(14) });
    ok(await h.post(url, { room_type_id: type.roomTypeId, from: d(2), to: d(4), min_stay: 2, closed_to_arrival: true }, caller));
    const calendar = ok(await h.get(`${url}?room_type_id=${type.roomTypeId}&from=${d(0)}&to=${d(16)}`, caller));
    expect(calendar.data).toHaveLength(16);
    for (const [i, night] of calendar.data.entries()) {
      const date = d(i);
      const restricted = i === 2 || i === 3;
      expect(night).toEqual({
        date,
        room_type_id: type.roomTypeId,
        // Nights 14 and 15 have no rate loaded.
        amount: i >= 14 ? null : ["fri", "sat"].includes(weekdayOf(date)) ? 14_000 : 10_000,
        currency: "USD",
        min_stay: restricted ? 2 : 1,
        closed_to_arrival: restricted,
        closed_to_departure: false,
        stop_sell: false,
      });
    }
  });

  it("validates ranges, amounts and room types", async () => {
    const url = `/v1/rate_plans/${type.ratePlanId}/rates`;
    expectError(await h.post(url, { room_type_id: type.roomTypeId, from: d(5), to: d(5), amount: 1 }, caller), 422, "parameter_invalid", "to");
    expectError(await h.post(url, { room_type_id: type.roomTypeId, from: d(0), to: d(731), amount: 1 }, caller), 422, "parameter_invalid", "to");
    // Nights without a rate need an amount; restrictions alone cannot create them.
    expectError(await h.post(url, { room_type_id: type.roomTypeId, from: d(10), to: d(20), stop_sell: true }, caller), 422, "parameter_missing", "amount");
    expectError(await h.post(url, { room_type_id: type.roomTypeId, from: d(0), to: d(1), amount: -1 }, caller), 422, "parameter_invalid", "amount");
    expectError(await h.post(url, { room_type_id: type.roomTypeId, from: d(0), to: d(1), days_of_week: ["funday"] }, caller), 422, "parameter_invalid", "days_of_week.0");
    const other = await buildRoomType(h, caller, propertyId, today, { rooms: 1, days: 1 });
    expectError(await h.post(url, { room_type_id: other.roomTypeId, from: d(0), to: d(1), amount: 1 }, caller), 422, "parameter_invalid", "room_type_id");
    expectError(await h.get(`${url}?from=${d(3)}&to=${d(1)}`, caller), 400, "parameter_invalid", "to");
    expectError(await h.get(`${url}?from=${d(3)}`, caller), 400, "parameter_invalid", "to");
    expectError(await h.post(`/v1/rate_plans/rp_nope/rates`, { room_type_id: type.roomTypeId, from: d(0), to: d(1), amount: 1 }, caller), 404, "resource_missing", "id");
    // 730 days is the limit, not past it.
    ok(await h.post(url, { room_type_id: type.roomTypeId, from: d(0), to: d(730), amount: 9_000 }, caller));
  });
});

describe("inventory and holds", () => {
  let type: RoomTypeSetup;
  beforeAll(async () => {
    type = await buildRoomType(h, caller, propertyId, today, { rooms: 3, days: 60 });
  });

  const numbers = async (from: IsoDate, to: IsoDate) =>
    [...(await inventoryOf(h, caller, propertyId, type.roomTypeId, from, to)).values()].map(({ total, sold, held, out_of_order, available }) => ({ total, sold, held, out_of_order, available }));
  const row = (sold: number, held: number, out_of_order = 0, total = 3) => ({ total, sold, held, out_of_order, available: total - sold - held - out_of_order });

  it("answers total, sold, held, out_of_order and available per night and room type", async () => {
    const res = ok(await h.get(`/v1/inventory?property_id=${propertyId}&from=${d(1)}&to=${d(3)}`, caller));
    expect(res).toMatchObject({ object: "inventory_calendar", livemode: false, property_id: propertyId, from: d(1), to: d(3) });
    const types = ok(await h.get(`/v1/room_types?property_id=${propertyId}&limit=100`, caller)).data;
    expect(res.data).toHaveLength(types.length * 2);
    for (const n of res.data) expect(n.available).toBe(n.total - n.sold - n.held - n.out_of_order);
    expect(await numbers(d(1), d(3))).toEqual([row(0, 0), row(0, 0)]);
    ok(await h.post("/v1/reservations", bookingBody({ propertyId, ...type }, d(1), d(2)), caller), 201);
    expect(await numbers(d(1), d(3))).toEqual([row(1, 0), row(0, 0)]);
  });

  it("a hold takes rooms off sale for its nights; releasing it restores them", async () => {
    const hold = ok(await h.post("/v1/inventory/holds", { property_id: propertyId, room_type_id: type.roomTypeId, from: d(10), to: d(12), rooms: 2 }, caller), 201);
    expect(hold).toMatchObject({ object: "inventory_hold", livemode: false, property_id: propertyId, room_type_id: type.roomTypeId, from: d(10), to: d(12), rooms: 2, released_at: null });
    expect(hold.id).toMatch(/^hold_/);
    expect(await numbers(d(9), d(13))).toEqual([row(0, 0), row(0, 2), row(0, 2), row(0, 0)]);
    const availability = ok(await h.get(`/v1/availability?property_id=${propertyId}&check_in=${d(9)}&check_out=${d(11)}&adults=1&room_type_id=${type.roomTypeId}`, caller));
    expect(availability.data[0].available).toBe(1);
    // One room is left: a booking takes it, then neither a booking nor a hold fits.
    ok(await h.post("/v1/reservations", bookingBody({ propertyId, ...type }, d(11), d(12)), caller), 201);
    expectError(await h.post("/v1/reservations", bookingBody({ propertyId, ...type }, d(10), d(12)), caller), 409, "no_availability", "room_type_id");
    expectError(await h.post("/v1/inventory/holds", { property_id: propertyId, room_type_id: type.roomTypeId, from: d(9), to: d(12), rooms: 1 }, caller), 409, "no_availability", "rooms");
    expect(await numbers(d(9), d(13))).toEqual([row(0, 0), row(0, 2), row(1, 2), row(0, 0)]);
    const listed = ok(await h.get(`/v1/inventory/holds?room_type_id=${type.roomTypeId}`, caller));
    expect(listed.data.map((x: { id: string }) => x.id)).toEqual([hold.id]);

    expect(ok(await h.del(`/v1/inventory/holds/${hold.id}`, caller))).toEqual({ id: hold.id, object: "inventory_hold", deleted: true });
    expect(await numbers(d(9), d(13))).toEqual([row(0, 0), row(0, 0), row(1, 0), row(0, 0)]);
    expectError(await h.del(`/v1/inventory/holds/${hold.id}`, caller), 404, "resource_missing", "id");
    ok(await h.post("/v1/reservations", bookingBody({ propertyId, ...type }, d(10), d(12)), caller), 201);
    expect(await numbers(d(10), d(12))).toEqual([row(1, 0), row(2, 0)]);
  });

  it("validates holds", async () => {
    const body = { property_id: propertyId, room_type_id: type.roomTypeId, from: d(20), to: d(22), rooms: 1 };
    expectError(await h.post("/v1/inventory/holds", { ...body, rooms: 0 }, caller), 422, "parameter_invalid", "rooms");
    expectError(await h.post("/v1/inventory/holds", { ...body, rooms: 4 }, caller), 409, "no_availability", "rooms");
    expectError(await h.post("/v1/inventory/holds", { ...body, to: d(20) }, caller), 422, "parameter_invalid", "to");
    expectError(await h.post("/v1/inventory/holds", { ...body, from: d(-5), to: d(0) }, caller), 422, "parameter_invalid", "from");
    expectError(await h.post("/v1/inventory/holds", { ...body, from: d(-1), to: d(3) }, caller), 422, "parameter_invalid", "from");
    expectError(await h.post("/v1/inventory/holds", { ...body, room_type_id: "rt_nope" }, caller), 422, "parameter_invalid", "room_type_id");
    expectError(await h.post("/v1/inventory/holds", { ...body, property_id: "prop_nope" }, caller), 404, "resource_missing", "property_id");
    expectError(await h.post("/v1/inventory/holds", { ...body, color: "red" }, caller), 422, "parameter_unknown", "color");
    expect(await numbers(d(20), d(22))).toEqual([row(0, 0), row(0, 0)]);
  });

  it("counts rooms out of order on the nights they are out", async () => {
    const t = await buildRoomType(h, caller, propertyId, today, { rooms: 2, days: 60 });
    // Out of order until d(42) (the first night back); night rows made from now count it.
    await h.db.update(rooms).set({ housekeepingStatus: "out-of-order", outOfOrderReason: "Leak", outOfOrderUntil: d(42) }).where(eq(rooms.id, t.roomIds[0]));
    const inventory = await inventoryOf(h, caller, propertyId, t.roomTypeId, d(40), d(44));
    expect([...inventory.values()].map((n) => [n.out_of_order, n.available])).toEqual([[1, 1], [1, 1], [0, 2], [0, 2]]);
    ok(await h.post("/v1/reservations", bookingBody({ propertyId, ...t }, d(40), d(42)), caller), 201);
    expectError(await h.post("/v1/reservations", bookingBody({ propertyId, ...t }, d(41), d(43)), caller), 409, "no_availability");
    ok(await h.post("/v1/reservations", bookingBody({ propertyId, ...t }, d(42), d(44)), caller), 201);
  });

  it("validates inventory queries", async () => {
    expectError(await h.get(`/v1/inventory?property_id=${propertyId}&from=${d(3)}&to=${d(3)}`, caller), 400, "parameter_invalid", "to");
    expectError(await h.get(`/v1/inventory?property_id=${propertyId}&from=${d(0)}&to=${d(731)}`, caller), 400, "parameter_invalid", "to");
    expectError(await h.get(`/v1/inventory?from=${d(0)}&to=${d(1)}`, caller), 400, "parameter_invalid", "property_id");
    expectError(await h.get(`/v1/inventory?property_id=prop_nope&from=${d(0)}&to=${d(1)}`, caller), 404, "resource_missing", "property_id");
    expectError(await h.get(`/v1/inventory?property_id=${propertyId}&room_type_id=rt_nope&from=${d(0)}&to=${d(1)}`, caller), 400, "parameter_invalid", "room_type_id");
  });
});

describe("GET /v1/availability", () => {
  let small: RoomTypeSetup;
  let big: RoomTypeSetup;
  let bothPlan: string;
  let barePlan: string;
  beforeAll(async () => {
    small = await buildRoomType(h, caller, propertyId, today, { rooms: 1, maxOccupancy: 2, amount: 8_000, days: 60 });
    big = await buildRoomType(h, caller, propertyId, today, { rooms: 2, maxOccupancy: 4, amount: 20_000, days: 60 });
    // A plan over both types with its own prices, and one with no rates at all.
    bothPlan = ok(await h.post("/v1/rate_plans", { property_id: propertyId, code: "AV-BOTH", name: "Both", room_type_ids: [small.roomTypeId, big.roomTypeId] }, caller), 201).id;
    for (const [t, amount] of [[small, 7_000], [big, 18_000]] as const) {
      ok(await h.post(`/v1/rate_plans/${bothPlan}/rates`, { room_type_id: t.roomTypeId, from: d(0), to: d(60), amount }, caller));
    }
    barePlan = ok(await h.post("/v1/rate_plans", { property_id: propertyId, code: "AV-BARE", name: "Bare", room_type_ids: [small.roomTypeId] }, caller), 201).id;
    ok(await h.post("/v1/rate_plans", { property_id: propertyId, code: "AV-OFF", name: "Off", room_type_ids: [small.roomTypeId], active: false }, caller), 201);
  });

  const query = (checkIn: IsoDate, checkOut: IsoDate, adults: number, extra = "") =>
    h.get(`/v1/availability?property_id=${propertyId}&check_in=${checkIn}&check_out=${checkOut}&adults=${adults}${extra}`, caller);
  const entry = (body: { data: { room_type_id: string }[] }, t: RoomTypeSetup) => body.data.find((x) => x.room_type_id === t.roomTypeId) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  const quote = (e: { quotes: { rate_plan_id: string }[] }, plan: string) => e.quotes.find((q) => q.rate_plan_id === plan) as any; // eslint-disable-line @typescript-eslint/no-explicit-any

  it("answers per room type the rooms free on every night, and per active rate plan a priced quote", async () => {
    const body = ok(await query(d(5), d(8), 2));
    expect(body).toMatchObject({ object: "availability", livemode: false, property_id: propertyId, check_in: d(5), check_out: d(8), nights: 3, adults: 2, children: 0 });
    // Every room type of the property appears: the seeded four and the tests' own.
    const types = ok(await h.get(`/v1/room_types?property_id=${propertyId}&limit=100`, caller)).data;
    expect(body.data.map((x: { room_type_id: string }) => x.room_type_id).sort()).toEqual(types.map((t: { id: string }) => t.id).sort());
    const s = entry(body, small);
    expect(s).toMatchObject({ available: 1, max_occupancy: 2 });
    expect(s.quotes.map((q: { rate_plan_id: string }) => q.rate_plan_id).sort()).toEqual([small.ratePlanId, bothPlan, barePlan].sort()); // not the inactive plan
    expect(quote(s, small.ratePlanId)).toEqual({
      rate_plan_id: small.ratePlanId,
      total: { amount: 24_000, currency: "USD" },
      nightly: nightsOf(d(5), d(8)).map((date) => ({ date, amount: 8_000 })),
      // This property has no taxes: the stay's gross is its rates.
      price: { net: { amount: 24_000, currency: "USD" }, tax: { amount: 0, currency: "USD" }, gross: { amount: 24_000, currency: "USD" }, taxes: [] },
      bookable: true,
    });
    expect(quote(s, bothPlan)).toMatchObject({ total: { amount: 21_000 }, bookable: true });
    expect(quote(s, barePlan)).toMatchObject({ bookable: false, reason: "no_rate", nightly: [], total: { amount: 0 } });
    expect(quote(entry(body, big), bothPlan)).toMatchObject({ total: { amount: 54_000 }, bookable: true });
  });

  it("gives the reason a booking would be refused: occupancy, restrictions, then availability", async () => {
    expect(quote(entry(ok(await query(d(5), d(6), 2, "&children=1")), small), small.ratePlanId)).toMatchObject({ bookable: false, reason: "max_occupancy" });
    expect(quote(entry(ok(await query(d(5), d(6), 3)), big), bothPlan)).toMatchObject({ bookable: true });
    ok(await h.post(`/v1/rate_plans/${small.ratePlanId}/rates`, { room_type_id: small.roomTypeId, from: d(20), to: d(21), stop_sell: true }, caller));
    ok(await h.post(`/v1/rate_plans/${small.ratePlanId}/rates`, { room_type_id: small.roomTypeId, from: d(23), to: d(24), closed_to_arrival: true }, caller));
    ok(await h.post(`/v1/rate_plans/${small.ratePlanId}/rates`, { room_type_id: small.roomTypeId, from: d(26), to: d(27), closed_to_departure: true }, caller));
    ok(await h.post(`/v1/rate_plans/${small.ratePlanId}/rates`, { room_type_id: small.roomTypeId, from: d(28), to: d(29), min_stay: 4 }, caller));
    const reasonFor = async (from: IsoDate, to: IsoDate, adults = 1) => quote(entry(ok(await query(from, to, adults)), small), small.ratePlanId).reason;
    expect(await reasonFor(d(19), d(21))).toBe("stop_sell");
    expect(await reasonFor(d(23), d(25))).toBe("closed_to_arrival");
    expect(await reasonFor(d(22), d(24))).toBeUndefined(); // staying through the closed arrival day
    expect(await reasonFor(d(25), d(27))).toBeUndefined(); // staying through the closed departure day
    expect(await reasonFor(d(24), d(26))).toBe("closed_to_departure");
    expect(await reasonFor(d(28), d(30))).toBe("min_stay");
    expect(await reasonFor(d(58), d(62))).toBe("no_rate");
    // Over occupancy is reported before a restriction, as a booking would be refused.
    expect(await reasonFor(d(19), d(21), 3)).toBe("max_occupancy");
    // Sold out: every plan of the type says so; the other plans' restrictions come first.
    ok(await h.post("/v1/reservations", bookingBody({ propertyId, ...small }, d(10), d(12)), caller), 201);
    const sold = entry(ok(await query(d(11), d(13), 1)), small);
    expect(sold.available).toBe(0);
    expect(quote(sold, small.ratePlanId)).toMatchObject({ bookable: false, reason: "no_availability", total: { amount: 16_000 } });
    expect(quote(sold, bothPlan)).toMatchObject({ bookable: false, reason: "no_availability" });
    expect(quote(sold, barePlan)).toMatchObject({ bookable: false, reason: "no_rate" });
    expect(entry(ok(await query(d(12), d(13), 1)), small).available).toBe(1);
  });

  it("narrows to one room type", async () => {
    const body = ok(await query(d(5), d(6), 1, `&room_type_id=${big.roomTypeId}`));
    expect(body.data.map((x: { room_type_id: string }) => x.room_type_id)).toEqual([big.roomTypeId]);
    expect(body.data[0].available).toBe(2);
  });

  it("validates the stay like a booking, as query parameters (400)", async () => {
    expectError(await query(d(5), d(5), 1), 400, "parameter_invalid", "check_out");
    expectError(await query(d(-1), d(2), 1), 400, "parameter_invalid", "check_in");
    expectError(await query(d(1), d(32), 1), 400, "parameter_invalid", "check_out");
    expectError(await query(d(1), d(2), 0), 400, "parameter_invalid", "adults");
    expectError(await h.get(`/v1/availability?property_id=${propertyId}&check_in=${d(1)}&check_out=${d(2)}`, caller), 400, "parameter_invalid", "adults");
    expectError(await query(d(1), d(2), 1, "&room_type_id=rt_nope"), 400, "parameter_invalid", "room_type_id");
    expectError(await query(d(1), d(2), 1, "&pets=1"), 400, "parameter_invalid", "pets");
    expectError(await h.get(`/v1/availability?property_id=prop_nope&check_in=${d(1)}&check_out=${d(2)}&adults=1`, caller), 404, "resource_missing", "property_id");
  });

  it("meets several faults in the order of the checks, though it reads them side by side", async () => {
    // Unknown property, past dates and a foreign room type at once: the property comes first,
    // then the dates, then the room type, whichever query answered first.
    expectError(await h.get(`/v1/availability?property_id=prop_nope&check_in=${d(-1)}&check_out=${d(2)}&adults=1&room_type_id=rt_nope`, caller), 404, "resource_missing", "property_id");
    expectError(await query(d(-1), d(2), 1, "&room_type_id=rt_nope"), 400, "parameter_invalid", "check_in");
    expectError(await query(d(1), d(2), 1, "&room_type_id=rt_nope"), 400, "parameter_invalid", "room_type_id");
  });
});
