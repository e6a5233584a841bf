import { TRPCError } from "@trpc/server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, events, rooms } from "@/db/schema";
import { createUser, type StaffRole } from "@/server/auth/users";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, inventoryOf, ok } from "../support/hotel";

// Issue 27, item 1: setting a hotel up from nothing. The property, room types, rooms (one or a
// range, retired without losing their history) and rate plans (meal plan, derived plans that
// follow their parent), through /v1 and through the dashboard's tRPC procedures, which call the
// same services. Expected amounts are worked out by hand in the comments.

let h: Harness;
let accountId: string;
const users: Partial<Record<StaffRole, { id: string; email: string }>> = {};

const caller = (role: StaffRole) => {
  const user = users[role]!;
  const session: StaffSession = { user: { id: user.id, accountId, role, name: role, email: user.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
  return createCaller({ db: h.db, session, livemode: true });
};

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return (error as TRPCError).code;
}

/** A fresh live property through the API, with its local today. */
async function newProperty(timezone = "Europe/Lisbon", currency = "EUR") {
  const property = ok(await h.post("/v1/properties", { name: "Casa Azul", timezone, currency }), 201);
  return { ...property, today: todayIn(timezone) as IsoDate };
}

async function newType(propertyId: string, code: string, max = 2) {
  return ok(await h.post("/v1/room_types", { property_id: propertyId, code, name: `Room ${code}`, max_occupancy: max, beds: "1 queen" }), 201);
}

const roomNumbers = async (propertyId: string, query = "") =>
  (ok(await h.get(`/v1/rooms?property_id=${propertyId}&limit=100${query}`)).data as { number: string }[]).map((r) => r.number).sort();

beforeAll(async () => {
  h = await startHarness();
  accountId = h.main.account.id;
  for (const role of ["owner", "manager", "front_desk", "housekeeping"] as const) {
    users[role] = await createUser({ db: h.db, input: { accountId, email: `${role}@setup.example`, password: "password-1", role } });
  }
}, 120_000);
afterAll(async () => h?.close());

describe("properties", () => {
  it("are created, read and changed through /v1, with check-in and check-out times", async () => {
    const created = ok(
      await h.post("/v1/properties", {
        name: "  Casa Azul  ",
        timezone: "Europe/Lisbon",
        currency: "eur",
        address: { line1: "Rua Augusta 1", line2: "", city: "Lisboa", country: "pt" },
        check_in_time: "14:00",
      }),
      201,
    );
    expect(created).toMatchObject({
      object: "property",
      livemode: true,
      name: "Casa Azul",
      timezone: "Europe/Lisbon",
      currency: "EUR",
      address: { line1: "Rua Augusta 1", city: "Lisboa", country: "PT" },
      check_in_time: "14:00",
      check_out_time: "11:00",
      room_count: 0,
    });
    expect(created.address).not.toHaveProperty("line2");
    expect(created.id).toMatch(/^prop_/);
    expect(ok(await h.get(`/v1/properties/${created.id}`))).toEqual(created);
    // Nothing of it in the sandbox.
    expectError(await h.get(`/v1/properties/${created.id}`, { sandbox: true }), 404, "resource_missing");

    const changed = ok(await h.patch(`/v1/properties/${created.id}`, { check_out_time: "12:30", timezone: "Atlantic/Azores", address: { city: "Ponta Delgada" } }));
    expect(changed).toMatchObject({ check_in_time: "14:00", check_out_time: "12:30", timezone: "Atlantic/Azores", address: { city: "Ponta Delgada" }, name: "Casa Azul" });
    expect(changed.address).not.toHaveProperty("line1");
  });

  it("refuses a zone, currency or time that does not exist, and changes nothing", async () => {
    const { id } = await newProperty();
    const before = ok(await h.get(`/v1/properties/${id}`));
    expectError(await h.post("/v1/properties", { name: "X", timezone: "Mars/Olympus", currency: "EUR" }), 422, "parameter_invalid", "timezone");
    expectError(await h.post("/v1/properties", { name: "X", timezone: "UTC", currency: "EURO" }), 422, "parameter_invalid", "currency");
    expectError(await h.post("/v1/properties", { name: "X", timezone: "UTC" }), 422, "parameter_missing", "currency");
    expectError(await h.post("/v1/properties", { name: "X", timezone: "UTC", currency: "EUR", stars: 5 }), 422, "parameter_unknown", "stars");
    expectError(await h.patch(`/v1/properties/${id}`, { check_in_time: "24:00" }), 422, "parameter_invalid", "check_in_time");
    expectError(await h.patch(`/v1/properties/${id}`, { name: "   " }), 422, "parameter_invalid", "name");
    expectError(await h.patch(`/v1/properties/${id}`, { address: { country: "Portugal" } }), 422, "parameter_invalid", "address.country");
    expectError(await h.post("/v1/properties", undefined, { rawBody: "", headers: { "content-type": "application/json" } }), 422, "parameter_missing");
    expectError(await h.patch(`/v1/properties/${id}`, undefined, { rawBody: "{", headers: { "content-type": "application/json" } }), 400, "invalid_json");
    expectError(await h.patch("/v1/properties/prop_nope", { name: "Y" }), 404, "resource_missing");
    expect(ok(await h.get(`/v1/properties/${id}`))).toEqual(before);
  });

  it("keeps its currency once it has rates", async () => {
    const p = await newProperty();
    expect(ok(await h.patch(`/v1/properties/${p.id}`, { currency: "GBP" })).currency).toBe("GBP");
    const type = await newType(p.id, "DBL");
    const plan = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "BAR", name: "Best available", room_type_ids: [type.id] }), 201);
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: p.today, to: addDays(p.today, 2), amount: 9000 }));
    expectError(await h.patch(`/v1/properties/${p.id}`, { currency: "EUR" }), 422, "parameter_invalid", "currency");
    expect(ok(await h.get(`/v1/properties/${p.id}`)).currency).toBe("GBP");
  });

  it("needs rooms:write to create one", async () => {
    const reader = await h.keyWith(["rooms:read"]);
    expectError(await h.post("/v1/properties", { name: "X", timezone: "UTC", currency: "EUR" }, { token: reader }), 403, "insufficient_scope");
  });
});

