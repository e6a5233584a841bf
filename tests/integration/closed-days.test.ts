import { and, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { folioCharges, nightAudits, payments, properties, reservations } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import type { FlashReport } from "@/server/night-audit/flash";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { zonedInstant } from "@/server/properties/business-date";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, liveHotel, ok, type Caller } from "../support/hotel";

// Issue 35: the open business date is "today" for every posting and desk rule (between midnight
// and the audit hour too); deadlines are judged on the hotel's business clock; a closed day is
// closed (an overstay is sold its night by the audit, nothing posts into the day afterwards); one
// split of room and other revenue in the flash, the revenue and the production reports; a guest
// turned away for want of a ready room is never charged a no-show fee. Expected amounts are this
// file's own arithmetic: every night 10,000, the no-show fee 5,000, no taxes.

let h: Harness;
let caller: Caller;
beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => h?.close());

const tz = "America/New_York";

/** A fresh New York property (audit hour 03:00), `rooms` clean rooms at 10,000 a night from `from`, a 5,000 no-show fee. */
async function hotel(rooms: number, from?: IsoDate) {
  const base = await liveHotel(h, h.main.account.id, tz);
  const start = from ?? base.today;
  const type = await buildRoomType(h, caller, base.propertyId, start, { rooms, amount: 10_000, days: 30 });
  ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, { no_show_fee: { type: "fixed", amount: 5_000 } }, caller));
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { ...base, type };
}
type Hotel = Awaited<ReturnType<typeof hotel>>;

const book = (t: Hotel, from: IsoDate, to: IsoDate, last = "Uest") =>
  h.post("/v1/reservations", bookingBody({ propertyId: t.propertyId, roomTypeId: t.type.roomTypeId, ratePlanId: t.type.ratePlanId }, from, to, { guest: { first_name: "G", last_name: last, email: `${last.toLowerCase()}@example.com` } }), caller);
const close = (t: Hotel, date: IsoDate) => runNightAudit({ db: h.db, propertyId: t.propertyId, trigger: "scheduled", date });
const folioOf = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, caller));
const businessDateOf = async (t: Hotel) => (await h.db.select().from(properties).where(eq(properties.id, t.propertyId)))[0].businessDate;
const flashOf = async (t: Hotel, date: IsoDate) =>
  (await h.db.select().from(nightAudits).where(and(eq(nightAudits.propertyId, t.propertyId), eq(nightAudits.businessDate, date))))[0]?.flash as FlashReport | undefined;
const report = async (t: Hotel, kind: string, from: IsoDate, to: IsoDate) => ok(await h.get(`/v1/reports/${kind}?property_id=${t.propertyId}&from=${from}&to=${to}`, caller));
/** The property's wall clock at `hour`:`minute` of `date`, as the app's clock (the database keeps its own). */
const clockAt = (date: IsoDate, hour: number, minute: number) => vi.useFakeTimers({ toFake: ["Date"], now: zonedInstant(date, hour, tz).getTime() + minute * 60_000 });

