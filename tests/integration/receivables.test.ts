import { eq, sql } from "drizzle-orm";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { properties } from "@/db/schema";
import { addDays } from "@/lib/dates";
import type { StaffRole } from "@/server/auth/users";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 35, point 6: accounts receivable. Every ended stay whose folio keeps a balance is listed
// (credit balances owed to guests, no-show and cancellation charges, what is due after departure),
// aged on the property's business date in buckets of 0–30, 31–60, 61–90 and over 90 days; no-show
// and cancellation folios are invoiced when their charge is posted; money errors carry their
// amounts as fields. Every expected figure is worked out here from the prices booked.

let h: Harness;
let api: Caller;
beforeAll(async () => {
  h = await startHarness();
  api = { token: h.main.token };
});
afterAll(async () => h?.close());

const usd = (amount: number) => ({ amount, currency: "USD" });
const session = (role: StaffRole): StaffSession => ({
  user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@receivables.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole, livemode = true) => createCaller({ db: h.db, session: session(role), livemode });

type Row = { folio_id: string; kind: string; guest: { id: string; name: string }; amount: { amount: number }; due_date: string; age_days: number; bucket: string; stay: { reservation_id: string }; invoice_id: string | null };

describe("accounts receivable", () => {
  let hotel: { propertyId: string; today: string };
  let type: RoomTypeSetup;
  const T = (n: number) => addDays(hotel.today, n);
  const setBusinessDate = (date: string) => h.db.update(properties).set({ businessDate: date }).where(eq(properties.id, hotel.propertyId));
  const refundable = (yes: boolean) => h.db.execute(sql`update rate_plans set refundable = ${yes} where id = ${type.ratePlanId}`);
  const book = async (from: string, to: string, last: string) =>
    ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId }, from, to, { guest: { first_name: "Guest", last_name: last, email: `${last.toLowerCase()}@receivables.example` } }), api), 201);
  const pay = async (reservationId: string, amount: number) => ok(await h.post("/v1/payments", { reservation_id: reservationId, amount, payment_method: { type: "cash" } }, api), 201);
  const list = async (query = "") => ok(await h.get(`/v1/receivables?property_id=${hotel.propertyId}${query}`, api));
  const stays: Record<string, { id: string; folio_id: string; guest: { id: string } }> = {};

  beforeAll(async () => {
    hotel = await liveHotel(h, h.main.account.id);
    type = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 4, amount: 10_000, days: 120 });

    // Business date T. E: prepaid 20,000 for two nights, cancelled free (refundable, days ahead): a credit of 20,000.
    stays.E = await book(T(5), T(7), "Early");
    await pay(stays.E.id, 20_000);
    ok(await h.post(`/v1/reservations/${stays.E.id}/cancel`, {}, api));
    // D: non-refundable, 4,000 paid of 10,000, cancelled: the night stays as the charge, invoiced; 6,000 due.
    await refundable(false);
    stays.D = await book(T(5), T(6), "Dalton");
    await pay(stays.D.id, 4_000);
    ok(await h.post(`/v1/reservations/${stays.D.id}/cancel`, {}, api));

    // Business date T+40: B (refundable, prepaid 10,000) and C (non-refundable, unpaid) arrive and never come.
    await setBusinessDate(T(40));
    stays.C = await book(T(40), T(41), "Carter");
    await refundable(true);
    stays.B = await book(T(40), T(41), "Baker");
    await pay(stays.B.id, 10_000);
    // A stay still to come, prepaid: not a receivable.
    stays.F = await book(T(60), T(61), "Future");
    await pay(stays.F.id, 10_000);
    // T+40 closed: the no-shows are recorded on business date T+41.
    await setBusinessDate(T(41));
    ok(await h.post(`/v1/reservations/${stays.B.id}/no_show`, {}, api)); // refundable, no fee: nothing charged
    await refundable(false);
    ok(await h.post(`/v1/reservations/${stays.C.id}/no_show`, {}, api)); // non-refundable: the whole stay, 10,000
    await refundable(true);
  });

  it("lists each ended stay's balance with its kind, due date and bucket on the business date, and totals per bucket", async () => {
    await setBusinessDate(T(75));
    const body = await list();
    const rows = body.data as Row[];
    const byStay = Object.fromEntries(rows.map((r) => [r.stay.reservation_id, r]));
    expect(rows.map((r) => r.stay.reservation_id).sort()).toEqual([stays.B.id, stays.C.id, stays.D.id, stays.E.id].sort());
    // Oldest due first: E and D (due T), then B (its arrival, T+40), then C (invoiced T+41).
    expect(rows.slice(2).map((r) => r.stay.reservation_id)).toEqual([stays.B.id, stays.C.id]);
    expect(byStay[stays.E.id]).toMatchObject({ kind: "credit_balance", amount: usd(-20_000), due_date: T(0), age_days: 75, bucket: "days_61_90", invoice_id: null });
    expect(byStay[stays.D.id]).toMatchObject({ kind: "cancellation", amount: usd(6_000), due_date: T(0), age_days: 75, bucket: "days_61_90" });
    expect(byStay[stays.B.id]).toMatchObject({ kind: "credit_balance", amount: usd(-10_000), due_date: T(40), age_days: 35, bucket: "days_31_60", invoice_id: null });
    expect(byStay[stays.C.id]).toMatchObject({ kind: "no_show", amount: usd(10_000), due_date: T(41), age_days: 34, bucket: "days_31_60" });
    expect(byStay[stays.E.id].guest).toEqual({ id: stays.E.guest.id, name: "Guest Early" });
    expect(body.totals).toEqual([
      {
        currency: "USD",
        buckets: [
          { bucket: "days_0_30", due: usd(0), credit: usd(0), count: 0 },
          { bucket: "days_31_60", due: usd(10_000), credit: usd(-10_000), count: 2 },
          { bucket: "days_61_90", due: usd(6_000), credit: usd(-20_000), count: 2 },
          { bucket: "days_over_90", due: usd(0), credit: usd(0), count: 0 },
        ],
        due: usd(16_000),
        credit: usd(-30_000),
        count: 4,
      },
    ]);
    // The boundaries: at T+101, B is 61 days old (61–90) and C 60 (31–60); E and D over 90.
    await setBusinessDate(T(101));
    const later = Object.fromEntries(((await list()).data as Row[]).map((r) => [r.stay.reservation_id, r.bucket]));
    expect(later).toEqual({ [stays.B.id]: "days_61_90", [stays.C.id]: "days_31_60", [stays.D.id]: "days_over_90", [stays.E.id]: "days_over_90" });
    await setBusinessDate(T(75));
  });

  it("invoices the cancellation's charge and the no-show's fee when they are posted, with the payment on the invoice", async () => {
    const invoiceOf = async (id: string) => ok(await h.get(`/v1/invoices?reservation_id=${id}`, api)).data;
    const [d] = await invoiceOf(stays.D.id);
    expect(d).toMatchObject({ totals: { gross: usd(10_000) }, balance: usd(6_000), issue_date: T(0) });
    expect(d.payments.map((p: { amount: { amount: number } }) => p.amount.amount)).toEqual([4_000]);
    const [c] = await invoiceOf(stays.C.id);
    expect(c).toMatchObject({ totals: { gross: usd(10_000) }, balance: usd(10_000), issue_date: T(41) });
    expect(c.lines.map((l: { kind: string }) => l.kind)).toEqual(["no_show_fee"]);
    // Nothing charged, nothing invoiced: the credits are receivables only.
    expect(await invoiceOf(stays.B.id)).toEqual([]);
    expect(await invoiceOf(stays.E.id)).toEqual([]);
  });

  it("filters by kind, bucket and guest, pages with cursors, and refuses bad filters with a clear 400", async () => {
    const ids = (body: { data: Row[] }) => body.data.map((r) => r.stay.reservation_id).sort();
    expect(ids(await list("&kind=credit_balance"))).toEqual([stays.B.id, stays.E.id].sort());
    expect(ids(await list("&bucket=days_31_60"))).toEqual([stays.B.id, stays.C.id].sort());
    expect(ids(await list(`&guest_id=${stays.D.guest.id}`))).toEqual([stays.D.id]);
    const filtered = await list("&kind=no_show");
    expect(filtered.totals[0]).toMatchObject({ due: usd(10_000), credit: usd(0), count: 1 });
    // One at a time, forward then back: every row once, in order.
    const seen: string[] = [];
    let page = await list("&limit=1");
    seen.push(...page.data.map((r: Row) => r.folio_id));
    while (page.has_more) {
      page = await list(`&limit=1&cursor=${page.next_cursor}`);
      seen.push(...page.data.map((r: Row) => r.folio_id));
    }
    const all = (await list()).data.map((r: Row) => r.folio_id);
    expect(seen).toEqual(all);
    const back = await list(`&limit=1&cursor=${page.prev_cursor}`);
    expect(back.data.map((r: Row) => r.folio_id)).toEqual([all[2]]);
    expect(page.totals).toEqual((await list()).totals);

    const before = await list();
    expectError(await h.get(`/v1/receivables?kind=overdue`, api), 400, "parameter_invalid", "kind");
    expectError(await h.get(`/v1/receivables?bucket=days_1_2`, api), 400, "parameter_invalid", "bucket");
    expectError(await h.get(`/v1/receivables?age=3`, api), 400, "parameter_invalid", "age");
    expectError(await h.get(`/v1/receivables?limit=0`, api), 400, "parameter_invalid", "limit");
    expectError(await h.get(`/v1/receivables?cursor=nonsense`, api), 400, "invalid_cursor", "cursor");
    // A cursor of one filter set does not serve another.
    const first = await list("&limit=1");
    expectError(await h.get(`/v1/receivables?kind=no_show&limit=1&cursor=${first.next_cursor}`, api), 400, "invalid_cursor", "cursor");
    expect(await list()).toEqual(before);
  });

  it("refuses a key without payments:read, staff who do not see money, and another account", async () => {
    const readOnly = await h.keyWith(["reservations:read"]);
    const error = expectError(await h.get("/v1/receivables", { token: readOnly }), 403, "insufficient_scope", null);
    expect(error.message).toContain("payments:read");
    for (const role of ["front_desk", "housekeeping"] as const) {
      await expect(as(role).receivables.list({})).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "FORBIDDEN");
      await expect(as(role).receivables.refundCredit({ folio_id: stays.E.folio_id })).rejects.toSatisfy((e: unknown) => e instanceof TRPCError && e.code === "FORBIDDEN");
    }
    expect((await as("manager").receivables.list({ property_id: hotel.propertyId })).data).toHaveLength(4);
    // Another account sees none of it, and cannot pay this one's credit back.
    const other = await h.newAccount("Other Hotels");
    expect(ok(await h.get(`/v1/receivables?property_id=${hotel.propertyId}`, { token: other.token })).data).toEqual([]);
    expectError(await h.post("/v1/refunds", { payment_id: "pay_nope" }, { token: other.token }), 404, "resource_missing", "payment_id");
    // The sandbox of the same account is another world too.
    expect(ok(await h.get(`/v1/receivables?property_id=${hotel.propertyId}`, { ...api, sandbox: true })).data).toEqual([]);
  });

  it("a credit balance refunded to its payment, and an amount due paid, leave the list; the invoices stay as issued", async () => {
    // E through the dashboard's action: the whole credit back to its cash payment.
    const refunded = await as("manager").receivables.refundCredit({ folio_id: stays.E.folio_id });
    expect(refunded).toEqual({ refunded: 20_000, currency: "USD" });
    expect(ok(await h.get(`/v1/reservations/${stays.E.id}/folio`, api)).balance).toEqual(usd(0));
    // A second time there is nothing to refund: a readable refusal, nothing changes.
    await expect(as("manager").receivables.refundCredit({ folio_id: stays.E.folio_id })).rejects.toThrow("no balance to refund");
    // A balance owed by the guest is not refunded.
    await expect(as("manager").receivables.refundCredit({ folio_id: stays.D.folio_id })).rejects.toThrow("nothing to refund");
    // B through /v1: its payment refunded.
    const [payment] = ok(await h.get(`/v1/payments?reservation_id=${stays.B.id}`, api)).data;
    ok(await h.post("/v1/refunds", { payment_id: payment.id }, api), 201);

    // D: more than is due is refused on the invoiced folio, with the amount due as fields; the amount due is taken.
    const [invoice] = ok(await h.get(`/v1/invoices?reservation_id=${stays.D.id}`, api)).data;
    const refused = expectError(await h.post("/v1/payments", { reservation_id: stays.D.id, amount: 7_000, payment_method: { type: "cash" } }, api), 422, "amount_exceeds_balance", "amount");
    expect(refused).toMatchObject({ amount: 6_000, currency: "USD" });
    ok(await h.post("/v1/payments", { reservation_id: stays.D.id, payment_method: { type: "cash" } }, api), 201);
    expect(ok(await h.get(`/v1/invoices/${invoice.id}`, api))).toEqual(invoice);

    const left = (await list()).data as Row[];
    expect(left.map((r) => r.stay.reservation_id)).toEqual([stays.C.id]);
    expect((await list()).totals[0]).toMatchObject({ due: usd(10_000), credit: usd(0), count: 1 });
    // Nothing more to take from a settled folio.
    expectError(await h.post("/v1/payments", { reservation_id: stays.D.id, amount: 100, payment_method: { type: "cash" } }, api), 409, "invalid_state_transition");
  });
});

