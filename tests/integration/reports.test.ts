import { parse } from "csv-parse/sync";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { moneyDays, payments, properties, refunds, reservations } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, insertProperty, ok, sandboxProperty, type Caller } from "../support/hotel";

// Issue #5: occupancy, revenue and production reports (contract §6) equal a fixture computed by
// hand below, for a small live property built through the API; the CSV form, read by a real CSV
// parser, says the same as the JSON form.

let h: Harness;
const caller: Caller = { token: "" };
let propertyId: string;
let timezone: string;
let today: IsoDate;
const d = (n: number): IsoDate => addDays(today, n);
const ids = { kng: "", ste: "", bar: "", nrf: "" };

/**
 * The zone where it is now closest to noon: payments are reported on the property's local date,
 * so the fixture's "today" must not roll over while the test runs.
 */
function zoneNearNoon(now = new Date()) {
  const zones = ["Pacific/Pago_Pago", "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver", "America/Chicago", "America/New_York", "America/Sao_Paulo", "Atlantic/South_Georgia", "Atlantic/Azores", "UTC", "Europe/Paris", "Europe/Athens", "Europe/Moscow", "Asia/Dubai", "Asia/Karachi", "Asia/Dhaka", "Asia/Bangkok", "Asia/Shanghai", "Asia/Tokyo", "Australia/Brisbane", "Pacific/Noumea", "Pacific/Tarawa", "Pacific/Kiritimati"];
  const hour = (zone: string) => {
    const parts = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "numeric", minute: "numeric", hourCycle: "h23" }).formatToParts(now);
    return Number(parts.find((p) => p.type === "hour")!.value) + Number(parts.find((p) => p.type === "minute")!.value) / 60;
  };
  return zones.reduce((best, zone) => (Math.abs(hour(zone) - 12) < Math.abs(hour(best) - 12) ? zone : best));
}

/**
 * The fixture. Room types KNG (3 rooms, one out of order tonight and tomorrow) and STE (2 rooms);
 * rate plans BAR (KNG 10000, but 12000 on night 1; STE 25000) and NRF (KNG only, 9000).
 * Stays, by arrival (d0 = the property's today):
 *   R1 KNG BAR d0–d2 direct             checked in  10000 + 12000 = 22000
 *   R2 KNG NRF d1–d4 channel booking_com confirmed  3 × 9000 = 27000
 *   R3 STE BAR d0–d3 phone               confirmed  3 × 25000 = 75000
 *   R4 KNG BAR d2–d3 channel expedia     cancelled
 *   R5 STE BAR d1–d2 api                 no-show
 *   R6 KNG BAR d3–d5 email               confirmed  2 × 10000 = 20000
 *   R7 KNG BAR d4–d6 direct              confirmed  2 × 10000 = 20000 (night d5 outside the report)
 *   R8 KNG NRF d2–d3 channel booking_com cancelled  (its charge stays; paid)
 *   R9 STE BAR d5–d6 walk_in             confirmed  outside the report, but paid today
 * Payments today: R1 22000 cash, R3 30000 bank transfer, R2 5000 cash (2000 refunded), R8 9000
 * cash, R9 1000 cash (refunded in full).
 * The report covers [d0, d5).
 */
const stays = {} as Record<"r1" | "r2" | "r3" | "r4" | "r5" | "r6" | "r7" | "r8" | "r9", { id: string }>;

