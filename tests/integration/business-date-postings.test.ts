import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folioCharges, payments, refunds } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, ok, sandboxProperty } from "../support/hotel";

// Issue 35, point 1: money is posted on the property's business date, never the wall clock's. In
// the sandbox after advance_day (as in a live hotel after an evening audit) the business date is
// ahead of the calendar: a payment, a refund and an extra taken then count in the business day's
// revenue report and flash, and the invoice of a check-out is issued on it.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

type Row = { date: IsoDate; payments: number; refunds: number };

describe("postings on the business date", () => {
  it("a payment, a refund, an extra and an invoice after advance_day count on the business date, not the calendar's", { timeout: 120_000 }, async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    ok(await h.post("/v1/sandbox/reset", {}, sandbox));
    const property = await sandboxProperty(h, h.main.token);
    const calendar = todayIn(property.timezone);
    const revenue = async () =>
      Object.fromEntries(
        (ok(await h.get(`/v1/reports/revenue?property_id=${property.id}&from=${calendar}&to=${addDays(calendar, 3)}`, sandbox)).data as Row[]).map((r) => [r.date, r]),
      );

    // Close today: the business date is tomorrow's while the calendar still says today.
    ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, sandbox));
    const business = addDays(calendar, 1);
    expect(ok(await h.get(`/v1/properties/${property.id}`, sandbox)).business_date).toBe(business);
    const before = await revenue();

    // A walk-up stay of one night from the business date, checked in, an extra, paid, part refunded, paid again.
    const type = ok(await h.get(`/v1/room_types?property_id=${property.id}`, sandbox)).data[0];
    const plan = ok(await h.get(`/v1/rate_plans?property_id=${property.id}`, sandbox)).data.find((p: { room_type_ids: string[]; refundable: boolean }) => p.room_type_ids.includes(type.id) && p.refundable);
    const stay = ok(await h.post("/v1/reservations", bookingBody({ propertyId: property.id, roomTypeId: type.id, ratePlanId: plan.id }, business, addDays(business, 1)), sandbox), 201);
    const room = ok(await h.get(`/v1/rooms?property_id=${property.id}&room_type_id=${type.id}&limit=100`, sandbox)).data.find((r: { housekeeping_status: string; occupied: boolean }) => !r.occupied && ["clean", "inspected"].includes(r.housekeeping_status));
    ok(await h.post(`/v1/reservations/${stay.id}/check_in`, { room_id: room.id }, sandbox));
    const extra = ok(await h.post(`/v1/folios/${stay.folio_id}/charges`, { description: "Minibar", amount: 1_500 }, sandbox), 201);
    const due = ok(await h.get(`/v1/reservations/${stay.id}/folio`, sandbox)).balance.amount as number;
    const paid = ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: due, payment_method: { type: "cash" } }, sandbox), 201);
    const refund = ok(await h.post("/v1/refunds", { payment_id: paid.id, amount: 2_000 }, sandbox), 201);
    ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: 2_000, payment_method: { type: "cash" } }, sandbox), 201);

    // Each carries the business date.
    expect((await h.db.select().from(folioCharges).where(eq(folioCharges.id, extra.id)))[0].postedOn).toBe(business);
    expect((await h.db.select().from(payments).where(eq(payments.id, paid.id)))[0].businessDate).toBe(business);
    expect((await h.db.select().from(refunds).where(eq(refunds.id, refund.id)))[0].businessDate).toBe(business);

    // The revenue report: the money on the business date; the calendar's day as it was.
    const after = await revenue();
    expect(after[calendar]).toEqual(before[calendar]);
    expect(after[business].payments - before[business].payments).toBe(due + 2_000);
    expect(after[business].refunds - before[business].refunds).toBe(2_000);

    // The flash of the business day, written by its audit: the cash, the extra and the refund are in it.
    const closed = ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, sandbox)).audits[0];
    expect(closed.business_date).toBe(business);
    const flash = ok(await h.get(`/v1/night_audits/${closed.id}`, sandbox)).flash;
    expect(flash.payments_by_method.cash).toEqual({ amount: due + 2_000, count: 2 });
    expect(flash.revenue_by_kind.extra).toBe(1_500);
    expect(flash.payments).toBe(after[business].payments);
    expect(flash.refunds).toBe(after[business].refunds);

    // Checked out on the next business date (two days ahead of the calendar): the invoice is issued on it.
    ok(await h.post(`/v1/reservations/${stay.id}/check_out`, {}, sandbox));
    const invoiceId = ok(await h.get(`/v1/reservations/${stay.id}/folio`, sandbox)).invoice_id;
    expect(ok(await h.get(`/v1/invoices/${invoiceId}`, sandbox)).issue_date).toBe(addDays(business, 1));
  });
});
