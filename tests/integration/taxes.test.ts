import { TRPCError } from "@trpc/server";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { auditLog, properties } from "@/db/schema";
import { createUser, type StaffRole } from "@/server/auth/users";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { addDays, type IsoDate } from "@/lib/dates";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, countEvents, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 27, item 4: taxes and fees per property, posted with every folio line, rounded per line
// (halves away from zero), followed by early departures, and summed by the night audit's flash
// report. Every expected amount below is worked out by hand in the comments beside it.

let h: Harness;
let caller: Caller;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };
type Line = { kind: string; date: string | null; description: string; amount: { amount: number }; net: { amount: number }; tax: { amount: number }; taxes: { name: string; amount: { amount: number }; inclusive: boolean }[] };

/** A fresh property with one room type at `nightly` a night, its rooms clean. */
async function hotelAt(nightly: number, rooms = 3, fees: Record<string, unknown> = {}): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, amount: nightly, days: 10, maxOccupancy: 4 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  if (Object.keys(fees).length) ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, fees, caller));
  return { ...hotel, type };
}
const addTax = async (hotel: Hotel, body: Record<string, unknown>) => ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, ...body }, caller), 201);
const book = (hotel: Hotel, from: IsoDate, to: IsoDate, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, extra), caller);
const folioOf = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, caller));
const lines = async (id: string): Promise<Line[]> => (await folioOf(id)).charges;
const brief = (l: Line) => ({ kind: l.kind, date: l.date, gross: l.amount.amount, net: l.net.amount, tax: l.tax.amount });