describe("rooms", () => {
  it("a range 101–120 adds twenty rooms at once, and a range that clashes adds none", async () => {
    const p = await newProperty();
    const type = await newType(p.id, "KNG");
    expect(type).toMatchObject({ beds: "1 queen", room_count: 0 });
    const range = ok(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "101", to_number: "120", floor: 1 }), 201);
    expect(range.object).toBe("room_range");
    expect(range.data.map((r: { number: string }) => r.number)).toEqual(Array.from({ length: 20 }, (_, i) => String(101 + i)));
    expect(range.data.every((r: { floor: number; room_type_id: string; retired_at: null }) => r.floor === 1 && r.room_type_id === type.id && r.retired_at === null)).toBe(true);
    expect(ok(await h.get(`/v1/room_types/${type.id}`)).room_count).toBe(20);
    expect(ok(await h.get(`/v1/properties/${p.id}`)).room_count).toBe(20);
    const inventory = await inventoryOf(h, { token: h.main.token }, p.id, type.id, p.today, addDays(p.today, 3));
    expect([...inventory.values()].map((n) => n.total)).toEqual([20, 20, 20]);
    const eventsBefore = (await h.db.select().from(events).where(eq(events.accountId, accountId))).length;

    // 118–125 clashes on 118, 119 and 120: nothing of 121–125 is added.
    const clash = expectError(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "118", to_number: "125" }), 422, "parameter_invalid", "from_number");
    expect(clash.message).toContain("118, 119, 120");
    expect(await roomNumbers(p.id)).toHaveLength(20);
    expect([...(await inventoryOf(h, { token: h.main.token }, p.id, type.id, p.today, addDays(p.today, 3))).values()].map((n) => n.total)).toEqual([20, 20, 20]);
    expect((await h.db.select().from(events).where(eq(events.accountId, accountId))).length).toBe(eventsBefore);

    // Backwards, too long, not digits: refused.
    expectError(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "130", to_number: "121" }), 422, "parameter_invalid", "to_number");
    expectError(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "1000", to_number: "1500" }), 422, "parameter_invalid", "to_number");
    expectError(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "A1", to_number: "A9" }), 422, "parameter_invalid", "from_number");
    expectError(await h.post("/v1/rooms/range", { room_type_id: "rt_nope", from_number: "1", to_number: "2" }), 404, "resource_missing", "room_type_id");
    expectError(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "1" }), 422, "parameter_missing", "to_number");
    expectError(await h.post("/v1/rooms/range", {}), 422, "parameter_missing");
    expectError(await h.post("/v1/rooms/range", undefined, { rawBody: " ", headers: { "content-type": "application/json" } }), 422, "parameter_missing");
    expect(await roomNumbers(p.id)).toHaveLength(20);

    // Leading zeros keep their width.
    const annex = ok(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "008", to_number: "011" }), 201);
    expect(annex.data.map((r: { number: string }) => r.number)).toEqual(["008", "009", "010", "011"]);
  });

  it("a retired room leaves the inventory from today, keeps its stays, and is refused while its type is sold out", async () => {
    const p = await newProperty("America/New_York", "USD");
    const type = await newType(p.id, "TWN");
    const [a, b] = ok(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "201", to_number: "202" }), 201).data as { id: string; number: string }[];
    const plan = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "BAR", name: "Best available", room_type_ids: [type.id] }), 201);
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: p.today, to: addDays(p.today, 30), amount: 10_000 }));
    const setup = { propertyId: p.id, roomTypeId: type.id, ratePlanId: plan.id };

    // Tonight a guest checks in (the room is occupied: it cannot be retired) and checks out.
    const stay = ok(await h.post("/v1/reservations", bookingBody(setup, p.today, addDays(p.today, 1))), 201);
    const inHouse = ok(await h.post(`/v1/reservations/${stay.id}/check_in`, { room_id: a.id }));
    expect(inHouse.room_id).toBe(a.id);
    expectError(await h.post(`/v1/rooms/${a.id}/retire`), 409, "invalid_state_transition");
    ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: { type: "cash" } }), 201);
    ok(await h.post(`/v1/reservations/${stay.id}/check_out`));

    // Both rooms sold on a night in ten days: neither can go.
    const d10 = addDays(p.today, 10);
    const first = ok(await h.post("/v1/reservations", bookingBody(setup, d10, addDays(d10, 2), { guest: { first_name: "A", last_name: "B", email: "a@b.example" } })), 201);
    ok(await h.post("/v1/reservations", bookingBody(setup, d10, addDays(d10, 1), { guest: { first_name: "C", last_name: "D", email: "c@d.example" } })), 201);
    const full = expectError(await h.post(`/v1/rooms/${a.id}/retire`), 409, "no_availability");
    expect(full.message).toContain(d10);
    expect(ok(await h.get(`/v1/rooms/${a.id}`)).retired_at).toBeNull();
    expect([...(await inventoryOf(h, { token: h.main.token }, p.id, type.id, d10, addDays(d10, 1))).values()][0]).toMatchObject({ total: 2, sold: 2 });

    // One of them cancelled: room 201 can go; from today the type has one room.
    ok(await h.post(`/v1/reservations/${first.id}/cancel`));
    const retired = ok(await h.post(`/v1/rooms/${a.id}/retire`));
    expect(retired.retired_at).toEqual(expect.any(String));
    const nights = await inventoryOf(h, { token: h.main.token }, p.id, type.id, p.today, addDays(p.today, 12));
    expect([...nights.values()].map((n) => n.total)).toEqual(Array(12).fill(1));
    expect(nights.get(d10)).toMatchObject({ sold: 1, available: 0 });
    expect(ok(await h.get(`/v1/room_types/${type.id}`)).room_count).toBe(1);
    expect(ok(await h.get(`/v1/properties/${p.id}`)).room_count).toBe(1);
    const inventoryEvents = await h.db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, "inventory.updated")));
    expect(inventoryEvents.some((e) => (e.object as { room_type_id: string; from: string }).room_type_id === type.id && (e.object as { from: string }).from === p.today)).toBe(true);

    // Its history stays: the past stay still names it, and it can still be read; lists leave it out.
    expect(ok(await h.get(`/v1/reservations/${stay.id}`)).room_id).toBe(a.id);
    expect(ok(await h.get(`/v1/rooms/${a.id}`))).toMatchObject({ number: a.number, retired_at: retired.retired_at });
    expect(await roomNumbers(p.id)).toEqual([b.number]);
    expect(await roomNumbers(p.id, "&retired=true")).toEqual([a.number]);

    // It cannot be retired again, changed, cleaned, or given a guest; its number stays taken.
    expectError(await h.post(`/v1/rooms/${a.id}/retire`), 409, "invalid_state_transition");
    expectError(await h.patch(`/v1/rooms/${a.id}`, { floor: 3 }), 409, "invalid_state_transition");
    expectError(await h.post(`/v1/rooms/${a.id}/housekeeping`, { status: "dirty" }), 409, "invalid_state_transition");
    expectError(await h.post("/v1/rooms", { room_type_id: type.id, number: a.number }), 422, "parameter_invalid", "number");
    // The remaining room is sold on d10, so it cannot go either.
    expectError(await h.post(`/v1/rooms/${b.id}/retire`), 409, "no_availability");
    // An unknown room, and a body on the action.
    expectError(await h.post("/v1/rooms/room_nope/retire"), 404, "resource_missing");
    expectError(await h.post(`/v1/rooms/${b.id}/retire`, { now: true }), 422, "parameter_unknown", "now");
  });

  it("a new type's first nights count only rooms in service", async () => {
    const p = await newProperty();
    const type = await newType(p.id, "SGL");
    const [a] = ok(await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "1", to_number: "3" }), 201).data as { id: string }[];
    ok(await h.post(`/v1/rooms/${a.id}/retire`));
    // Nights never read before are made now, from the rooms: two in service.
    const far = addDays(p.today, 200);
    expect([...(await inventoryOf(h, { token: h.main.token }, p.id, type.id, far, addDays(far, 2))).values()].map((n) => n.total)).toEqual([2, 2]);
  });
});