describe("the open business date", () => {
  it("at 01:30, before the audit hour, a check-in, a payment and a check-out belong to the day still open", { timeout: 120_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(2, addDays(T, -2));
    // The audit of T-2 ran; T-1 is open: it is 01:30 on T, before 03:00, the hour that closes T-1.
    await close(t, addDays(T, -2));
    expect(await businessDateOf(t)).toBe(addDays(T, -1));
    clockAt(T, 1, 30);
    expect(ok(await h.get(`/v1/properties/${t.propertyId}`, caller)).business_date).toBe(addDays(T, -1));

    // A walk-in for the open night is not "in the past", and checks in on it.
    const stay = ok(await book(t, addDays(T, -1), T, "Late"), 201);
    ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, caller));
    const paid = ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: 10_000, payment_method: { type: "cash" } }, caller), 201);
    expect((await h.db.select().from(payments).where(eq(payments.id, paid.id)))[0].businessDate).toBe(addDays(T, -1));
    const revenue = await report(t, "revenue", addDays(T, -1), addDays(T, 1));
    expect(revenue.data.map((r: { payments: number }) => r.payments)).toEqual([10_000, 0]);

    // Checked out in the same open day: the departure is the booked one, the invoice dated the open day.
    ok(await h.post(`/v1/reservations/${stay.id}/check_out`, {}, caller));
    const invoice = ok(await h.get(`/v1/invoices/${(await folioOf(stay.id)).invoice_id}`, caller));
    expect(invoice.issue_date).toBe(addDays(T, -1));

    // A stay for two days back is in the past of the open day.
    expectError(await book(t, addDays(T, -2), T), 422, "parameter_invalid", "check_in");
  });

  it("judges a cancellation deadline on the business clock: 23:30 of the business day, 24 hours' notice", { timeout: 120_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(3);
    // An evening audit (or advance_day) closed T: the business day is T+1 while the calendar still says T.
    await close(t, T);
    expect(await businessDateOf(t)).toBe(addDays(T, 1));
    const inside = ok(await book(t, addDays(T, 2), addDays(T, 3), "Inside"), 201);
    const outside = ok(await book(t, addDays(T, 3), addDays(T, 4), "Outside"), 201);
    clockAt(T, 23, 30);
    // 23:30 of T+1 on the hotel's clock: half an hour before T+2 begins (inside the 24 hours), 24.5 before T+3 (outside).
    ok(await h.post(`/v1/reservations/${inside.id}/cancel`, {}, caller));
    ok(await h.post(`/v1/reservations/${outside.id}/cancel`, {}, caller));
    const kept = await folioOf(inside.id);
    expect(kept.charges.map((c: { kind: string; amount: { amount: number } }) => [c.kind, c.amount.amount])).toEqual([["room_night", 10_000]]);
    expect(kept.balance.amount).toBe(10_000);
    expect((await folioOf(outside.id)).charges).toEqual([]);
  });
});