describe("/v1/taxes", () => {
  it("creates, lists, retrieves and updates a property's taxes, each change an event", async () => {
    const hotel = await hotelAt(10_000);
    const before = { created: await countEvents(h, h.main.account.id, "tax.created"), updated: await countEvents(h, h.main.account.id, "tax.updated") };
    const vat = await addTax(hotel, { name: "VAT", kind: "percentage", percentage: 7.5, inclusive: true });
    expect(vat).toMatchObject({ object: "tax", property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 7.5, amount: null, inclusive: true, applies_to: "room_nights", active: true });
    expect(vat.id).toMatch(/^tax_/);
    const city = await addTax(hotel, { name: "City tax", kind: "per_person_per_night", amount: 250 });
    expect(city).toMatchObject({ kind: "per_person_per_night", percentage: null, amount: { amount: 250, currency: "USD" }, inclusive: false, applies_to: "room_nights" });
    const list = ok(await h.get(`/v1/taxes?property_id=${hotel.propertyId}`, caller));
    expect(list.data.map((t: { id: string }) => t.id)).toEqual([city.id, vat.id]);
    expect(ok(await h.get(`/v1/taxes/${vat.id}`, caller))).toEqual(vat);
    const changed = ok(await h.patch(`/v1/taxes/${vat.id}`, { name: "IVA", percentage: 23, active: false }, caller));
    expect(changed).toMatchObject({ name: "IVA", percentage: 23, inclusive: true, active: false });
    expect(await countEvents(h, h.main.account.id, "tax.created")).toBe(before.created + 2);
    expect(await countEvents(h, h.main.account.id, "tax.updated")).toBe(before.updated + 1);
  });

  it("refuses a tax of the wrong shape and changes nothing", async () => {
    const hotel = await hotelAt(10_000);
    const vat = await addTax(hotel, { name: "VAT", kind: "percentage", percentage: 10 });
    const count = async () => rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from taxes where property_id = ${hotel.propertyId}`))[0].n;
    const events = await countEvents(h, h.main.account.id);
    const base = { property_id: hotel.propertyId, name: "Tax" };
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage" }, caller), 422, "parameter_missing", "percentage");
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage", percentage: 10, amount: 100 }, caller), 422, "parameter_invalid", "amount");
    expectError(await h.post("/v1/taxes", { ...base, kind: "per_night" }, caller), 422, "parameter_missing", "amount");
    expectError(await h.post("/v1/taxes", { ...base, kind: "per_night", amount: 100, inclusive: true }, caller), 422, "parameter_invalid", "inclusive");
    expectError(await h.post("/v1/taxes", { ...base, kind: "per_night", amount: 100, applies_to: "other_charges" }, caller), 422, "parameter_invalid", "applies_to");
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage", percentage: 0 }, caller), 422, "parameter_invalid", "percentage");
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage", percentage: 100.5 }, caller), 422, "parameter_invalid", "percentage");
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage", percentage: 7.1234 }, caller), 422, "parameter_invalid", "percentage");
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage", percentage: "10" }, caller), 422, "parameter_invalid", "percentage");
    expectError(await h.post("/v1/taxes", { ...base, kind: "flat", amount: 1 }, caller), 422, "parameter_invalid", "kind");
    expectError(await h.post("/v1/taxes", { ...base, kind: "percentage", percentage: 10, rate: 1 }, caller), 422, "parameter_unknown", "rate");
    expectError(await h.post("/v1/taxes", { ...base, property_id: "prop_missing", kind: "percentage", percentage: 10 }, caller), 404, "resource_missing", "property_id");
    expectError(await h.post("/v1/taxes", { name: "", kind: "percentage", percentage: 10, property_id: hotel.propertyId }, caller), 422, "parameter_invalid", "name");
    expectError(await h.patch(`/v1/taxes/${vat.id}`, { amount: 100 }, caller), 422, "parameter_invalid", "amount");
    expectError(await h.patch(`/v1/taxes/${vat.id}`, { kind: "per_night" }, caller), 422, "parameter_unknown", "kind");
    expectError(await h.patch(`/v1/taxes/${vat.id}`, { percentage: -1 }, caller), 422, "parameter_invalid", "percentage");
    expectError(await h.patch("/v1/taxes/tax_missing", { name: "X" }, caller), 404, "resource_missing");
    for (const raw of ["", "{", "[]", "null", '{"name": 5}']) {
      const res = await h.request("PATCH", `/v1/taxes/${vat.id}`, { rawBody: raw, headers: { "content-type": "application/json" } });
      expect(res.status, raw).toBeGreaterThanOrEqual(400);
    }
    expect(await count()).toBe(1);
    expect(ok(await h.get(`/v1/taxes/${vat.id}`, caller))).toEqual(vat);
    expect(await countEvents(h, h.main.account.id)).toBe(events);
  });
});

describe("taxes on folio lines", () => {
  it("adds an exclusive percentage per line, rounds halves away from zero, and posts a per-person fee per night", async () => {
    const hotel = await hotelAt(12_345);
    const T = hotel.today;
    await addTax(hotel, { name: "State tax", kind: "percentage", percentage: 8.875 });
    await addTax(hotel, { name: "City tax", kind: "per_person_per_night", amount: 250 });
    await addTax(hotel, { name: "Service tax", kind: "percentage", percentage: 10, applies_to: "other_charges" });
    const r = ok(await book(hotel, T, addDays(T, 3), { adults: 2, children: 1 }), 201);
    const folio = await folioOf(r.id);
    // Each night: 12,345 × 8.875 % = 1,095.61875 → 1,096 of tax, 13,441 gross; city tax 3 guests × 250 = 750.
    const night = (d: IsoDate) => [
      { kind: "room_night", date: d, gross: 13_441, net: 12_345, tax: 1_096 },
      { kind: "tax", date: d, gross: 750, net: 0, tax: 750 },
    ];
    expect(folio.charges.map(brief)).toEqual([...night(T), ...night(addDays(T, 1)), ...night(addDays(T, 2))]);
    expect(folio.charges[1].description).toBe(`City tax, 3 guests, night of ${T}`);
    expect(folio.charges[0].taxes).toEqual([expect.objectContaining({ name: "State tax", amount: { amount: 1_096, currency: "USD" }, inclusive: false })]);
    // 3 × 13,441 + 3 × 750 = 42,573; tax 3 × 1,096 + 2,250 = 5,538; net 3 × 12,345 = 37,035.
    expect(folio.totals).toEqual({ net: { amount: 37_035, currency: "USD" }, tax: { amount: 5_538, currency: "USD" }, gross: { amount: 42_573, currency: "USD" } });
    expect(folio.balance.amount).toBe(42_573);

    // An extra of 10.05 at 10 %: 100.5 → 101 (half away from zero, not to even); a credit of −10.05: −101.
    const extra = ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Minibar", amount: 1_005 }, caller), 201);
    expect(brief(extra)).toEqual({ kind: "extra", date: null, gross: 1_106, net: 1_005, tax: 101 });
    const credit = ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Goodwill", amount: -1_005 }, caller), 201);
    expect(brief(credit)).toEqual({ kind: "extra", date: null, gross: -1_106, net: -1_005, tax: -101 });
  });

  it("takes an inclusive percentage out of the price: net = round(price ÷ (1 + rate)), tax = price − net", async () => {
    const hotel = await hotelAt(12_345);
    const T = hotel.today;
    await addTax(hotel, { name: "VAT", kind: "percentage", percentage: 7, inclusive: true });
    // Two inclusive taxes on other charges: 10,000 ÷ 1.15 = 8,695.65… → 8,696 net, 1,304 of tax:
    // the first (10 %) round(8,696 × 0.10) = 870, the last (5 %) what is left, 434.
    await addTax(hotel, { name: "Tourism VAT", kind: "percentage", percentage: 10, inclusive: true, applies_to: "other_charges" });
    await addTax(hotel, { name: "Local levy", kind: "percentage", percentage: 5, inclusive: true, applies_to: "other_charges" });
    const r = ok(await book(hotel, T, addDays(T, 2)), 201);
    // 12,345 ÷ 1.07 = 11,537.38… → 11,537 net; 808 of VAT; the guest pays the rate, 12,345.
    expect((await lines(r.id)).map(brief)).toEqual([
      { kind: "room_night", date: T, gross: 12_345, net: 11_537, tax: 808 },
      { kind: "room_night", date: addDays(T, 1), gross: 12_345, net: 11_537, tax: 808 },
    ]);
    const extra = ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Spa", amount: 10_000 }, caller), 201);
    expect(brief(extra)).toEqual({ kind: "extra", date: null, gross: 10_000, net: 8_696, tax: 1_304 });
    expect(extra.taxes.map((t: Line["taxes"][number]) => [t.name, t.amount.amount])).toEqual([["Tourism VAT", 870], ["Local levy", 434]]);
    const folio = await folioOf(r.id);
    // 2 × 12,345 + 10,000 = 34,690 gross; 808 × 2 + 1,304 = 2,920 tax.
    expect(folio.totals).toMatchObject({ gross: { amount: 34_690 }, tax: { amount: 2_920 }, net: { amount: 31_770 } });
  });

  it("a stopped tax applies to no new line; lines posted keep theirs", async () => {
    const hotel = await hotelAt(10_000);
    const T = hotel.today;
    const vat = await addTax(hotel, { name: "VAT", kind: "percentage", percentage: 10 });
    const a = ok(await book(hotel, T, addDays(T, 1)), 201);
    ok(await h.patch(`/v1/taxes/${vat.id}`, { active: false }, caller));
    const b = ok(await book(hotel, T, addDays(T, 1)), 201);
    expect((await lines(a.id)).map(brief)).toEqual([{ kind: "room_night", date: T, gross: 11_000, net: 10_000, tax: 1_000 }]);
    expect((await lines(b.id)).map(brief)).toEqual([{ kind: "room_night", date: T, gross: 10_000, net: 10_000, tax: 0 }]);
  });

  it("an early departure removes the unused nights' taxes and fees; the fee is taxed as another charge", async () => {
    const hotel = await hotelAt(12_345, 2, { early_departure_fee: { type: "fixed", amount: 2_000 } });
    const T = hotel.today;
    await addTax(hotel, { name: "State tax", kind: "percentage", percentage: 8.875 });
    await addTax(hotel, { name: "City tax", kind: "per_person_per_night", amount: 250 });
    await addTax(hotel, { name: "Service tax", kind: "percentage", percentage: 10, applies_to: "other_charges" });
    const r = ok(await book(hotel, T, addDays(T, 3), { adults: 2, children: 1 }), 201);
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller));
    await h.db.update(properties).set({ businessDate: addDays(T, 1) }).where(eq(properties.id, hotel.propertyId));
    // Kept: night T, 13,441 + 750. Fee 2,000 + 10 % = 2,200. Due: 16,391.
    ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 16_391, payment_method: { type: "cash" } }, caller), 201);
    expect(ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller))).toMatchObject({ status: "checked_out", check_out: addDays(T, 1) });
    const folio = await folioOf(r.id);
    expect(folio.charges.map(brief)).toEqual([
      { kind: "room_night", date: T, gross: 13_441, net: 12_345, tax: 1_096 },
      { kind: "tax", date: T, gross: 750, net: 0, tax: 750 },
      { kind: "early_departure_fee", date: addDays(T, 1), gross: 2_200, net: 2_000, tax: 200 },
    ]);
    // 13,441 + 750 + 2,200 = 16,391; tax 1,096 + 750 + 200 = 2,046; net 14,345.
    expect(folio.totals).toMatchObject({ gross: { amount: 16_391 }, tax: { amount: 2_046 }, net: { amount: 14_345 } });
    expect(folio).toMatchObject({ status: "closed", balance: { amount: 0 } });
  });
});

describe("the flash report's taxes and revenue", () => {
  it("equal the sum of the day's folio lines", async () => {
    const hotel = await hotelAt(12_345);
    const T = hotel.today;
    const vat = await addTax(hotel, { name: "VAT", kind: "percentage", percentage: 7, inclusive: true });
    const levy = await addTax(hotel, { name: "Tourism levy", kind: "per_night", amount: 300 });
    const service = await addTax(hotel, { name: "Service tax", kind: "percentage", percentage: 10, applies_to: "other_charges" });
    const x = ok(await book(hotel, T, addDays(T, 2)), 201);
    const y = ok(await book(hotel, T, addDays(T, 1), { adults: 2, guest: { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" } }), 201);
    for (const r of [x, y]) ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller));
    ok(await h.post(`/v1/folios/${x.folio_id}/charges`, { description: "Dinner", amount: 2_500 }, caller), 201);
    const audit = await runNightAudit({ db: h.db, propertyId: hotel.propertyId, trigger: "manual", closeCurrentDay: true });
    expect(audit).not.toBeNull();
    const flash = ok(await h.get(`/v1/night_audits/${audit!.id}`, caller)).flash;
    // Night T: two room nights of 12,345 (808 of VAT in each: 12,345 ÷ 1.07 → 11,537 net), two
    // levies of 300, and the dinner, 2,500 + 250 of service tax. Gross 24,690 + 600 + 2,750 = 28,040;
    // tax 1,616 + 600 + 250 = 2,466; net 25,574. X's second night (T+1) is not the day's.
    expect(flash.revenue_by_kind).toMatchObject({ room_night: 24_690, tax: 600, extra: 2_750 });
    expect(flash.charged).toEqual({ net: 25_574, tax: 2_466, gross: 28_040 });
    expect(flash.taxes.total).toBe(2_466);
    expect(Object.fromEntries(flash.taxes.by_tax.map((t: { tax_id: string; amount: number }) => [t.tax_id, t.amount]))).toEqual({ [vat.id]: 1_616, [levy.id]: 600, [service.id]: 250 });
    // The same from the folios themselves: their lines of the night T and the extras of the day.
    const day = [...(await lines(x.id)), ...(await lines(y.id))].filter((l) => l.date === T || l.date === null);
    expect(day.reduce((s, l) => s + l.amount.amount, 0)).toBe(flash.charged.gross);
    expect(day.reduce((s, l) => s + l.tax.amount, 0)).toBe(flash.taxes.total);
    expect(day.reduce((s, l) => s + l.net.amount, 0)).toBe(flash.charged.net);
  });
});

describe("the dashboard's taxes (tRPC setup.taxes)", () => {
  it("owners and managers add and change taxes, each on the trail; front desk and housekeeping are refused and change nothing", async () => {
    const hotel = await hotelAt(10_000);
    const accountId = h.main.account.id;
    const as = async (role: StaffRole) => {
      const user = await createUser({ db: h.db, input: { accountId, email: `${role}@taxes.example`, password: "password-1", role } });
      const session: StaffSession = { user: { id: user.id, accountId, role, name: role, email: user.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
      return createCaller({ db: h.db, session, livemode: true });
    };
    const manager = await as("manager");
    const vat = await manager.setup.taxes.create({ property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 7.5, inclusive: true });
    const changed = await manager.setup.taxes.update({ id: vat.id, name: "VAT (reduced)" });
    expect(changed).toMatchObject({ name: "VAT (reduced)", percentage: 7.5, inclusive: true });
    expect((await manager.setup.taxes.list({ property_id: hotel.propertyId })).map((t) => t.name)).toEqual(["VAT (reduced)"]);
    const trail = await h.db.select().from(auditLog).where(and(eq(auditLog.accountId, accountId), eq(auditLog.objectId, vat.id)));
    expect(trail.map((e) => e.action).sort()).toEqual(["tax.created", "tax.updated"]);
    const before = await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId));
    for (const role of ["front_desk", "housekeeping"] as const) {
      const c = await as(role);
      for (const call of [
        c.setup.taxes.list({ property_id: hotel.propertyId }),
        c.setup.taxes.create({ property_id: hotel.propertyId, name: "X", kind: "per_night", amount: 100 }),
        c.setup.taxes.update({ id: vat.id, active: false }),
      ]) {
        const error = await call.then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(TRPCError);
        expect((error as TRPCError).code).toBe("FORBIDDEN");
      }
    }
    expect(ok(await h.get(`/v1/taxes/${vat.id}`, caller))).toMatchObject({ name: "VAT (reduced)", active: true });
    expect(ok(await h.get(`/v1/taxes?property_id=${hotel.propertyId}`, caller)).data).toHaveLength(1);
    expect(await h.db.select().from(auditLog).where(eq(auditLog.accountId, accountId))).toHaveLength(before.length);
  });
});