beforeAll(async () => {
  h = await startHarness();
  caller.token = h.main.token;
  timezone = zoneNearNoon();
  const property = await insertProperty(h, h.main.account.id, { timezone, name: "Fixture Inn" });
  propertyId = property.id;
  today = todayIn(timezone);

  const roomType = async (code: string, rooms: number) => {
    const t = ok(await h.post("/v1/room_types", { property_id: propertyId, code, name: code, max_occupancy: 2 }, caller), 201);
    const roomIds: string[] = [];
    for (let i = 1; i <= rooms; i++) roomIds.push(ok(await h.post("/v1/rooms", { room_type_id: t.id, number: `${code}${i}` }, caller), 201).id);
    return { id: t.id as string, roomIds };
  };
  const kng = await roomType("KNG", 3);
  const ste = await roomType("STE", 2);
  ids.kng = kng.id;
  ids.ste = ste.id;
  const plan = async (code: string, typeIds: string[], refundable: boolean) =>
    ok(await h.post("/v1/rate_plans", { property_id: propertyId, code, name: code, room_type_ids: typeIds, refundable, cancellation_deadline_hours: 24 }, caller), 201).id as string;
  ids.bar = await plan("BAR", [kng.id, ste.id], true);
  ids.nrf = await plan("NRF", [kng.id], false);
  const rate = async (planId: string, typeId: string, from: IsoDate, to: IsoDate, amount: number) =>
    ok(await h.post(`/v1/rate_plans/${planId}/rates`, { room_type_id: typeId, from, to, amount }, caller));
  await rate(ids.bar, kng.id, d(0), d(30), 10_000);
  await rate(ids.bar, kng.id, d(1), d(2), 12_000);
  await rate(ids.bar, ste.id, d(0), d(30), 25_000);
  await rate(ids.nrf, kng.id, d(0), d(30), 9_000);

  ok(await h.post(`/v1/rooms/${kng.roomIds[2]}/housekeeping`, { status: "out-of-order", reason: "Broken heater", until: d(2) }, caller));

  const book = async (typeId: string, planId: string, from: number, to: number, source: string, channel?: string) =>
    ok(
      await h.post(
        "/v1/reservations",
        bookingBody({ propertyId, roomTypeId: typeId, ratePlanId: planId }, d(from), d(to), { source, ...(channel ? { channel } : {}) }),
        caller,
      ),
      201,
    ) as { id: string };
  stays.r1 = await book(kng.id, ids.bar, 0, 2, "direct");
  stays.r2 = await book(kng.id, ids.nrf, 1, 4, "channel", "booking_com");
  stays.r3 = await book(ste.id, ids.bar, 0, 3, "phone");
  stays.r4 = await book(kng.id, ids.bar, 2, 3, "channel", "expedia");
  stays.r5 = await book(ste.id, ids.bar, 1, 2, "api");
  stays.r6 = await book(kng.id, ids.bar, 3, 5, "email");
  stays.r7 = await book(kng.id, ids.bar, 4, 6, "direct");
  stays.r8 = await book(kng.id, ids.nrf, 2, 3, "channel", "booking_com");
  stays.r9 = await book(ste.id, ids.bar, 5, 6, "walk_in");

  ok(await h.post(`/v1/reservations/${stays.r1.id}/check_in`, {}, caller));
  ok(await h.post(`/v1/reservations/${stays.r4.id}/cancel`, {}, caller));
  ok(await h.post(`/v1/reservations/${stays.r8.id}/cancel`, {}, caller));
  // A no-show can only be recorded after the arrival date, which has not come: set it directly.
  await h.db.update(reservations).set({ status: "no_show" }).where(eq(reservations.id, stays.r5.id));

  const pay = async (stay: { id: string }, method: Record<string, unknown>, amount?: number) =>
    ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: method, ...(amount ? { amount } : {}) }, caller), 201) as { id: string; amount: { amount: number } };
  expect((await pay(stays.r1, { type: "cash" })).amount.amount).toBe(22_000);
  await pay(stays.r3, { type: "bank_transfer", reference: "T-1" }, 30_000);
  const r2 = await pay(stays.r2, { type: "cash" }, 5_000);
  expect((await pay(stays.r8, { type: "cash" })).amount.amount).toBe(9_000);
  const r9 = await pay(stays.r9, { type: "cash" }, 1_000);
  ok(await h.post("/v1/refunds", { payment_id: r2.id, amount: 2_000 }, caller), 201);
  ok(await h.post("/v1/refunds", { payment_id: r9.id }, caller), 201);
  // The hand-computed payments and refunds below are on the day the fixture was built.
  expect(todayIn(timezone)).toBe(today);
});
afterAll(async () => h?.close());