describe("a closed day is closed", () => {
  it("sells an overstay its night at the audit; the next day's check-out leaves the closed day's flash equal to the reports", { timeout: 180_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(2);
    const stay = ok(await book(t, T, addDays(T, 1), "Stayer"), 201);
    ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, caller));
    await close(t, T);
    // T+1 closes with the guest still in house, due out that day: the audit sells them the night of T+1.
    const audit = (await close(t, addDays(T, 1)))!;
    expect(audit.departuresInHouse).toEqual([stay.id]);
    const extended = ok(await h.get(`/v1/reservations/${stay.id}`, caller));
    expect(extended.check_out).toBe(addDays(T, 2));
    const nights = (await folioOf(stay.id)).charges.filter((c: { kind: string }) => c.kind === "room_night");
    expect(nights.map((c: { date: string; amount: { amount: number } }) => [c.date, c.amount.amount])).toEqual([
      [T, 10_000],
      [addDays(T, 1), 10_000],
    ]);
    expect((await inventoryOf(h, caller, t.propertyId, t.type.roomTypeId, addDays(T, 1), addDays(T, 2))).get(addDays(T, 1))?.sold).toBe(1);
    const flash = (await flashOf(t, addDays(T, 1)))!;
    expect([flash.rooms_sold, flash.room_revenue, flash.charged.gross]).toEqual([1, 10_000, 10_000]);

    // The next business day the guest pays the two nights and leaves: nothing more is posted into T+1.
    ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: 20_000, payment_method: { type: "cash" } }, caller), 201);
    ok(await h.post(`/v1/reservations/${stay.id}/check_out`, {}, caller));
    expect(ok(await h.get(`/v1/reservations/${stay.id}`, caller)).check_out).toBe(addDays(T, 2));
    const revenue = (await report(t, "revenue", addDays(T, 1), addDays(T, 2))).data[0];
    const occupancy = (await report(t, "occupancy", addDays(T, 1), addDays(T, 2))).data[0];
    expect([occupancy.rooms_sold, revenue.room_revenue, revenue.gross + revenue.other_gross]).toEqual([flash.rooms_sold, flash.room_revenue, flash.charged.gross]);
    expect(occupancy.rooms_available).toBe(flash.rooms_available);
  });

  it("refuses a posting into a closed day in the database, and changes nothing", { timeout: 120_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(1);
    const stay = ok(await book(t, T, addDays(T, 1), "Closed"), 201);
    // In house, so the folio stays open (a no-show's folio is invoiced, and closed, by the audit).
    ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, caller));
    await close(t, T);
    const folio = await folioOf(stay.id);
    const count = async () => (await h.db.select({ n: sql<number>`count(*)::int` }).from(folioCharges).where(eq(folioCharges.folioId, folio.id)))[0].n;
    const before = await count();
    const line = (date: IsoDate | null, postedOn: IsoDate | null) =>
      h.db.insert(folioCharges).values({
        id: `chg_closed${Math.random().toString(36).slice(2, 10)}`,
        accountId: h.main.account.id,
        livemode: true,
        folioId: folio.id,
        reservationId: stay.id,
        kind: "extra",
        description: "Into a closed day",
        date,
        postedOn,
        amount: 1_000,
        taxAmount: 0,
        taxes: [],
      });
    const code = (e: unknown) => (e as { code?: string; cause?: { code?: string } }).cause?.code ?? (e as { code?: string }).code;
    // The night of T (closed), or posted on T: refused. The open day (T+1): posted.
    await expect(line(T, null).then(() => "posted", code)).resolves.toBe("IK409");
    await expect(line(null, T).then(() => "posted", code)).resolves.toBe("IK409");
    await expect(line(addDays(T, -3), null).then(() => "posted", code)).resolves.toBe("IK409");
    expect(await count()).toBe(before);
    // A payment counted on the closed day is refused the same way.
    await expect(
      h.db
        .insert(payments)
        .values({
          id: "pay_closedday1",
          accountId: h.main.account.id,
          livemode: true,
          propertyId: t.propertyId,
          reservationId: stay.id,
          folioId: folio.id,
          amount: 1_000,
          currency: "USD",
          status: "succeeded",
          methodType: "cash",
          capturedAt: new Date(),
          businessDate: T,
        } as typeof payments.$inferInsert)
        .then(() => "posted", code),
    ).resolves.toBe("IK409");
    ok(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Minibar", amount: 1_000 }, caller), 201);
    expect(await count()).toBe(before + 1);
  });

  it("with overstay_at_audit refuse, the audit names the guest and leaves the day open", { timeout: 120_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(1);
    expectError(await h.patch(`/v1/properties/${t.propertyId}`, { overstay_at_audit: "sometimes" }, caller), 422, "parameter_invalid", "overstay_at_audit");
    expect(ok(await h.get(`/v1/properties/${t.propertyId}`, caller)).overstay_at_audit).toBe("extend");
    expect(ok(await h.patch(`/v1/properties/${t.propertyId}`, { overstay_at_audit: "refuse" }, caller)).overstay_at_audit).toBe("refuse");
    const stay = ok(await book(t, T, addDays(T, 1), "Lingers"), 201);
    ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, caller));
    await close(t, T);
    await expect(close(t, addDays(T, 1))).rejects.toThrow(/G Lingers .* still in house past departure/);
    expect(await businessDateOf(t)).toBe(addDays(T, 1));
    expect(await flashOf(t, addDays(T, 1))).toBeUndefined();
    expect(ok(await h.get(`/v1/reservations/${stay.id}`, caller)).check_out).toBe(addDays(T, 1));
    // Once the guest has left, the day closes.
    ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: 10_000, payment_method: { type: "cash" } }, caller), 201);
    ok(await h.post(`/v1/reservations/${stay.id}/check_out`, {}, caller));
    expect((await close(t, addDays(T, 1)))?.departuresInHouse).toEqual([]);
  });
});