describe("derived rate plans", () => {
  it("follow the parent's rates, rounded half up, and move when the parent moves", async () => {
    const p = await newProperty("Europe/Berlin", "EUR");
    const type = await newType(p.id, "DBL");
    await h.post("/v1/rooms/range", { room_type_id: type.id, from_number: "1", to_number: "5" });
    const bar = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "BAR", name: "Best available", room_type_ids: [type.id], meal_plan: "breakfast" }), 201);
    expect(bar).toMatchObject({ meal_plan: "breakfast", derived_from: null, refundable: true });
    const d = (n: number) => addDays(p.today, n);
    ok(await h.post(`/v1/rate_plans/${bar.id}/rates`, { room_type_id: type.id, from: d(0), to: d(4), amount: 12_345, min_stay: 2 }));

    // NRF = BAR − 10 %: 12,345 × 0.9 = 11,110.5 → 11,111. No room types given: the parent's.
    const nrf = ok(
      await h.post("/v1/rate_plans", {
        property_id: p.id,
        code: "NRF",
        name: "Non-refundable",
        refundable: false,
        cancellation_deadline_hours: 0,
        derived_from: { rate_plan_id: bar.id, adjustment_percent: -10 },
      }),
      201,
    );
    expect(nrf).toMatchObject({ room_type_ids: [type.id], refundable: false, meal_plan: "room_only", derived_from: { rate_plan_id: bar.id, adjustment_percent: -10, adjustment_amount: null } });
    // Minus 15.00: 12,345 − 1,500 = 10,845. Minus 200.00: below zero, so 0.
    const fixed = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "LESS15", name: "Fifteen off", derived_from: { rate_plan_id: bar.id, adjustment_amount: -1500 } }), 201);
    const free = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "FREE", name: "Staff", derived_from: { rate_plan_id: bar.id, adjustment_amount: -20_000 } }), 201);
    // A third off: 12,345 × 0.6667 = 8,230.4115 → 8,230.
    const third = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "THIRD", name: "A third off", derived_from: { rate_plan_id: bar.id, adjustment_percent: -33.33 } }), 201);

    const amounts = async (planId: string, from = d(0), to = d(4)) =>
      (ok(await h.get(`/v1/rate_plans/${planId}/rates?room_type_id=${type.id}&from=${from}&to=${to}`)).data as { amount: number | null; min_stay: number; stop_sell: boolean }[]);
    expect((await amounts(nrf.id)).map((n) => n.amount)).toEqual([11_111, 11_111, 11_111, 11_111]);
    expect((await amounts(nrf.id)).map((n) => n.min_stay)).toEqual([2, 2, 2, 2]);
    expect((await amounts(fixed.id)).map((n) => n.amount)).toEqual([10_845, 10_845, 10_845, 10_845]);
    expect((await amounts(free.id)).map((n) => n.amount)).toEqual([0, 0, 0, 0]);
    expect((await amounts(third.id)).map((n) => n.amount)).toEqual([8_230, 8_230, 8_230, 8_230]);

    // The parent moves on two nights: 10,001 − 10 % = 9,000.9 → 9,001; − 15.00 = 8,501; a third off: 10,001 × 0.6667 = 6,667.6667 → 6,668.
    const eventsBefore = (await h.db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, "rate.updated")))).length;
    ok(await h.post(`/v1/rate_plans/${bar.id}/rates`, { room_type_id: type.id, from: d(1), to: d(3), amount: 10_001, stop_sell: true }));
    expect((await amounts(nrf.id)).map((n) => n.amount)).toEqual([11_111, 9_001, 9_001, 11_111]);
    expect((await amounts(nrf.id)).map((n) => n.stop_sell)).toEqual([false, true, true, false]);
    expect((await amounts(fixed.id)).map((n) => n.amount)).toEqual([10_845, 8_501, 8_501, 10_845]);
    expect((await amounts(third.id)).map((n) => n.amount)).toEqual([8_230, 6_668, 6_668, 8_230]);
    // One rate.updated for the parent and one per plan that followed, in the same change.
    const rateEvents = await h.db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, "rate.updated")));
    expect(rateEvents.length - eventsBefore).toBe(5);
    expect(rateEvents.some((e) => (e.object as { rate_plan_id?: string; from?: string }).rate_plan_id === nrf.id && (e.object as { from: string }).from === d(1))).toBe(true);

    // Quotes read the derived plan's own nights, restrictions included: one night on d(3) is
    // 11,111 and falls short of the minimum stay of 2 copied from the parent.
    const quote = ok(await h.get(`/v1/availability?property_id=${p.id}&check_in=${d(3)}&check_out=${d(4)}&adults=1`));
    const quotes = quote.data[0].quotes as { rate_plan_id: string; total: { amount: number }; bookable: boolean; reason?: string }[];
    expect(quotes.find((q) => q.rate_plan_id === nrf.id)).toMatchObject({ total: { amount: 11_111 }, bookable: false, reason: "min_stay" });

    // A derived plan's rates cannot be set directly.
    const direct = expectError(await h.post(`/v1/rate_plans/${nrf.id}/rates`, { room_type_id: type.id, from: d(0), to: d(1), amount: 5000 }), 422, "parameter_invalid");
    expect(direct.message).toContain("derived");
    expect((await amounts(nrf.id, d(0), d(1)))[0].amount).toBe(11_111);

    // Changing the adjustment re-derives every night: −20 % of 12,345 = 9,876; of 10,001 = 8,000.8 → 8,001.
    const changed = ok(await h.patch(`/v1/rate_plans/${nrf.id}`, { derived_from: { rate_plan_id: bar.id, adjustment_percent: -20 }, meal_plan: "half_board" }));
    expect(changed).toMatchObject({ meal_plan: "half_board", derived_from: { adjustment_percent: -20 } });
    expect((await amounts(nrf.id)).map((n) => n.amount)).toEqual([9_876, 8_001, 8_001, 9_876]);

    // Detached, it keeps its rates as its own and no longer follows; now they can be set.
    expect(ok(await h.patch(`/v1/rate_plans/${nrf.id}`, { derived_from: null })).derived_from).toBeNull();
    ok(await h.post(`/v1/rate_plans/${bar.id}/rates`, { room_type_id: type.id, from: d(0), to: d(4), amount: 20_000 }));
    expect((await amounts(nrf.id)).map((n) => n.amount)).toEqual([9_876, 8_001, 8_001, 9_876]);
    ok(await h.post(`/v1/rate_plans/${nrf.id}/rates`, { room_type_id: type.id, from: d(0), to: d(1), amount: 5000 }));
    // The ones still derived followed the 20,000: 18,500 and 0 and 13,334 (20,000 × 0.6667 = 13,334).
    expect((await amounts(fixed.id)).map((n) => n.amount)).toEqual([18_500, 18_500, 18_500, 18_500]);
    expect((await amounts(third.id)).map((n) => n.amount)).toEqual([13_334, 13_334, 13_334, 13_334]);
  });

  it("refuses derivations that cannot hold, and changes nothing", async () => {
    const p = await newProperty();
    const [t1, t2] = [await newType(p.id, "A"), await newType(p.id, "B")];
    const bar = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "BAR", name: "Best", room_type_ids: [t1.id] }), 201);
    const child = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "NRF", name: "NRF", derived_from: { rate_plan_id: bar.id, adjustment_percent: -10 } }), 201);
    const other = await newProperty();
    const foreign = ok(await h.post("/v1/rate_plans", { property_id: other.id, code: "BAR", name: "Best", room_type_ids: [(await newType(other.id, "A")).id] }), 201);
    const create = (extra: Record<string, unknown>) => h.post("/v1/rate_plans", { property_id: p.id, code: "X", name: "X", ...extra });

    expectError(await create({ derived_from: { rate_plan_id: bar.id } }), 422, "parameter_missing", "derived_from.adjustment_percent");
    expectError(await create({ derived_from: { rate_plan_id: bar.id, adjustment_percent: -10, adjustment_amount: -100 } }), 422, "parameter_invalid", "derived_from.adjustment_amount");
    expectError(await create({ derived_from: { rate_plan_id: bar.id, adjustment_percent: -10.005 } }), 422, "parameter_invalid", "derived_from.adjustment_percent");
    expectError(await create({ derived_from: { rate_plan_id: bar.id, adjustment_percent: -101 } }), 422, "parameter_invalid", "derived_from.adjustment_percent");
    expectError(await create({ derived_from: { rate_plan_id: bar.id, adjustment_amount: 1.5 } }), 422, "parameter_invalid", "derived_from.adjustment_amount");
    expectError(await create({ derived_from: { rate_plan_id: child.id, adjustment_percent: -5 } }), 422, "parameter_invalid", "derived_from.rate_plan_id");
    expectError(await create({ derived_from: { rate_plan_id: foreign.id, adjustment_percent: -5 } }), 422, "parameter_invalid", "derived_from.rate_plan_id");
    expectError(await create({ derived_from: { rate_plan_id: "rp_nope", adjustment_percent: -5 } }), 404, "resource_missing", "derived_from.rate_plan_id");
    expectError(await create({ room_type_ids: [t2.id], derived_from: { rate_plan_id: bar.id, adjustment_percent: -5 } }), 422, "parameter_invalid", "room_type_ids.0");
    expectError(await create({ meal_plan: "midnight_snack", room_type_ids: [t1.id] }), 422, "parameter_invalid", "meal_plan");
    expectError(await create({}), 422, "parameter_missing", "room_type_ids");
    // A parent cannot drop a room type its derived plan follows it for, nor become derived itself.
    expectError(await h.patch(`/v1/rate_plans/${bar.id}`, { room_type_ids: [t2.id] }), 422, "parameter_invalid", "room_type_ids");
    const third = ok(await h.post("/v1/rate_plans", { property_id: p.id, code: "OTHER", name: "Other", room_type_ids: [t1.id] }), 201);
    expectError(await h.patch(`/v1/rate_plans/${bar.id}`, { derived_from: { rate_plan_id: third.id, adjustment_percent: 5 } }), 422, "parameter_invalid", "derived_from");
    expectError(await h.patch(`/v1/rate_plans/${third.id}`, { derived_from: { rate_plan_id: third.id, adjustment_percent: 5 } }), 422, "parameter_invalid", "derived_from.rate_plan_id");

    const plans = ok(await h.get(`/v1/rate_plans?property_id=${p.id}`)).data as { code: string; room_type_ids: string[]; derived_from: unknown }[];
    expect(plans.map((x) => x.code).sort()).toEqual(["BAR", "NRF", "OTHER"]);
    expect(plans.find((x) => x.code === "BAR")).toMatchObject({ room_type_ids: [t1.id], derived_from: null });
  });
});