const report = async (kind: string, query = "") => ok(await h.get(`/v1/reports/${kind}?property_id=${propertyId}&from=${d(0)}&to=${d(5)}${query}`, caller));

describe("the figures equal the hand-computed fixture", () => {
  it("occupancy: rooms in service (less out of order), rooms sold (no cancelled or no-show stays), occupancy 0–1", async () => {
    const r = await report("occupancy");
    expect(r).toEqual({
      object: "report",
      type: "occupancy",
      livemode: true,
      property_id: propertyId,
      currency: "USD",
      from: d(0),
      to: d(5),
      data: [
        { date: d(0), rooms_available: 4, rooms_sold: 2, occupancy: 0.5 }, // R1, R3; KNG3 out of order
        { date: d(1), rooms_available: 4, rooms_sold: 3, occupancy: 0.75 }, // R1, R2, R3 (R5 no-show)
        { date: d(2), rooms_available: 5, rooms_sold: 2, occupancy: 0.4 }, // R2, R3 (R4, R8 cancelled)
        { date: d(3), rooms_available: 5, rooms_sold: 2, occupancy: 0.4 }, // R2, R6
        { date: d(4), rooms_available: 5, rooms_sold: 2, occupancy: 0.4 }, // R6, R7
      ],
      totals: { rooms_available: 23, rooms_sold: 11, occupancy: 0.4783 },
    });
    for (const row of r.data) {
      expect(row.occupancy).toBeGreaterThanOrEqual(0);
      expect(row.occupancy).toBeLessThanOrEqual(1);
    }
  });

  it("revenue: room revenue, ADR, RevPAR per night; payments and refunds on the day they happened", async () => {
    const r = await report("revenue");
    expect(r).toEqual({
      object: "report",
      type: "revenue",
      livemode: true,
      property_id: propertyId,
      currency: "USD",
      from: d(0),
      to: d(5),
      data: [
        // 10000 + 25000 over 2 sold and 4 available; payments 22000 + 30000 + 5000 + 9000 + 1000.
        { date: d(0), room_revenue: 35_000, net: 35_000, tax: 0, gross: 35_000, adr: 17_500, revpar: 8_750, payments: 67_000, refunds: 3_000, credited_net: 0, credited_tax: 0, credited_gross: 0 },
        // 12000 + 9000 + 25000 = 46000: ADR 15333.33 → 15333, RevPAR 46000 / 4.
        { date: d(1), room_revenue: 46_000, net: 46_000, tax: 0, gross: 46_000, adr: 15_333, revpar: 11_500, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 },
        { date: d(2), room_revenue: 34_000, net: 34_000, tax: 0, gross: 34_000, adr: 17_000, revpar: 6_800, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 },
        { date: d(3), room_revenue: 19_000, net: 19_000, tax: 0, gross: 19_000, adr: 9_500, revpar: 3_800, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 },
        { date: d(4), room_revenue: 20_000, net: 20_000, tax: 0, gross: 20_000, adr: 10_000, revpar: 4_000, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 },
      ],
      // 154000 over 11 rooms sold and 23 available: 14000 and 6695.65 → 6696.
      totals: { room_revenue: 154_000, net: 154_000, tax: 0, gross: 154_000, adr: 14_000, revpar: 6_696, payments: 67_000, refunds: 3_000, credited_net: 0, credited_tax: 0, credited_gross: 0 },
    });
  });

  it("a window cut through a stay counts only its nights inside; an empty window is all zeros", async () => {
    const one = ok(await h.get(`/v1/reports/revenue?property_id=${propertyId}&from=${d(1)}&to=${d(2)}`, caller));
    expect(one.data).toEqual([{ date: d(1), room_revenue: 46_000, net: 46_000, tax: 0, gross: 46_000, adr: 15_333, revpar: 11_500, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 }]);
    const later = ok(await h.get(`/v1/reports/occupancy?property_id=${propertyId}&from=${d(5)}&to=${d(7)}`, caller));
    expect(later.data).toEqual([
      { date: d(5), rooms_available: 5, rooms_sold: 2, occupancy: 0.4 }, // R7's second night, R9
      { date: d(6), rooms_available: 5, rooms_sold: 0, occupancy: 0 },
    ]);
    const past = ok(await h.get(`/v1/reports/revenue?property_id=${propertyId}&from=${d(-10)}&to=${d(-8)}`, caller));
    expect(past.totals).toEqual({ room_revenue: 0, net: 0, tax: 0, gross: 0, adr: 0, revpar: 0, payments: 0, refunds: 0, credited_net: 0, credited_tax: 0, credited_gross: 0 });
  });

  const productionTotals = { reservations: 6, room_nights: 12, room_revenue: 164_000, net: 164_000, tax: 0, gross: 164_000, cancellations: 2 };
  const byGroup = <T extends { group: string | null }>(rows: T[]) => [...rows].sort((a, b) => String(a.group).localeCompare(String(b.group)));

  it("production by source (the default): stays arriving in the window; cancellations apart", async () => {
    const r = await report("production");
    expect(r).toMatchObject({ object: "report", type: "production", group_by: "source", from: d(0), to: d(5), totals: productionTotals });
    expect(r.data).toEqual([
      { group: "api", reservations: 1, room_nights: 0, room_revenue: 0, net: 0, tax: 0, gross: 0, cancellations: 0 }, // R5, no-show
      { group: "channel", reservations: 1, room_nights: 3, room_revenue: 27_000, net: 27_000, tax: 0, gross: 27_000, cancellations: 2 }, // R2; R4, R8
      { group: "direct", reservations: 2, room_nights: 4, room_revenue: 42_000, net: 42_000, tax: 0, gross: 42_000, cancellations: 0 }, // R1, R7
      { group: "email", reservations: 1, room_nights: 2, room_revenue: 20_000, net: 20_000, tax: 0, gross: 20_000, cancellations: 0 }, // R6
      { group: "phone", reservations: 1, room_nights: 3, room_revenue: 75_000, net: 75_000, tax: 0, gross: 75_000, cancellations: 0 }, // R3
    ]);
    expect(await report("production", "&group_by=source")).toEqual(r);
  });

  it("production by channel: stays without one form the null group", async () => {
    const r = await report("production", "&group_by=channel");
    expect(r.totals).toEqual(productionTotals);
    expect(r.data).toEqual([
      { group: "booking_com", reservations: 1, room_nights: 3, room_revenue: 27_000, net: 27_000, tax: 0, gross: 27_000, cancellations: 1 }, // R2; R8
      { group: "expedia", reservations: 0, room_nights: 0, room_revenue: 0, net: 0, tax: 0, gross: 0, cancellations: 1 }, // R4
      { group: null, reservations: 5, room_nights: 9, room_revenue: 137_000, net: 137_000, tax: 0, gross: 137_000, cancellations: 0 }, // R1, R3, R5, R6, R7
    ]);
  });

  it("production by rate plan and by room type, named by their codes", async () => {
    const plans = await report("production", "&group_by=rate_plan");
    expect(plans.totals).toEqual(productionTotals);
    expect(byGroup(plans.data)).toEqual(
      byGroup([
        { group: ids.bar, group_name: "BAR", reservations: 5, room_nights: 9, room_revenue: 137_000, net: 137_000, tax: 0, gross: 137_000, cancellations: 1 }, // R1 R3 R5 R6 R7; R4
        { group: ids.nrf, group_name: "NRF", reservations: 1, room_nights: 3, room_revenue: 27_000, net: 27_000, tax: 0, gross: 27_000, cancellations: 1 }, // R2; R8
      ]),
    );
    const types = await report("production", "&group_by=room_type");
    expect(types.totals).toEqual(productionTotals);
    expect(byGroup(types.data)).toEqual(
      byGroup([
        { group: ids.kng, group_name: "KNG", reservations: 4, room_nights: 9, room_revenue: 89_000, net: 89_000, tax: 0, gross: 89_000, cancellations: 2 }, // R1 R2 R6 R7; R4 R8
        { group: ids.ste, group_name: "STE", reservations: 2, room_nights: 3, room_revenue: 75_000, net: 75_000, tax: 0, gross: 75_000, cancellations: 0 }, // R3 R5
      ]),
    );
  });
});

