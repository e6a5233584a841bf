import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, nightsOf, todayIn, weekdayOf, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, insertProperty, ok, type Caller } from "../support/hotel";

// The seeded sandbox hotel of contract §8, and POST /v1/sandbox/reset.

let h: Harness;
let caller: Caller;

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every item of a list, following `next_cursor`. */
async function all(path: string, who: Caller = caller): Promise<Row[]> {
  const items: Row[] = [];
  let cursor: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const page: Row = ok(await h.get(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, who));
    items.push(...page.data);
    cursor = page.has_more ? page.next_cursor : null;
  } while (cursor);
  return items;
}

/** The hotel as data, without ids and timestamps: what a reset must bring back exactly. */
async function describeHotel() {
  const [property] = await all("/v1/properties");
  const today = todayIn(property.timezone);
  const types = await all(`/v1/room_types?property_id=${property.id}`);
  const codeOf = new Map(types.map((t) => [t.id, t.code]));
  const roomList = await all(`/v1/rooms?property_id=${property.id}`);
  const numberOf = new Map(roomList.map((r) => [r.id, r.number]));
  const plans = await all(`/v1/rate_plans?property_id=${property.id}`);
  const planOf = new Map(plans.map((p) => [p.id, p.code]));
  const rates: Row = {};
  for (const plan of plans) {
    const calendar = ok(await h.get(`/v1/rate_plans/${plan.id}/rates?from=${today}&to=${addDays(today, 365)}`, caller));
    rates[plan.code] = calendar.data.map((n: Row) => [codeOf.get(n.room_type_id), n.date, n.amount, n.min_stay, n.stop_sell]).sort();
  }
  const inventory = ok(await h.get(`/v1/inventory?property_id=${property.id}&from=${addDays(today, -30)}&to=${addDays(today, 90)}`, caller));
  return {
    property: { name: property.name, timezone: property.timezone, currency: property.currency, room_count: property.room_count, livemode: property.livemode },
    types: types.map((t) => ({ code: t.code, name: t.name, max: t.max_occupancy, base: t.base_occupancy, rooms: t.room_count, amenities: t.amenities })).sort((a, b) => a.code.localeCompare(b.code)),
    rooms: roomList.map((r) => ({ number: r.number, floor: r.floor, type: codeOf.get(r.room_type_id), status: r.housekeeping_status, occupied: r.occupied, until: r.out_of_order_until })).sort((a, b) => a.number.localeCompare(b.number)),
    plans: plans.map((p) => ({ code: p.code, name: p.name, refundable: p.refundable, deadline: p.cancellation_deadline_hours, active: p.active, types: p.room_type_ids.map((id: string) => codeOf.get(id)).sort() })).sort((a, b) => a.code.localeCompare(b.code)),
    rates,
    guests: (await all("/v1/guests")).map((g) => [g.email, g.first_name, g.last_name, g.phone]).sort(),
    reservations: (await all("/v1/reservations"))
      .map((r) => [r.status, r.check_in, r.check_out, codeOf.get(r.room_type_id), planOf.get(r.rate_plan_id), r.total.amount, r.adults, r.source, r.channel, r.guest.email, r.room_id ? numberOf.get(r.room_id) : null].join("|"))
      .sort(),
    inventory: inventory.data.map((n: Row) => [codeOf.get(n.room_type_id), n.date, n.total, n.sold, n.held, n.out_of_order].join("|")).sort(),
  };
}

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token, sandbox: true };
});
afterAll(async () => h?.close());