describe("one split of room and other revenue", () => {
  it("the flash of a day = the revenue report = the production report, fees, extras and retained charges included", { timeout: 180_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(3);
    const stayed = ok(await book(t, T, addDays(T, 1), "Stayed"), 201);
    ok(await h.post(`/v1/reservations/${stayed.id}/check_in`, {}, caller));
    ok(await h.post(`/v1/folios/${stayed.folio_id}/charges`, { description: "Minibar", amount: 1_500 }, caller), 201);
    const absent = ok(await book(t, T, addDays(T, 2), "Absent"), 201);
    // Cancelled on the arrival day, inside the 24 hours: the night of T stays charged.
    const cancelled = ok(await book(t, T, addDays(T, 1), "Cancelled"), 201);
    ok(await h.post(`/v1/reservations/${cancelled.id}/cancel`, {}, caller));
    await close(t, T);

    // Room: 1 night of 10,000. Other: the extra 1,500 + the no-show fee 5,000 + the retained night 10,000 = 16,500.
    const flash = (await flashOf(t, T))!;
    expect([flash.rooms_sold, flash.room_revenue, flash.charged.gross, flash.other.gross]).toEqual([1, 10_000, 26_500, 16_500]);
    const revenue = (await report(t, "revenue", T, addDays(T, 1))).data[0];
    expect([revenue.room_revenue, revenue.gross, revenue.other_net, revenue.other_tax, revenue.other_gross]).toEqual([10_000, 10_000, 16_500, 0, 16_500]);
    const production = (await report(t, "production", T, addDays(T, 1))).totals;
    expect(production).toMatchObject({ reservations: 2, room_nights: 1, room_revenue: 10_000, gross: 10_000, other_gross: 16_500, cancellations: 1, no_shows: 1 });
    expect(flash.charged.gross).toBe(revenue.gross + revenue.other_gross);
    expect(flash.charged.gross).toBe(production.gross + production.other_gross);

    // The CSV carries the new columns.
    const csv = await h.get(`/v1/reports/production?property_id=${t.propertyId}&from=${T}&to=${addDays(T, 1)}&format=csv`, caller);
    expect(csv.text.split("\r\n")[0]).toBe("group,reservations,room_nights,room_revenue,net,tax,gross,other_net,other_tax,other_gross,cancellations,no_shows");
    expect(ok(await h.get(`/v1/reservations/${absent.id}`, caller)).status).toBe("no_show");
  });
});

describe("a guest turned away for want of a ready room", () => {
  it("is never charged a no-show fee: the audit cancels the stay with no charge", { timeout: 120_000 }, async () => {
    const T = todayIn(tz);
    const t = await hotel(1);
    await h.db.execute(sql`update rooms set housekeeping_status = 'dirty' where room_type_id = ${t.type.roomTypeId}`);
    const turnedAway = ok(await book(t, T, addDays(T, 1), "Away"), 201);
    expectError(await h.post(`/v1/reservations/${turnedAway.id}/check_in`, {}, caller), 409, "no_availability");
    const [row] = await h.db.select().from(reservations).where(eq(reservations.id, turnedAway.id));
    expect(row.status).toBe("confirmed");
    expect(row.checkInRefusedAt).not.toBeNull();

    const audit = (await close(t, T))!;
    expect(audit.noShows).toEqual([]);
    const after = ok(await h.get(`/v1/reservations/${turnedAway.id}`, caller));
    expect(after.status).toBe("cancelled");
    expect(after.cancellation_reason).toMatch(/ready room/);
    const folio = await folioOf(turnedAway.id);
    expect([folio.charges, folio.balance.amount]).toEqual([[], 0]);
    expect((await inventoryOf(h, caller, t.propertyId, t.type.roomTypeId, T, addDays(T, 1))).get(T)?.sold).toBe(0);
  });
});