describe("CSV", () => {
  const variants = [
    ["occupancy", ""],
    ["revenue", ""],
    ["production", ""],
    ["production", "&group_by=channel"],
    ["production", "&group_by=rate_plan"],
    ["production", "&group_by=room_type"],
  ] as const;

  for (const [kind, query] of variants) {
    it(`${kind}${query}: text/csv as an attachment, parsed by csv-parse, equals the JSON rows`, async () => {
      const json = await report(kind, query);
      const res = await h.get(`/v1/reports/${kind}?property_id=${propertyId}&from=${d(0)}&to=${d(5)}${query}&format=csv`, caller);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${kind}-${propertyId}-${d(0)}-${d(5)}.csv"`);
      const records: Record<string, string>[] = parse(res.text, { columns: true });
      const header: string[] = parse(res.text, { to_line: 1 })[0];
      expect(header).toEqual(Object.keys(json.data[0]));
      const typed = records.map((rec) =>
        Object.fromEntries(header.map((col) => [col, typeof json.data[0][col] === "number" ? Number(rec[col]) : rec[col] === "" ? null : rec[col]])),
      );
      expect(typed).toEqual(json.data);
      expect(records).toHaveLength(json.data.length);
    });
  }

  it("quotes what needs quoting: a rate plan code is plain, every line ends in CRLF", async () => {
    const res = await h.get(`/v1/reports/occupancy?property_id=${propertyId}&from=${d(0)}&to=${d(2)}&format=csv`, caller);
    expect(res.text).toBe(`date,rooms_available,rooms_sold,occupancy\r\n${d(0)},4,2,0.5\r\n${d(1)},4,3,0.75\r\n`);
  });
});