describe("the dashboard's setup procedures", () => {
  it("owners and managers set a hotel up from nothing, every change audited", async () => {
    const manager = caller("manager");
    const property = await manager.setup.property.create({ name: "Pensão Sol", timezone: "Europe/Lisbon", currency: "EUR", address: { city: "Porto" }, check_in_time: "15:00", check_out_time: "11:00" });
    const type = await manager.setup.roomTypes.create({ property_id: property.id, code: "DBL", name: "Double", max_occupancy: 2, beds: "1 double", description: "Quiet, on the patio." });
    const created = await manager.setup.rooms.createRange({ room_type_id: type.id, from_number: "101", to_number: "104", floor: 1 });
    expect(created.map((r) => r.number)).toEqual(["101", "102", "103", "104"]);
    const bar = await caller("owner").setup.ratePlans.create({ property_id: property.id, code: "BAR", name: "Best available", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 48, meal_plan: "breakfast", active: true });
    const retired = await manager.setup.rooms.retire({ id: created[3].id });
    expect(retired.retired_at).not.toBeNull();
    const updated = await manager.setup.property.update({ id: property.id, check_in_time: "14:00" });
    expect(updated.check_in_time).toBe("14:00");
    expect((await manager.setup.rooms.list({ property_id: property.id })).map((r) => r.number)).toEqual(["101", "102", "103"]);
    expect((await manager.setup.rooms.list({ property_id: property.id, retired: true })).map((r) => r.number)).toEqual(["104"]);

    const trail = await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId));
    const actions = (objectId: string) => trail.filter((e) => e.objectId === objectId).map((e) => e.action).sort();
    expect(actions(property.id)).toEqual(["property.created", "property.updated"]);
    expect(actions(type.id)).toEqual(["room_type.created"]);
    expect(actions(created[3].id)).toEqual(["room.created", "room.retired"]);
    expect(actions(bar.id)).toEqual(["rate_plan.created"]);
    const retirement = trail.find((e) => e.action === "room.retired" && e.objectId === created[3].id)!;
    expect(retirement.actorEmail).toBe("manager@setup.example");
    expect(retirement.before).toMatchObject({ retired_at: null });
    // The room's row is still there.
    expect(await h.db.select().from(rooms).where(eq(rooms.id, created[3].id))).toHaveLength(1);
  });

  it("front desk and housekeeping are refused, and nothing changes", async () => {
    const property = await newProperty();
    const type = await newType(property.id, "STD");
    const trailBefore = (await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId))).length;
    for (const role of ["front_desk", "housekeeping"] as const) {
      const c = caller(role);
      expect(await refusal(c.setup.property.create({ name: "X", timezone: "UTC", currency: "EUR", check_in_time: "15:00", check_out_time: "11:00" }))).toBe("FORBIDDEN");
      expect(await refusal(c.setup.property.update({ id: property.id, name: "Taken" }))).toBe("FORBIDDEN");
      expect(await refusal(c.setup.roomTypes.create({ property_id: property.id, code: "Z", name: "Z", max_occupancy: 2 }))).toBe("FORBIDDEN");
      expect(await refusal(c.setup.rooms.createRange({ room_type_id: type.id, from_number: "1", to_number: "9" }))).toBe("FORBIDDEN");
      expect(await refusal(c.setup.ratePlans.create({ property_id: property.id, code: "Z", name: "Z", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24, meal_plan: "room_only", active: true }))).toBe("FORBIDDEN");
      expect(await refusal(c.setup.rooms.list({ property_id: property.id }))).toBe("FORBIDDEN");
    }
    expect(ok(await h.get(`/v1/properties/${property.id}`)).name).toBe("Casa Azul");
    expect(await roomNumbers(property.id)).toEqual([]);
    expect((await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId))).length).toBe(trailBefore);
  });

  it("set a rate plan's three fees on create and edit, as /v1 reads them, every change audited", async () => {
    const property = await newProperty();
    const type = await newType(property.id, "FEE");
    const plan = await caller("owner").setup.ratePlans.create({
      property_id: property.id,
      code: "FLEX",
      name: "Flexible",
      room_type_ids: [type.id],
      refundable: true,
      cancellation_deadline_hours: 24,
      meal_plan: "room_only",
      active: true,
      no_show_fee: { type: "fixed", amount: 4_500 },
      late_check_out_fee: { type: "percent", percent: 50 },
    });
    // Not given: none.
    expect(plan).toMatchObject({ no_show_fee: { type: "fixed", amount: 4_500 }, early_departure_fee: null, late_check_out_fee: { type: "percent", percent: 50 } });
    const edited = await caller("manager").setup.ratePlans.update({
      id: plan.id,
      no_show_fee: { type: "nights", nights: 1 },
      early_departure_fee: { type: "fixed", amount: 2_000 },
      late_check_out_fee: null,
    });
    const fees = { no_show_fee: { type: "nights", nights: 1 }, early_departure_fee: { type: "fixed", amount: 2_000 }, late_check_out_fee: null };
    expect(edited).toMatchObject(fees);
    expect(ok(await h.get(`/v1/rate_plans/${plan.id}`))).toMatchObject(fees);
    expect((await caller("manager").setup.ratePlans.list({ property_id: property.id })).find((p) => p.id === plan.id)).toMatchObject(fees);
    const trail = await h.db.select().from(auditLog).where(eq(auditLog.objectId, plan.id));
    expect(trail.map((e) => e.action).sort()).toEqual(["rate_plan.created", "rate_plan.updated"]);
    const update = trail.find((e) => e.action === "rate_plan.updated")!;
    expect(update.actorEmail).toBe("manager@setup.example");
    expect(update.before).toMatchObject({ no_show_fee: { type: "fixed", amount: 4_500 }, late_check_out_fee: { type: "percent", percent: 50 } });
    expect(update.after).toMatchObject(fees);
  });

  it("refuse a fee that is not money or not a fee, naming the field, and change nothing", async () => {
    const property = await newProperty();
    const type = await newType(property.id, "BAD");
    const owner = caller("owner");
    const base = { property_id: property.id, code: "NRF", name: "Non-refundable", room_type_ids: [type.id], refundable: false, cancellation_deadline_hours: 0, meal_plan: "room_only" as const, active: true };
    const plan = await owner.setup.ratePlans.create({ ...base, no_show_fee: { type: "fixed", amount: 4_500 } });
    const trailBefore = (await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId))).length;
    const wrong: [Record<string, unknown>, string, string?][] = [
      [{ no_show_fee: { type: "fixed", amount: 12.5 } }, "no_show_fee.amount"], // money is whole minor units
      [{ no_show_fee: { type: "fixed", amount: "45.00" } }, "no_show_fee.amount"],
      [{ no_show_fee: { type: "fixed", amount: 0 } }, "no_show_fee.amount"],
      [{ late_check_out_fee: { type: "fixed", amount: -500 } }, "late_check_out_fee.amount"],
      [{ early_departure_fee: { type: "percent", percent: 150 } }, "early_departure_fee.percent"],
      [{ early_departure_fee: { type: "nights", nights: 0 } }, "early_departure_fee.nights"],
      [{ late_check_out_fee: { type: "fixed" } }, "late_check_out_fee.amount", "parameter_missing"],
    ];
    for (const [fee, param, code = "parameter_invalid"] of wrong) {
      for (const call of [owner.setup.ratePlans.update({ id: plan.id, ...fee } as never), owner.setup.ratePlans.create({ ...base, code: "NEW", ...fee } as never)]) {
        const error = await call.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, JSON.stringify(fee)).toBeInstanceOf(TRPCError);
        expect((error as TRPCError).code).toBe("UNPROCESSABLE_CONTENT");
        const cause = (error as TRPCError).cause;
        expect(cause).toBeInstanceOf(ApiError);
        expect(cause, JSON.stringify(fee)).toMatchObject({ code, param });
      }
    }
    // A shape that is no fee at all is refused by its type.
    const unknownShape = await owner.setup.ratePlans.update({ id: plan.id, no_show_fee: { type: "euros", amount: 100 } } as never).then(
      () => undefined,
      (e: TRPCError) => e,
    );
    expect(unknownShape?.cause).toMatchObject({ param: expect.stringMatching(/^no_show_fee/) });
    // Nothing changed: the plan as it was, no plan "NEW", no trail entry.
    expect(ok(await h.get(`/v1/rate_plans/${plan.id}`))).toMatchObject({ no_show_fee: { type: "fixed", amount: 4_500 }, early_departure_fee: null, late_check_out_fee: null });
    expect((await owner.setup.ratePlans.list({ property_id: property.id })).map((p) => p.code)).toEqual(["NRF"]);
    expect((await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId))).length).toBe(trailBefore);
  });

  it("answer the service's refusals in /v1's words", async () => {
    const property = await newProperty();
    const type = await newType(property.id, "STD");
    await caller("owner").setup.rooms.createRange({ room_type_id: type.id, from_number: "1", to_number: "3" });
    const error = await caller("owner")
      .setup.rooms.createRange({ room_type_id: type.id, from_number: "3", to_number: "5" })
      .then(
        () => undefined,
        (e: TRPCError) => e,
      );
    expect(error?.code).toBe("UNPROCESSABLE_CONTENT");
    expect(error?.message).toContain("3");
    expect(await roomNumbers(property.id)).toEqual(["1", "2", "3"]);
  });
});