describe("money errors carry their amounts as fields", () => {
  it("balance_outstanding and amount_exceeds_refundable state amount and currency", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const type = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 2, amount: 12_300, days: 5 });
    await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
    const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId }, hotel.today, addDays(hotel.today, 1)), api), 201);
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, api));
    const owed = expectError(await h.post(`/v1/reservations/${r.id}/check_out`, {}, api), 409, "balance_outstanding");
    expect(owed).toMatchObject({ amount: 12_300, currency: "USD" });
    const payment = ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 15_000, payment_method: { type: "cash" } }, api), 201);
    // Overpaid: the balance is the hotel's debt, negative.
    expect(expectError(await h.post(`/v1/reservations/${r.id}/check_out`, {}, api), 409, "balance_outstanding")).toMatchObject({ amount: -2_700, currency: "USD" });
    expect(expectError(await h.post("/v1/refunds", { payment_id: payment.id, amount: 15_001 }, api), 422, "amount_exceeds_refundable", "amount")).toMatchObject({ amount: 15_000, currency: "USD" });
    // Errors about no money carry neither field.
    const other = expectError(await h.post(`/v1/reservations/${r.id}/check_in`, {}, api), 409, "invalid_state_transition");
    expect(other).not.toHaveProperty("amount");
    expect(other).not.toHaveProperty("currency");
  });
});