describe("refusals", () => {
  const get = (kind: string, query: string, as: Caller = caller) => h.get(`/v1/reports/${kind}?${query}`, as);
  const base = () => `property_id=${propertyId}&from=${d(0)}&to=${d(5)}`;

  it("group_by belongs to production only (400)", async () => {
    expectError(await get("occupancy", `${base()}&group_by=source`), 400, "parameter_invalid", "group_by");
    expectError(await get("revenue", `${base()}&group_by=room_type`), 400, "parameter_invalid", "group_by");
    expectError(await get("production", `${base()}&group_by=guest`), 400, "parameter_invalid", "group_by");
  });

  it("ranges: to after from, at most 731 days, real dates (400)", async () => {
    for (const kind of ["occupancy", "revenue", "production"]) {
      expectError(await get(kind, `property_id=${propertyId}&from=${d(3)}&to=${d(3)}`), 400, "parameter_invalid", "to");
      expectError(await get(kind, `property_id=${propertyId}&from=${d(3)}&to=${d(1)}`), 400, "parameter_invalid", "to");
      expectError(await get(kind, `property_id=${propertyId}&from=${d(0)}&to=${d(732)}`), 400, "parameter_invalid", "to");
      expectError(await get(kind, `property_id=${propertyId}&from=2026-02-30&to=${d(1)}`), 400, "parameter_invalid", "from");
      expectError(await get(kind, `property_id=${propertyId}&to=${d(1)}`), 400, "parameter_invalid", "from");
      expectError(await get(kind, `from=${d(0)}&to=${d(1)}`), 400, "parameter_invalid", "property_id");
      expectError(await get(kind, `${base()}&format=xml`), 400, "parameter_invalid", "format");
    }
    const longest = ok(await get("occupancy", `property_id=${propertyId}&from=${d(0)}&to=${d(731)}`));
    expect(longest.data).toHaveLength(731);
  });

  it("404 for an unknown property, another account's or the sandbox's; 403 without reports:read", async () => {
    expectError(await get("revenue", `property_id=prop_nope&from=${d(0)}&to=${d(1)}`), 404, "resource_missing", "property_id");
    const other = await h.newAccount("Other Hotels");
    expectError(await get("revenue", base(), { token: other.token }), 404, "resource_missing", "property_id");
    expectError(await get("revenue", base(), { token: h.main.token, sandbox: true }), 404, "resource_missing", "property_id");
    const sandbox = await sandboxProperty(h, h.main.token);
    expectError(await get("occupancy", `property_id=${sandbox.id}&from=${d(0)}&to=${d(1)}`), 404, "resource_missing", "property_id");
    expectError(await get("production", base(), { token: await h.keyWith(["reservations:read", "payments:read", "rooms:read"]) }), 403, "insufficient_scope");
    expect(ok(await get("production", base(), { token: await h.keyWith(["reports:read"]) })).totals.reservations).toBe(6);
  });
});