describe("the seeded sandbox hotel", () => {
  let property: Row;
  let today: IsoDate;
  let types: Row[];
  beforeAll(async () => {
    const properties = await all("/v1/properties");
    expect(properties).toHaveLength(1);
    property = properties[0];
    today = todayIn(property.timezone);
    types = await all(`/v1/room_types?property_id=${property.id}`);
  });

  it("is the Sandbox Harbor Hotel: New York, USD, 40 rooms, sandbox only", async () => {
    expect(property).toMatchObject({ object: "property", livemode: false, name: "Sandbox Harbor Hotel", timezone: "America/New_York", currency: "USD", room_count: 40 });
    expect(ok(await h.get("/v1/properties", { token: h.main.token })).data.map((p: Row) => p.id)).not.toContain(property.id);
  });

  it("has 20 KING (2), 12 QQ (4), 6 DLX (3) and 2 STE (4)", () => {
    const summary = Object.fromEntries(types.map((t) => [t.code, [t.room_count, t.max_occupancy]]));
    expect(summary).toEqual({ KING: [20, 2], QQ: [12, 4], DLX: [6, 3], STE: [2, 4] });
  });

  it("has 40 rooms on floors 1–4, in every housekeeping status, some occupied", async () => {
    const list = await all(`/v1/rooms?property_id=${property.id}`);
    expect(list).toHaveLength(40);
    expect(new Set(list.map((r) => r.number)).size).toBe(40);
    const perFloor = [1, 2, 3, 4].map((f) => list.filter((r) => r.floor === f).length);
    expect(perFloor.reduce((a, b) => a + b)).toBe(40);
    expect(perFloor.every((n) => n > 0)).toBe(true);
    expect(new Set(list.map((r) => r.housekeeping_status))).toEqual(new Set(["dirty", "clean", "inspected", "out-of-order"]));
    for (const r of list.filter((x) => x.housekeeping_status === "out-of-order")) expect(r.out_of_order_until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(list.some((r) => r.occupied)).toBe(true);
  });

  it("has BAR (refundable) and NRF (non-refundable, 10 % below) on every type, for the next 365 days, weekends higher", async () => {
    const plans = await all(`/v1/rate_plans?property_id=${property.id}`);
    const byCode = Object.fromEntries(plans.map((p) => [p.code, p]));
    expect(Object.keys(byCode).sort()).toEqual(["BAR", "NRF"]);
    expect(byCode.BAR).toMatchObject({ refundable: true, active: true });
    expect(byCode.NRF).toMatchObject({ refundable: false, active: true });
    for (const p of plans) expect([...p.room_type_ids].sort()).toEqual(types.map((t) => t.id).sort());
    const to = addDays(today, 365);
    const bar = ok(await h.get(`/v1/rate_plans/${byCode.BAR.id}/rates?from=${today}&to=${to}`, caller)).data;
    const nrf = ok(await h.get(`/v1/rate_plans/${byCode.NRF.id}/rates?from=${today}&to=${to}`, caller)).data;
    expect(bar).toHaveLength(365 * 4);
    const nrfBy = new Map(nrf.map((n: Row) => [`${n.room_type_id}:${n.date}`, n.amount]));
    for (const n of bar) {
      expect(n.amount, `${n.date}`).toBeGreaterThan(0);
      expect(nrfBy.get(`${n.room_type_id}:${n.date}`)).toBe(Math.round(n.amount * 0.9));
    }
    for (const type of types) {
      const nights = bar.filter((n: Row) => n.room_type_id === type.id);
      const weekend = nights.filter((n: Row) => ["fri", "sat"].includes(weekdayOf(n.date))).map((n: Row) => n.amount);
      const weekday = nights.filter((n: Row) => !["fri", "sat"].includes(weekdayOf(n.date))).map((n: Row) => n.amount);
      expect(Math.min(...weekend), type.code).toBeGreaterThan(Math.max(...weekday));
    }
    // The cheapest type to the dearest.
    const price = (code: string) => bar.find((n: Row) => n.room_type_id === types.find((t) => t.code === code)!.id).amount;
    expect(price("KING")).toBeLessThan(price("QQ"));
    expect(price("DLX")).toBeLessThan(price("STE"));
  });

  it("has a few dozen guests and reservations in every status, past and coming", async () => {
    const guests = await all("/v1/guests");
    expect(guests.length).toBeGreaterThanOrEqual(24);
    expect(guests.length).toBeLessThanOrEqual(100);
    const list = await all("/v1/reservations");
    expect(list.length).toBeGreaterThanOrEqual(24);
    expect(new Set(list.map((r) => r.status))).toEqual(new Set(["confirmed", "checked_in", "checked_out", "cancelled", "no_show"]));
    expect(list.some((r) => r.check_out < today)).toBe(true);
    expect(list.some((r) => r.check_in > today)).toBe(true);
    expect(new Set(list.map((r) => r.source)).size).toBeGreaterThan(2);
    for (const r of list) {
      expect(r.livemode).toBe(false);
      expect(r.total.amount).toBe(r.nightly.reduce((s: number, n: Row) => s + n.amount, 0));
      expect(r.channel === null).toBe(r.source !== "channel");
    }
    const rooms = new Map((await all(`/v1/rooms?property_id=${property.id}`)).map((r) => [r.id, r]));
    for (const r of list.filter((x) => x.status === "checked_in")) {
      expect(r.check_in <= today && today < r.check_out, r.id).toBe(true);
      expect(rooms.get(r.room_id)).toMatchObject({ occupied: true, room_type_id: r.room_type_id });
    }
    for (const r of list.filter((x) => x.status === "confirmed")) expect(r.check_in >= today).toBe(true);
  });

  it("sells exactly the nights of its live reservations, and never more than it has", async () => {
    const from = addDays(today, -30);
    const to = addDays(today, 90);
    const inventory = ok(await h.get(`/v1/inventory?property_id=${property.id}&from=${from}&to=${to}`, caller)).data;
    const live = (await all("/v1/reservations")).filter((r) => ["confirmed", "checked_in", "checked_out"].includes(r.status));
    const booked = new Map<string, number>();
    for (const r of live) for (const night of nightsOf(r.check_in, r.check_out)) booked.set(`${r.room_type_id}:${night}`, (booked.get(`${r.room_type_id}:${night}`) ?? 0) + 1);
    expect(inventory).toHaveLength(types.length * 120);
    for (const n of inventory) {
      expect(n.sold, `${n.room_type_id} ${n.date}`).toBe(booked.get(`${n.room_type_id}:${n.date}`) ?? 0);
      expect(n.sold + n.held + n.out_of_order).toBeLessThanOrEqual(n.total);
      expect(n.total).toBe(types.find((t) => t.id === n.room_type_id)!.room_count);
    }
  });
});

describe("POST /v1/sandbox/reset", () => {
  it("is refused in live mode with 400 invalid_environment", async () => {
    const before = ok(await h.get("/v1/properties", { token: h.main.token }));
    expectError(await h.post("/v1/sandbox/reset", {}, { token: h.main.token }), 400, "invalid_environment");
    expect(ok(await h.get("/v1/properties", { token: h.main.token }))).toEqual(before);
  });

  it("restores the seeded hotel after changes, with any scope, and leaves live data and other accounts alone", async () => {
    const original = await describeHotel();
    const [property] = await all("/v1/properties");
    const today = todayIn(property.timezone);
    const types = await all(`/v1/room_types?property_id=${property.id}`);
    const plans = await all(`/v1/rate_plans?property_id=${property.id}`);
    const king = types.find((t) => t.code === "KING")!;
    const bar = plans.find((p) => p.code === "BAR")!;

    // Live data of this account, and another account's sandbox, must survive the reset.
    const live = await insertProperty(h, h.main.account.id, { name: "Live Inn" });
    const liveType = await buildRoomType(h, { token: h.main.token }, live.id, today, { rooms: 1, days: 5 });
    const other = await h.newAccount("Other Hotels");
    const otherBefore = await all("/v1/reservations", { token: other.token, sandbox: true });

    // Change a bit of everything.
    const booked = ok(await h.post("/v1/reservations", bookingBody({ propertyId: property.id, roomTypeId: king.id, ratePlanId: bar.id }, addDays(today, 3), addDays(today, 5), { guest: { first_name: "New", last_name: "Guest", email: "new.guest@example.com" } }), caller), 201);
    const confirmed = (await all("/v1/reservations")).find((r) => r.status === "confirmed" && r.id !== booked.id)!;
    ok(await h.post(`/v1/reservations/${confirmed.id}/cancel`, {}, caller));
    ok(await h.post(`/v1/rate_plans/${bar.id}/rates`, { room_type_id: king.id, from: today, to: addDays(today, 10), amount: 1, stop_sell: true }, caller));
    ok(await h.patch(`/v1/rate_plans/${bar.id}`, { name: "Changed" }, caller));
    ok(await h.post("/v1/inventory/holds", { property_id: property.id, room_type_id: king.id, from: addDays(today, 20), to: addDays(today, 22), rooms: 3 }, caller), 201);
    await buildRoomType(h, caller, property.id, today, { rooms: 2, days: 3 });
    ok(await h.patch(`/v1/room_types/${king.id}`, { max_occupancy: 3 }, caller));
    ok(await h.post("/v1/guests", { first_name: "Extra", last_name: "Guest", email: "extra@example.com" }, caller), 201);
    ok(await h.post(`/v1/folios/${booked.folio_id}/charges`, { description: "Spa", amount: 5_000 }, caller), 201);
    expect(await describeHotel()).not.toEqual(original);

    const anyScope = await h.keyWith(["reports:read"]);
    const reset = ok(await h.post("/v1/sandbox/reset", {}, { token: anyScope, sandbox: true }));
    expect(reset).toMatchObject({ object: "sandbox_reset", livemode: false });
    expect(reset.property_id).toMatch(/^prop_/);
    expect(reset.property_id).not.toBe(property.id);
    expect(Date.parse(reset.reset_at)).not.toBeNaN();

    expect(await describeHotel()).toEqual(original);
    // The old objects are gone.
    expectError(await h.get(`/v1/properties/${property.id}`, caller), 404, "resource_missing");
    expectError(await h.get(`/v1/reservations/${booked.id}`, caller), 404, "resource_missing");
    expectError(await h.get(`/v1/rate_plans/${bar.id}`, caller), 404, "resource_missing");
    expectError(await h.get(`/v1/room_types/${king.id}`, caller), 404, "resource_missing");
    // Live data and the other account are untouched.
    expect(ok(await h.get(`/v1/properties/${live.id}`, { token: h.main.token }))).toMatchObject({ name: "Live Inn", room_count: 1 });
    expect(ok(await h.get(`/v1/room_types/${liveType.roomTypeId}`, { token: h.main.token })).room_count).toBe(1);
    expect(await all("/v1/reservations", { token: other.token, sandbox: true })).toEqual(otherBefore);
    // And the restored hotel takes bookings.
    const restored = await describeHotel();
    expect(restored.reservations.length).toBe(original.reservations.length);
    const [newProperty] = await all("/v1/properties");
    const newTypes = await all(`/v1/room_types?property_id=${newProperty.id}`);
    const newPlans = await all(`/v1/rate_plans?property_id=${newProperty.id}`);
    ok(
      await h.post(
        "/v1/reservations",
        bookingBody({ propertyId: newProperty.id, roomTypeId: newTypes.find((t) => t.code === "STE")!.id, ratePlanId: newPlans.find((p) => p.code === "NRF")!.id }, addDays(today, 100), addDays(today, 102)),
        caller,
      ),
      201,
    );
  });

  it("a retried reset (same Idempotency-Key) replays its answer instead of wiping the sandbox again", async () => {
    const headers = { "idempotency-key": "reset-once" };
    const first = await h.post("/v1/sandbox/reset", {}, { ...caller, headers });
    ok(first);
    const guest = ok(await h.post("/v1/guests", { first_name: "Made", last_name: "After", email: "made.after@example.com" }, caller), 201);
    const again = await h.post("/v1/sandbox/reset", {}, { ...caller, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json).toEqual(first.json);
    expect(ok(await h.get(`/v1/guests/${guest.id}`, caller)).email).toBe("made.after@example.com");
    expect(ok(await h.get("/v1/properties", caller)).data[0].id).toBe(first.json.property_id);
  });
});