describe("the night audit invoices a no-show with a fee", () => {
  it("advance_day records the no-show, posts the fee, issues its invoice stating the prepayment, and the balance is a receivable", { timeout: 120_000 }, async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    ok(await h.post("/v1/sandbox/reset", {}, sandbox));
    const property = await sandboxProperty(h, h.main.token);
    const today = ok(await h.get(`/v1/properties/${property.id}`, sandbox)).business_date as string;
    // A room type with two rooms free tonight, on a refundable plan (the seed fills some).
    const plans = ok(await h.get(`/v1/rate_plans?property_id=${property.id}`, sandbox)).data as { id: string; room_type_ids: string[]; refundable: boolean }[];
    let roomType: { id: string } | undefined;
    for (const t of ok(await h.get(`/v1/room_types?property_id=${property.id}`, sandbox)).data) {
      const [night] = ok(await h.get(`/v1/inventory?property_id=${property.id}&room_type_id=${t.id}&from=${today}&to=${addDays(today, 1)}`, sandbox)).data;
      if (night.available >= 2 && plans.some((p) => p.refundable && p.room_type_ids.includes(t.id))) roomType = t;
    }
    const plan = plans.find((p) => p.room_type_ids.includes(roomType!.id) && p.refundable)!;
    ok(await h.patch(`/v1/rate_plans/${plan.id}`, { no_show_fee: { type: "fixed", amount: 5_000 } }, sandbox));
    const book = async (last: string) =>
      ok(await h.post("/v1/reservations", bookingBody({ propertyId: property.id, roomTypeId: roomType!.id, ratePlanId: plan.id }, today, addDays(today, 1), { guest: { first_name: "No", last_name: last, email: `${last.toLowerCase()}@noshow.example` } }), sandbox), 201);
    const unpaid = await book("Unpaid");
    const prepaid = await book("Prepaid");
    const night = prepaid.price.gross.amount as number;
    ok(await h.post("/v1/payments", { reservation_id: prepaid.id, amount: night, payment_method: { type: "cash" } }, sandbox), 201);

    // The audit closes `today`: the fee is posted, and invoiced, on the day it closes (as its flash counts it).
    ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, sandbox));

    for (const [stay, balance] of [[unpaid, 5_000], [prepaid, 5_000 - night]] as const) {
      expect(ok(await h.get(`/v1/reservations/${stay.id}`, sandbox)).status).toBe("no_show");
      const [invoice] = ok(await h.get(`/v1/invoices?reservation_id=${stay.id}`, sandbox)).data;
      expect(invoice).toMatchObject({ totals: { gross: usd(5_000) }, balance: usd(balance), issue_date: today });
      expect(invoice.lines.map((l: { kind: string; gross: { amount: number } }) => [l.kind, l.gross.amount])).toEqual([["no_show_fee", 5_000]]);
      expect(invoice.payments.map((p: { amount: { amount: number } }) => p.amount.amount)).toEqual(stay === prepaid ? [night] : []);
      const [row] = ok(await h.get(`/v1/receivables?guest_id=${stay.guest.id}`, sandbox)).data;
      expect(row).toMatchObject({ kind: balance > 0 ? "no_show" : "credit_balance", amount: usd(balance), invoice_id: invoice.id, due_date: today, age_days: 1, bucket: "days_0_30" });
    }
  });

  it("the sandbox's seed invoices every checked-out stay", async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    ok(await h.post("/v1/sandbox/reset", {}, sandbox));
    const property = await sandboxProperty(h, h.main.token);
    const out = ok(await h.get(`/v1/reservations?property_id=${property.id}&status=checked_out&limit=100`, sandbox)).data as { id: string }[];
    expect(out.length).toBeGreaterThan(0);
    for (const stay of out) {
      const [invoice] = ok(await h.get(`/v1/invoices?reservation_id=${stay.id}`, sandbox)).data;
      expect(invoice?.balance).toEqual(usd(0));
    }
    // Its no-shows are invoiced with their fee and owed: receivables of the fresh sandbox.
    const noShows = ok(await h.get(`/v1/reservations?property_id=${property.id}&status=no_show&limit=100`, sandbox)).data as { id: string }[];
    const owed = ok(await h.get(`/v1/receivables?property_id=${property.id}`, sandbox)).data as Row[];
    expect(owed.map((r) => r.stay.reservation_id).sort()).toEqual(noShows.map((r) => r.id).sort());
    expect(owed.every((r) => r.kind === "no_show" && r.invoice_id !== null)).toBe(true);
  });
});