describe("an early departure", () => {
  it("counts the nights stayed only: the released nights, sold again, are not sold twice (occupancy stays ≤ 1)", async () => {
    const property = await insertProperty(h, h.main.account.id, { timezone, name: "Early Inn" });
    const t = ok(await h.post("/v1/room_types", { property_id: property.id, code: "ONE", name: "One", max_occupancy: 2 }, caller), 201);
    ok(await h.post("/v1/rooms", { room_type_id: t.id, number: "1" }, caller), 201);
    const plan = ok(await h.post("/v1/rate_plans", { property_id: property.id, code: "BAR", name: "BAR", room_type_ids: [t.id] }, caller), 201);
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: t.id, from: d(0), to: d(10), amount: 10_000 }, caller));
    const setup = { propertyId: property.id, roomTypeId: t.id, ratePlanId: plan.id };
    const first = ok(await h.post("/v1/reservations", bookingBody(setup, d(0), d(3)), caller), 201);
    ok(await h.post(`/v1/reservations/${first.id}/check_in`, {}, caller));
    // Leaving on the arrival day: nights 1 and 2 go back on sale (their charges off the folio: the
    // arrival night's 10,000 is what is due), and night 1 sells again.
    ok(await h.post("/v1/payments", { reservation_id: first.id, payment_method: { type: "cash" }, amount: 10_000 }, caller), 201);
    ok(await h.post(`/v1/reservations/${first.id}/check_out`, {}, caller));
    ok(await h.post("/v1/reservations", bookingBody(setup, d(1), d(2), { guest: { first_name: "B", last_name: "C", email: "bc@example.com" } }), caller), 201);
    const range = `property_id=${property.id}&from=${d(0)}&to=${d(3)}`;
    expect(ok(await h.get(`/v1/reports/occupancy?${range}`, caller)).data).toEqual([
      { date: d(0), rooms_available: 1, rooms_sold: 1, occupancy: 1 },
      { date: d(1), rooms_available: 1, rooms_sold: 1, occupancy: 1 },
      { date: d(2), rooms_available: 1, rooms_sold: 0, occupancy: 0 },
    ]);
    expect(ok(await h.get(`/v1/reports/revenue?${range}`, caller)).data.map((r: { room_revenue: number }) => r.room_revenue)).toEqual([10_000, 10_000, 0]);
  });
});

describe("money is reported on the property's business date", () => {
  it("a capture and a refund count on the day they were posted, at UTC+14 as at UTC−10, whatever their clock time", async () => {
    for (const zone of ["Pacific/Kiritimati", "Pacific/Honolulu"]) {
      const property = await insertProperty(h, h.main.account.id, { timezone: zone, name: zone });
      const local = todayIn(zone);
      const t = ok(await h.post("/v1/room_types", { property_id: property.id, code: "TZ", name: "TZ", max_occupancy: 2 }, caller), 201);
      ok(await h.post("/v1/rooms", { room_type_id: t.id, number: "1" }, caller), 201);
      const plan = ok(await h.post("/v1/rate_plans", { property_id: property.id, code: "BAR", name: "BAR", room_type_ids: [t.id] }, caller), 201);
      ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: t.id, from: local, to: addDays(local, 30), amount: 10_000 }, caller));
      const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: property.id, roomTypeId: t.id, ratePlanId: plan.id }, addDays(local, 20), addDays(local, 21)), caller), 201);
      const p = ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 4_000, payment_method: { type: "cash" } }, caller), 201);
      const re = ok(await h.post("/v1/refunds", { payment_id: p.id, amount: 1_000 }, caller), 201);
      // The clock times corrected afterwards (an import): the days they were posted on stay.
      const utcDay = addDays(local, 2);
      await h.db.update(payments).set({ capturedAt: new Date(`${utcDay}T12:00:00Z`) }).where(eq(payments.id, p.id));
      await h.db.update(refunds).set({ createdAt: new Date(`${utcDay}T09:00:00Z`) }).where(eq(refunds.id, re.id));
      const rows = ok(await h.get(`/v1/reports/revenue?property_id=${property.id}&from=${local}&to=${addDays(local, 5)}`, caller)).data as { date: string; payments: number; refunds: number }[];
      expect(rows.map((x) => [x.date, x.payments, x.refunds])).toEqual([0, 1, 2, 3, 4].map((n) => [addDays(local, n), n === 0 ? 4_000 : 0, n === 0 ? 1_000 : 0]));
    }
  });
});

describe("money per night (money_days) is the sum of the raw payments and refunds", () => {
  /** What the report sums: every captured payment and every refund, by the business date it was posted on. */
  async function rawSums(property: string) {
    const rows = await h.db.execute<{ date: string; payments: string; refunds: string }>(sql`
      select to_char(date, 'YYYY-MM-DD') as date, sum(paid)::text as payments, sum(refunded)::text as refunds from (
        select p.business_date as date, p.amount as paid, 0 as refunded
          from payments p
          where p.property_id = ${property} and p.status in ('succeeded', 'partially_refunded', 'refunded') and p.captured_at is not null
        union all
        select r.business_date, 0, r.amount from refunds r where r.property_id = ${property}
      ) m group by 1 order by 1`);
    return rowsOf<{ date: string; payments: string; refunds: string }>(rows).map((r) => ({ date: r.date, payments: Number(r.payments), refunds: Number(r.refunds) }));
  }
  /** The kept days, without those a deletion has brought back to zero. */
  async function keptDays(property: string) {
    const rows = await h.db
      .select({ date: moneyDays.date, payments: moneyDays.payments, refunds: moneyDays.refunds })
      .from(moneyDays)
      .where(eq(moneyDays.propertyId, property))
      .orderBy(moneyDays.date);
    return rows.filter((r) => r.payments !== 0 || r.refunds !== 0);
  }

  it("after the fixture's payments and refunds, a move of their days, a change of time zone and deletions", async () => {
    const fixture = await rawSums(propertyId);
    expect(fixture.length).toBeGreaterThan(0);
    expect(await keptDays(propertyId)).toEqual(fixture);

    // Days moved (a correction by hand): each moves to its new day.
    const [payment] = await h.db.select().from(payments).where(eq(payments.propertyId, propertyId)).limit(1);
    await h.db.update(payments).set({ businessDate: addDays(payment.businessDate!, -2) }).where(eq(payments.id, payment.id));
    const [refund] = await h.db.select().from(refunds).where(eq(refunds.propertyId, propertyId)).limit(1);
    await h.db.update(refunds).set({ businessDate: addDays(refund.businessDate!, 1) }).where(eq(refunds.id, refund.id));
    expect(await keptDays(propertyId)).toEqual(await rawSums(propertyId));

    // The property moves about half a day away: what was posted stays on the day it was posted on.
    const before = await keptDays(propertyId);
    await h.db.update(properties).set({ timezone: "Pacific/Kiritimati" }).where(eq(properties.id, propertyId));
    expect(await keptDays(propertyId)).toEqual(before);
    await h.db.update(properties).set({ timezone }).where(eq(properties.id, propertyId));
    expect(await keptDays(propertyId)).toEqual(before);

    // Deleted rows (the sandbox's reset deletes) leave the sums.
    await h.db.delete(refunds).where(eq(refunds.id, refund.id));
    await h.db.delete(payments).where(eq(payments.id, payment.id));
    expect(await keptDays(propertyId)).toEqual(await rawSums(propertyId));
  });

  it("a property that goes takes its days with it", async () => {
    const property = await insertProperty(h, h.main.account.id, { timezone: "UTC", name: "Gone Inn" });
    await h.db.insert(moneyDays).values({ propertyId: property.id, date: today, payments: 100, refunds: 0 });
    await h.db.delete(properties).where(eq(properties.id, property.id));
    expect(await h.db.select().from(moneyDays).where(eq(moneyDays.propertyId, property.id))).toEqual([]);
  });
});

describe("revenue counts captured money only (sandbox test cards)", () => {
  it("a decline, an open authorization and a void add nothing; a capture and a refund do", async () => {
    const s: Caller = { token: h.main.token, sandbox: true };
    const property = await sandboxProperty(h, h.main.token);
    const local = todayIn(property.timezone);
    const types = ok(await h.get(`/v1/room_types?property_id=${property.id}`, s)).data;
    const plans = ok(await h.get(`/v1/rate_plans?property_id=${property.id}`, s)).data;
    const setup = { propertyId: property.id, roomTypeId: types.find((t: { code: string }) => t.code === "QQ").id, ratePlanId: plans.find((p: { code: string }) => p.code === "BAR").id };
    // A window of three days around today, so a date rolling over meanwhile changes nothing.
    const window = `property_id=${property.id}&from=${addDays(local, -1)}&to=${addDays(local, 2)}`;
    const before = ok(await h.get(`/v1/reports/revenue?${window}`, s)).totals;

    const r = ok(await h.post("/v1/reservations", bookingBody(setup, addDays(local, 200), addDays(local, 202)), s), 201);
    const card = (number: string) => ({ type: "card", number, exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" });
    const pay = (number: string, amount: number, capture = true) => h.post("/v1/payments", { reservation_id: r.id, amount, capture, payment_method: card(number) }, s);
    const paid = ok(await pay("4242424242424242", 5_000), 201);
    expect((await pay("4000000000000002", 4_000)).status).toBe(402);
    ok(await pay("4242424242424242", 3_000, false), 201);
    const voided = ok(await pay("4242424242424242", 1_000, false), 201);
    ok(await h.post(`/v1/payments/${voided.id}/void`, {}, s));
    const captured = ok(await pay("4242424242424242", 2_000, false), 201);
    ok(await h.post(`/v1/payments/${captured.id}/capture`, {}, s));
    ok(await h.post("/v1/refunds", { payment_id: paid.id, amount: 1_500 }, s), 201);

    const after = ok(await h.get(`/v1/reports/revenue?${window}`, s)).totals;
    expect({ payments: after.payments - before.payments, refunds: after.refunds - before.refunds, room_revenue: after.room_revenue - before.room_revenue }).toEqual({
      payments: 7_000,
      refunds: 1_500,
      room_revenue: 0,
    });
  });
});
