import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments, refunds } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, eventsFor, liveHotel, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue #5: payments and refunds on a reservation's folio (contract §6), the deprecated offset
// form of GET /payments (§5). Test cards run in the sandbox's seeded hotel; cash, bank transfer
// and the refusal of live cards on a live property built through the API.

let h: Harness;
let accountId: string;
const live: Caller = { token: "" };
const sandbox: Caller = { token: "", sandbox: true };
let liveHotelInfo: Awaited<ReturnType<typeof liveHotel>>;
let std: RoomTypeSetup;
let sandboxSetup: { propertyId: string; roomTypeId: string; ratePlanId: string; today: IsoDate };

const expYear = new Date().getUTCFullYear() + 3;
const card = (number: string, extra: Record<string, unknown> = {}) => ({ type: "card", number, exp_month: 12, exp_year: expYear, cvc: "123", ...extra });
const testCards = {
  succeeds: "4242424242424242",
  card_declined: "4000000000000002",
  insufficient_funds: "4000000000009995",
  expired_card: "4000000000000069",
  incorrect_cvc: "4000000000000127",
} as const;

type Payment = { id: string; status: string; amount: { amount: number; currency: string }; amount_refunded: { amount: number }; folio_id: string; captured: boolean };

let sandboxNight = 0;
/** A one- or two-night stay in the sandbox hotel, each on nights of its own far ahead. */
async function bookSandbox(nights = 2) {
  const from = addDays(sandboxSetup.today, 100 + sandboxNight);
  sandboxNight += nights;
  return ok(await h.post("/v1/reservations", bookingBody(sandboxSetup, from, addDays(from, nights)), sandbox), 201) as { id: string; folio_id: string; total: { amount: number } };
}

let liveNight = 0;
async function bookLive(nights = 1) {
  const from = addDays(liveHotelInfo.today, 5 + liveNight);
  liveNight += nights;
  const setup = { propertyId: liveHotelInfo.propertyId, roomTypeId: std.roomTypeId, ratePlanId: std.ratePlanId };
  return ok(await h.post("/v1/reservations", bookingBody(setup, from, addDays(from, nights)), live), 201) as { id: string; folio_id: string; total: { amount: number } };
}

const pay = (reservationId: string, method: unknown, extra: Record<string, unknown> = {}, caller: Caller = sandbox) =>
  h.post("/v1/payments", { reservation_id: reservationId, payment_method: method, ...extra }, caller);
const balanceOf = async (reservationId: string, caller: Caller = sandbox) => ok(await h.get(`/v1/reservations/${reservationId}/folio`, caller)).balance.amount as number;
const paymentOf = async (id: string, caller: Caller = sandbox) => ok(await h.get(`/v1/payments/${id}`, caller)) as Payment;
const eventsOf = (type: string, id: string) => eventsFor(h, accountId, type, (o) => o.id === id);
const paymentCount = async (reservationId: string) =>
  Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.reservationId, reservationId)))[0].n);

beforeAll(async () => {
  h = await startHarness();
  accountId = h.main.account.id;
  live.token = sandbox.token = h.main.token;
  liveHotelInfo = await liveHotel(h, accountId);
  std = await buildRoomType(h, live, liveHotelInfo.propertyId, liveHotelInfo.today, { rooms: 10, amount: 10_000, days: 120 });
  const property = await sandboxProperty(h, h.main.token);
  const king = ok(await h.get(`/v1/room_types?property_id=${property.id}`, sandbox)).data.find((t: { code: string }) => t.code === "KING");
  const bar = ok(await h.get(`/v1/rate_plans?property_id=${property.id}`, sandbox)).data.find((p: { code: string }) => p.code === "BAR");
  sandboxSetup = { propertyId: property.id, roomTypeId: king.id, ratePlanId: bar.id, today: todayIn(property.timezone) };
});
afterAll(async () => h?.close());

describe("sandbox test cards", () => {
  it("4242424242424242 succeeds: 201, captured, brand and last4 only; the balance falls; payment.succeeded", async () => {
    const r = await bookSandbox();
    const before = await balanceOf(r.id);
    expect(before).toBe(r.total.amount);
    const res = await pay(r.id, card(testCards.succeeds), { amount: 5_000 });
    const p = ok(res, 201);
    expect(p).toEqual({
      id: expect.stringMatching(/^pay_/),
      object: "payment",
      livemode: false,
      property_id: sandboxSetup.propertyId,
      reservation_id: r.id,
      folio_id: r.folio_id,
      amount: { amount: 5_000, currency: "USD" },
      amount_refunded: { amount: 0, currency: "USD" },
      status: "succeeded",
      captured: true,
      payment_method: { type: "card", brand: "visa", last4: "4242", exp_month: 12, exp_year: expYear },
      // A sandbox test card never goes to a processor.
      processor: null,
      dispute: null,
      next_action: null,
      failure_code: null,
      failure_message: null,
      captured_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
      // Counted on the property's business date (its open day), not the calendar's.
      business_date: ok(await h.get(`/v1/properties/${sandboxSetup.propertyId}`, sandbox)).business_date,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.text).not.toContain(testCards.succeeds);
    expect(await paymentOf(p.id)).toEqual(p);
    expect(await balanceOf(r.id)).toBe(before - 5_000);
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox));
    expect(folio.payments).toEqual([p]);
    const [event, ...more] = await eventsOf("payment.succeeded", p.id);
    expect(more).toEqual([]);
    expect(event.object).toMatchObject({ id: p.id, object: "payment", status: "succeeded", amount: { amount: 5_000 } });
    expect(await eventsOf("payment.failed", p.id)).toEqual([]);
  });

  for (const code of ["card_declined", "insufficient_funds", "expired_card", "incorrect_cvc"] as const) {
    it(`${testCards[code]} fails with 402 ${code}, and the failed payment is recorded with payment.failed`, async () => {
      const r = await bookSandbox(1);
      const before = await balanceOf(r.id);
      const res = await pay(r.id, card(testCards[code]), { amount: 4_000 });
      const error = expectError(res, 402, code) as { payment_id?: string; type: string };
      expect(error.type).toBe("card_error");
      expect(error.payment_id).toMatch(/^pay_/);
      const p = await paymentOf(error.payment_id!);
      expect(p).toMatchObject({
        reservation_id: r.id,
        status: "failed",
        captured: false,
        amount: { amount: 4_000 },
        failure_code: code,
        failure_message: expect.any(String),
        payment_method: { type: "card", brand: "visa", last4: testCards[code].slice(-4) },
      });
      expect(await balanceOf(r.id)).toBe(before);
      const [event, ...more] = await eventsOf("payment.failed", p.id);
      expect(more).toEqual([]);
      expect(event.object).toMatchObject({ id: p.id, status: "failed", failure_code: code });
      expect(await eventsOf("payment.succeeded", p.id)).toEqual([]);
      // Listed among the failed payments of the reservation.
      const listed = ok(await h.get(`/v1/payments?reservation_id=${r.id}&status=failed`, sandbox));
      expect(listed.data.map((x: Payment) => x.id)).toEqual([p.id]);
    });
  }

  it("the succeeding card with an expiry date in the past is declined as expired_card", async () => {
    const r = await bookSandbox(1);
    const error = expectError(await pay(r.id, card(testCards.succeeds, { exp_month: 1, exp_year: new Date().getUTCFullYear() - 1 })), 402, "expired_card");
    expect((await paymentOf((error as { payment_id?: string }).payment_id!)).status).toBe("failed");
  });

  it("a valid card number that is not a test card is declined in the sandbox, and recorded", async () => {
    const r = await bookSandbox(1);
    const error = expectError(await pay(r.id, card("5555555555554444"), { amount: 1_000 }), 402, "card_declined") as { payment_id?: string };
    expect(await paymentOf(error.payment_id!)).toMatchObject({ status: "failed", payment_method: { brand: "mastercard", last4: "4444" } });
  });

  it("a number failing the Luhn check is 422 on payment_method.number, and nothing is recorded", async () => {
    const r = await bookSandbox(1);
    expectError(await pay(r.id, card("4242424242424241")), 422, "parameter_invalid", "payment_method.number");
    expectError(await pay(r.id, card("4242-4242-4242")), 422, "parameter_invalid", "payment_method.number");
    expectError(await pay(r.id, card(testCards.succeeds, { cvc: "12" })), 422, "parameter_invalid", "payment_method.cvc");
    expectError(await pay(r.id, card(testCards.succeeds, { exp_month: 13 })), 422, "parameter_invalid", "payment_method.exp_month");
    expectError(await pay(r.id, { type: "card", number: testCards.succeeds, exp_month: 12, exp_year: expYear }), 422, "parameter_missing", "payment_method.cvc");
    expectError(await pay(r.id, { type: "cheque" }), 422, "parameter_invalid", "payment_method.type");
    expectError(await pay(r.id, card(testCards.succeeds), { amount: 0 }), 422, "parameter_invalid", "amount");
    expect(await paymentCount(r.id)).toBe(0);
  });

  it("a decline replayed with the same Idempotency-Key answers the same 402 without a second payment", async () => {
    const r = await bookSandbox(1);
    const headers = { "idempotency-key": `decline-${r.id}` };
    const body = { reservation_id: r.id, amount: 1_500, payment_method: card(testCards.card_declined) };
    const first = await h.post("/v1/payments", body, { ...sandbox, headers });
    const second = await h.post("/v1/payments", body, { ...sandbox, headers });
    expectError(first, 402, "card_declined");
    expect(second.status).toBe(402);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json.error.payment_id).toBe(first.json.error.payment_id);
    expect(await paymentCount(r.id)).toBe(1);
  });
});

describe("amounts and the folio balance", () => {
  it("the amount defaults to the folio balance; with nothing left to pay, an amount is required", async () => {
    const r = await bookSandbox();
    ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Minibar", amount: 1_234 }, sandbox), 201);
    const owed = r.total.amount + 1_234;
    expect(await balanceOf(r.id)).toBe(owed);
    const p = ok(await pay(r.id, card(testCards.succeeds)), 201);
    expect(p.amount).toEqual({ amount: owed, currency: "USD" });
    expect(await balanceOf(r.id)).toBe(0);
    expectError(await pay(r.id, card(testCards.succeeds)), 422, "parameter_missing", "amount");
  });

  it("follows every payment and refund, and check-out succeeds once it is zero", async () => {
    // One night, so that checking out today is on time (a stay left early is shortened first).
    const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: liveHotelInfo.propertyId, roomTypeId: std.roomTypeId, ratePlanId: std.ratePlanId }, liveHotelInfo.today, addDays(liveHotelInfo.today, 1)), live), 201);
    expect(await balanceOf(r.id, live)).toBe(10_000);
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, live));
    expectError(await h.post(`/v1/reservations/${r.id}/check_out`, {}, live), 409, "balance_outstanding");
    const cash = ok(await pay(r.id, { type: "cash" }, { amount: 7_500 }, live), 201);
    expect(await balanceOf(r.id, live)).toBe(2_500);
    ok(await h.post("/v1/refunds", { payment_id: cash.id, amount: 1_000 }, live), 201);
    expect(await balanceOf(r.id, live)).toBe(3_500);
    expectError(await h.post(`/v1/reservations/${r.id}/check_out`, {}, live), 409, "balance_outstanding");
    const transfer = ok(await pay(r.id, { type: "bank_transfer", reference: "SEPA-778" }, {}, live), 201);
    expect(transfer.amount.amount).toBe(3_500);
    expect(await balanceOf(r.id, live)).toBe(0);
    const out = ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, live));
    expect(out.status).toBe("checked_out");
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, live));
    expect(folio).toMatchObject({ status: "closed", balance: { amount: 0 } });
    expect(folio.payments.map((p: Payment) => [p.id, p.status])).toEqual([
      [cash.id, "partially_refunded"],
      [transfer.id, "succeeded"],
    ]);
    expect(folio.refunds).toHaveLength(1);
    // A closed folio takes no more payments.
    expectError(await pay(r.id, { type: "cash" }, { amount: 100 }, live), 409, "invalid_state_transition");
  });
});

describe("the live environment", () => {
  it("refuses card charges without a configured processor: 422 parameter_invalid, nothing recorded", async () => {
    const r = await bookLive();
    const error = expectError(await pay(r.id, card(testCards.succeeds), {}, live), 422, "parameter_invalid", "payment_method.type");
    expect(error.message).toMatch(/processor/);
    expectError(await pay(r.id, card(testCards.succeeds), { capture: false }, live), 422, "parameter_invalid", "payment_method.type");
    expect(await paymentCount(r.id)).toBe(0);
  });

  it("takes cash and bank transfers", async () => {
    const r = await bookLive(2);
    const cash = ok(await pay(r.id, { type: "cash" }, { amount: 5_000 }, live), 201);
    expect(cash).toMatchObject({ livemode: true, status: "succeeded", captured: true, payment_method: { type: "cash" }, amount: { amount: 5_000, currency: "USD" } });
    const transfer = ok(await pay(r.id, { type: "bank_transfer", reference: "INV-2041" }, {}, live), 201);
    expect(transfer).toMatchObject({ status: "succeeded", payment_method: { type: "bank_transfer", reference: "INV-2041" }, amount: { amount: 15_000 } });
    const bare = await bookLive();
    expect(ok(await pay(bare.id, { type: "bank_transfer" }, {}, live), 201).payment_method).toEqual({ type: "bank_transfer", reference: null });
    expect(await balanceOf(r.id, live)).toBe(0);
    expect(await eventsOf("payment.succeeded", cash.id)).toHaveLength(1);
    expect(await eventsOf("payment.succeeded", transfer.id)).toHaveLength(1);
  });

  it("only cards can be authorized without capture", async () => {
    const r = await bookLive();
    expectError(await pay(r.id, { type: "cash" }, { capture: false }, live), 422, "parameter_invalid", "capture");
    expectError(await pay(r.id, { type: "bank_transfer" }, { capture: false }, live), 422, "parameter_invalid", "capture");
    expect(await paymentCount(r.id)).toBe(0);
  });
});

describe("authorize, then capture or void", () => {
  it("authorize → capture: authorized leaves the balance alone; the capture succeeds with payment.succeeded", async () => {
    const r = await bookSandbox();
    const before = await balanceOf(r.id);
    const auth = ok(await pay(r.id, card(testCards.succeeds), { capture: false, amount: 7_000 }), 201);
    expect(auth).toMatchObject({ status: "authorized", captured: false, amount: { amount: 7_000 } });
    expect(await balanceOf(r.id)).toBe(before);
    expect(await eventsOf("payment.succeeded", auth.id)).toEqual([]);
    const captured = ok(await h.post(`/v1/payments/${auth.id}/capture`, {}, sandbox));
    expect(captured).toMatchObject({ id: auth.id, status: "succeeded", captured: true, amount: { amount: 7_000 } });
    expect(await balanceOf(r.id)).toBe(before - 7_000);
    const [event, ...more] = await eventsOf("payment.succeeded", auth.id);
    expect(more).toEqual([]);
    expect(event.object).toMatchObject({ id: auth.id, status: "succeeded", captured: true });
    // Captured is final for capture and void.
    expectError(await h.post(`/v1/payments/${auth.id}/capture`, {}, sandbox), 409, "invalid_state_transition");
    expectError(await h.post(`/v1/payments/${auth.id}/void`, {}, sandbox), 409, "invalid_state_transition");
    expect((await paymentOf(auth.id)).status).toBe("succeeded");
  });

  it("authorize → void: voided, the balance untouched, no event of success; nothing after", async () => {
    const r = await bookSandbox();
    const before = await balanceOf(r.id);
    const auth = ok(await pay(r.id, card(testCards.succeeds), { capture: false }), 201);
    expect(auth.amount.amount).toBe(before);
    const voided = ok(await h.post(`/v1/payments/${auth.id}/void`, {}, sandbox));
    expect(voided).toMatchObject({ id: auth.id, status: "voided", captured: false });
    expect(await balanceOf(r.id)).toBe(before);
    expect(await eventsOf("payment.succeeded", auth.id)).toEqual([]);
    expectError(await h.post(`/v1/payments/${auth.id}/capture`, {}, sandbox), 409, "invalid_state_transition");
    expectError(await h.post(`/v1/payments/${auth.id}/void`, {}, sandbox), 409, "invalid_state_transition");
    expect((await paymentOf(auth.id)).status).toBe("voided");
  });

  it("an authorization with a declining card fails at once (402) and cannot be captured", async () => {
    const r = await bookSandbox(1);
    const error = expectError(await pay(r.id, card(testCards.insufficient_funds), { capture: false }), 402, "insufficient_funds") as { payment_id?: string };
    expect((await paymentOf(error.payment_id!)).status).toBe("failed");
    expectError(await h.post(`/v1/payments/${error.payment_id}/capture`, {}, sandbox), 409, "invalid_state_transition");
    expectError(await h.post(`/v1/payments/${error.payment_id}/void`, {}, sandbox), 409, "invalid_state_transition");
  });

  it("capture and void of a payment that was never authorized: 409", async () => {
    const r = await bookLive();
    const cash = ok(await pay(r.id, { type: "cash" }, { amount: 1_000 }, live), 201);
    expectError(await h.post(`/v1/payments/${cash.id}/capture`, {}, live), 409, "invalid_state_transition");
    expectError(await h.post(`/v1/payments/${cash.id}/void`, {}, live), 409, "invalid_state_transition");
    expect((await paymentOf(cash.id, live)).status).toBe("succeeded");
  });

  it("404 for an unknown payment or reservation, or one of the other environment or account", async () => {
    const r = await bookSandbox(1);
    const auth = ok(await pay(r.id, card(testCards.succeeds), { capture: false, amount: 500 }), 201);
    for (const action of ["capture", "void"]) {
      expectError(await h.post(`/v1/payments/pay_nope/${action}`, {}, sandbox), 404, "resource_missing", "id");
      expectError(await h.post(`/v1/payments/${auth.id}/${action}`, {}, live), 404, "resource_missing", "id");
    }
    expectError(await h.get(`/v1/payments/${auth.id}`, live), 404, "resource_missing", "id");
    expectError(await pay("res_nope", card(testCards.succeeds)), 404, "resource_missing", "reservation_id");
    expectError(await pay(r.id, { type: "cash" }, {}, live), 404, "resource_missing", "reservation_id");
    const other = await h.newAccount("Other Hotels");
    const theirs: Caller = { token: other.token, sandbox: true };
    expectError(await h.get(`/v1/payments/${auth.id}`, theirs), 404, "resource_missing", "id");
    expectError(await h.post(`/v1/payments/${auth.id}/capture`, {}, theirs), 404, "resource_missing", "id");
    expectError(await pay(r.id, card(testCards.succeeds), {}, theirs), 404, "resource_missing", "reservation_id");
    expectError(await h.post("/v1/refunds", { payment_id: auth.id }, theirs), 404, "resource_missing", "payment_id");
    expect((await paymentOf(auth.id)).status).toBe("authorized");
  });
});

describe("card numbers are never stored", () => {
  /** postgres.js answers an array of rows, PGlite an object holding them. */
  const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : (result as { rows: T[] }).rows);

  it("the payments table has brand and last4 columns, none for the number; no row of any table holds a number sent", async () => {
    // Numbers sent through every path: success, decline, authorization, an idempotent request.
    const r = await bookSandbox();
    ok(await pay(r.id, card(testCards.succeeds), { amount: 100 }), 201);
    ok(await pay(r.id, card(testCards.succeeds), { amount: 100, capture: false }), 201);
    for (const number of Object.values(testCards).slice(1)) expect((await pay(r.id, card(number), { amount: 100 })).status).toBe(402);
    ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 100, payment_method: card(testCards.succeeds) }, { ...sandbox, headers: { "idempotency-key": `stored-${r.id}` } }), 201);

    const columns = rowsOf<{ column_name: string }>(
      await h.db.execute(sql`select column_name from information_schema.columns where table_schema = 'public' and table_name = 'payments'`),
    ).map((c) => c.column_name);
    expect(columns).toEqual(expect.arrayContaining(["card_brand", "card_last4", "card_exp_month", "card_exp_year"]));
    expect(columns.filter((c) => /number|pan|cvc|cvv/.test(c))).toEqual([]);
    const cardRows = await h.db.select().from(payments).where(and(eq(payments.reservationId, r.id)));
    expect(cardRows).toHaveLength(7);
    for (const row of cardRows) {
      expect(row.cardLast4).toMatch(/^\d{4}$/);
      expect(row.cardBrand).toBe("visa");
    }

    const tables = rowsOf<{ table_name: string }>(
      await h.db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`),
    ).map((t) => t.table_name);
    expect(tables).toContain("payments");
    expect(tables).toContain("events");
    for (const table of tables) {
      for (const number of Object.values(testCards)) {
        const [hit] = rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} t where t::text like ${`%${number}%`}`));
        expect(Number(hit.n), `${number} in ${table}`).toBe(0);
      }
    }
  });
});

describe("refunds", () => {
  /** A fresh captured payment of `amount` on a stay of its own. */
  async function captured(amount: number, caller: Caller = live) {
    const r = caller.sandbox ? await bookSandbox(1) : await bookLive(2);
    const method = caller.sandbox ? card(testCards.succeeds) : { type: "cash" };
    const p = ok(await pay(r.id, method, { amount }, caller), 201) as Payment;
    return { reservation: r, payment: p };
  }
  const refund = (paymentId: string, extra: Record<string, unknown> = {}, caller: Caller = live) => h.post("/v1/refunds", { payment_id: paymentId, ...extra }, caller);

  it("refunds the whole payment by default: refunded, the balance back, payment.refunded", async () => {
    const { reservation: r, payment: p } = await captured(10_000, sandbox);
    const before = await balanceOf(r.id);
    const re = ok(await refund(p.id, { reason: "Guest complaint" }, sandbox), 201);
    expect(re).toEqual({
      id: expect.stringMatching(/^re_/),
      object: "refund",
      livemode: false,
      payment_id: p.id,
      folio_id: r.folio_id,
      amount: { amount: 10_000, currency: "USD" },
      reason: "Guest complaint",
      status: "succeeded",
      // Before the folio closes a refund issues no credit note (docs/decisions.md, "Corrections are credit notes").
      credit_note_id: null,
      dispute_id: null,
      business_date: ok(await h.get(`/v1/properties/${sandboxSetup.propertyId}`, sandbox)).business_date,
      created_at: expect.any(String),
    });
    expect(ok(await h.get(`/v1/refunds/${re.id}`, sandbox))).toEqual(re);
    expect(await paymentOf(p.id)).toMatchObject({ status: "refunded", amount_refunded: { amount: 10_000 }, amount: { amount: 10_000 } });
    expect(await balanceOf(r.id)).toBe(before + 10_000);
    const [event, ...more] = await eventsOf("payment.refunded", p.id);
    expect(more).toEqual([]);
    expect(event.object).toMatchObject({ id: p.id, object: "payment", status: "refunded", amount_refunded: { amount: 10_000 }, refund_id: re.id });
    // The same event through the API, as an integrator reads it.
    const listed = ok(await h.get("/v1/events?type=payment.refunded&limit=100", sandbox));
    expect(listed.data.find((e: { id: string }) => e.id === event.id)).toMatchObject({ type: "payment.refunded", livemode: false, data: { object: { id: p.id, refund_id: re.id } } });
    // Nothing is left to refund: the rest is 0, so any amount is over it (contract §6, Refunds).
    expect(expectError(await refund(p.id, {}, sandbox), 422, "amount_exceeds_refundable", "amount").message).toContain("At most 0");
    expectError(await refund(p.id, { amount: 1 }, sandbox), 422, "amount_exceeds_refundable", "amount");
    expect(await paymentOf(p.id)).toMatchObject({ status: "refunded", amount_refunded: { amount: 10_000 } });
    expect(await eventsOf("payment.refunded", p.id)).toHaveLength(1);
  });

  it("partial refunds up to the refundable rest; beyond it 422 amount_exceeds_refundable, changing nothing", async () => {
    const { reservation: r, payment: p } = await captured(10_000);
    const start = await balanceOf(r.id, live);
    const first = ok(await refund(p.id, { amount: 2_500 }), 201);
    expect(first.amount.amount).toBe(2_500);
    expect(first.reason).toBeNull();
    expect(await paymentOf(p.id, live)).toMatchObject({ status: "partially_refunded", amount_refunded: { amount: 2_500 } });
    expect(await balanceOf(r.id, live)).toBe(start + 2_500);
    ok(await refund(p.id, { amount: 4_000 }), 201);
    expect(await paymentOf(p.id, live)).toMatchObject({ status: "partially_refunded", amount_refunded: { amount: 6_500 } });
    expect(await balanceOf(r.id, live)).toBe(start + 6_500);

    const error = expectError(await refund(p.id, { amount: 3_501 }), 422, "amount_exceeds_refundable", "amount");
    expect(error.message).toContain("3500");
    expect(await paymentOf(p.id, live)).toMatchObject({ status: "partially_refunded", amount_refunded: { amount: 6_500 } });
    expect(await balanceOf(r.id, live)).toBe(start + 6_500);

    const rest = ok(await refund(p.id), 201);
    expect(rest.amount.amount).toBe(3_500);
    expect(await paymentOf(p.id, live)).toMatchObject({ status: "refunded", amount_refunded: { amount: 10_000 } });
    expect(await balanceOf(r.id, live)).toBe(start + 10_000);
    expectError(await refund(p.id, { amount: 1 }), 422, "amount_exceeds_refundable", "amount");
    expect(await eventsOf("payment.refunded", p.id)).toHaveLength(3);
    const listed = ok(await h.get(`/v1/refunds?payment_id=${p.id}`, live));
    expect(listed.data.map((x: { amount: { amount: number } }) => x.amount.amount)).toEqual([3_500, 4_000, 2_500]);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).refunds).toHaveLength(3);
  });

  it("a refund more than the payment at once is 422 too", async () => {
    const { payment: p } = await captured(3_000);
    expectError(await refund(p.id, { amount: 3_001 }), 422, "amount_exceeds_refundable", "amount");
    expectError(await refund(p.id, { amount: 0 }), 422, "parameter_invalid", "amount");
    expect((await paymentOf(p.id, live)).status).toBe("succeeded");
  });

  it("a failed, authorized or voided payment cannot be refunded: 409", async () => {
    const r = await bookSandbox(1);
    const failed = (expectError(await pay(r.id, card(testCards.card_declined), { amount: 100 }), 402, "card_declined") as { payment_id?: string }).payment_id!;
    const authorized = ok(await pay(r.id, card(testCards.succeeds), { amount: 100, capture: false }), 201).id;
    const voided = ok(await pay(r.id, card(testCards.succeeds), { amount: 100, capture: false }), 201).id;
    ok(await h.post(`/v1/payments/${voided}/void`, {}, sandbox));
    for (const id of [failed, authorized, voided]) {
      expectError(await refund(id, {}, sandbox), 409, "invalid_state_transition");
      expectError(await refund(id, { amount: 50 }, sandbox), 409, "invalid_state_transition");
    }
    const count = await h.db.select({ n: sql<number>`count(*)::int` }).from(refunds).where(eq(refunds.folioId, r.folio_id));
    expect(Number(count[0].n)).toBe(0);
  });

  it("404 for an unknown payment, or one of the other environment", async () => {
    const { payment: p } = await captured(1_000);
    expectError(await refund("pay_nope"), 404, "resource_missing", "payment_id");
    expectError(await refund(p.id, {}, sandbox), 404, "resource_missing", "payment_id");
    expectError(await h.get("/v1/refunds/re_nope", live), 404, "resource_missing", "id");
    const re = ok(await refund(p.id, { amount: 100 }), 201);
    expectError(await h.get(`/v1/refunds/${re.id}`, sandbox), 404, "resource_missing", "id");
  });

  describe.skipIf(!onPostgres)("racing refunds of one payment (PostgreSQL, real concurrency)", () => {
    it("10 concurrent refunds of 30 % each: exactly 3 succeed, never more than the payment", async () => {
      const { reservation: r, payment: p } = await captured(10_000);
      const start = await balanceOf(r.id, live);
      const answers = await Promise.all(Array.from({ length: 10 }, () => refund(p.id, { amount: 3_000 })));
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([201, 201, 201, 422, 422, 422, 422, 422, 422, 422]);
      for (const a of answers.filter((x) => x.status === 422)) expectError(a, 422, "amount_exceeds_refundable", "amount");
      const rows = await h.db.select().from(refunds).where(eq(refunds.paymentId, p.id));
      expect(rows.map((x) => x.amount)).toEqual([3_000, 3_000, 3_000]);
      expect(await paymentOf(p.id, live)).toMatchObject({ status: "partially_refunded", amount_refunded: { amount: 9_000 } });
      expect(await balanceOf(r.id, live)).toBe(start + 9_000);
      expect(await eventsOf("payment.refunded", p.id)).toHaveLength(3);
      // The rest is still exactly refundable.
      expectError(await refund(p.id, { amount: 1_001 }), 422, "amount_exceeds_refundable", "amount");
      expect(ok(await refund(p.id), 201).amount.amount).toBe(1_000);
      expect((await paymentOf(p.id, live)).status).toBe("refunded");
    });

    it("10 concurrent full refunds: exactly one succeeds", async () => {
      const { payment: p } = await captured(8_000);
      const answers = await Promise.all(Array.from({ length: 10 }, () => refund(p.id)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 422, "amount_exceeds_refundable", "amount");
      const rows = await h.db.select().from(refunds).where(eq(refunds.paymentId, p.id));
      expect(rows.map((x) => x.amount)).toEqual([8_000]);
      expect(await paymentOf(p.id, live)).toMatchObject({ status: "refunded", amount_refunded: { amount: 8_000 } });
    });

    it("concurrent payments of the balance (no amount): the folio is paid once", async () => {
      const r = await bookLive(2);
      const answers = await Promise.all(Array.from({ length: 6 }, () => pay(r.id, { type: "cash" }, {}, live)));
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 422, "parameter_missing", "amount");
      expect(await balanceOf(r.id, live)).toBe(0);
      expect(await paymentCount(r.id)).toBe(1);
    });

    it("refunds racing on different payments of one folio all succeed, and the balance adds them all up", async () => {
      const r = await bookLive(3);
      const paid = await Promise.all([1_000, 2_000, 3_000, 4_000].map(async (amount) => ok(await pay(r.id, { type: "cash" }, { amount }, live), 201) as Payment));
      const start = await balanceOf(r.id, live);
      const answers = await Promise.all(paid.flatMap((p) => [refund(p.id, { amount: 500 }), refund(p.id, { amount: 500 })]));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
      expect(await balanceOf(r.id, live)).toBe(start + 4_000);
    });
  });
});

describe("GET /v1/payments", () => {
  let token: string;
  /** Newest first: all seven payments, and the four on reservation A. */
  let ids: string[] = [];
  let idsOnA: string[] = [];
  let reservationA = "";
  beforeAll(async () => {
    const account = await h.newAccount("Ledger Hotels");
    token = account.token;
    const caller = { token };
    const hotel = await liveHotel(h, account.account.id);
    const setup = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, amount: 50_000, days: 30 });
    const stay = (n: number) => bookingBody({ propertyId: hotel.propertyId, roomTypeId: setup.roomTypeId, ratePlanId: setup.ratePlanId }, addDays(hotel.today, n), addDays(hotel.today, n + 1));
    const a = ok(await h.post("/v1/reservations", stay(3), caller), 201);
    const b = ok(await h.post("/v1/reservations", stay(4), caller), 201);
    reservationA = a.id;
    const made: { id: string; reservation: string }[] = [];
    for (let i = 0; i < 7; i++) {
      const reservation = i % 2 ? b.id : a.id;
      made.push({ id: ok(await pay(reservation, { type: "cash" }, { amount: 1_000 + i }, caller), 201).id, reservation });
    }
    ids = made.map((m) => m.id).reverse();
    idsOnA = made.filter((m) => m.reservation === a.id).map((m) => m.id).reverse();
  });

  const list = async (query: string) => ok(await h.get(`/v1/payments?${query}`, { token }));

  it("walks cursor pages newest first, forward and back", async () => {
    const p1 = await list("limit=3");
    const p2 = await list(`limit=3&cursor=${p1.next_cursor}`);
    const p3 = await list(`limit=3&cursor=${p2.next_cursor}`);
    expect([p1, p2, p3].map((p) => p.data.map((x: Payment) => x.id))).toEqual([ids.slice(0, 3), ids.slice(3, 6), ids.slice(6)]);
    expect([p1.has_more, p2.has_more, p3.has_more]).toEqual([true, true, false]);
    expect(p1.prev_cursor).toBeNull();
    expect(p3.next_cursor).toBeNull();
    const back = await list(`limit=3&cursor=${p3.prev_cursor}`);
    expect(back.data.map((x: Payment) => x.id)).toEqual(ids.slice(3, 6));
    expect(p1.data[0]).toMatchObject({ object: "payment", livemode: true, payment_method: { type: "cash" } });
  });

  it("filters by reservation and status; a cursor of other filters is 400 invalid_cursor", async () => {
    const mine = await list(`reservation_id=${reservationA}&limit=100`);
    expect(mine.data.map((x: Payment) => x.id)).toEqual(idsOnA);
    expect((await list("status=refunded")).data).toEqual([]);
    const first = await list("limit=2");
    expectError(await h.get(`/v1/payments?status=succeeded&limit=2&cursor=${first.next_cursor}`, { token }), 400, "invalid_cursor", "cursor");
  });

  it("still serves offset pagination (deprecated): same rows, Deprecation: true and a Link to the cursor form", async () => {
    const res = await h.get("/v1/payments?limit=3&offset=3", { token });
    const body = ok(res);
    expect(body.data.map((x: Payment) => x.id)).toEqual(ids.slice(3, 6));
    expect(body.has_more).toBe(true);
    expect(res.headers.get("deprecation")).toBe("true");
    const link = res.headers.get("link")!;
    const target = /^<([^>]+)>/.exec(link)?.[1];
    expect(target).toBe("/v1/payments?limit=3");
    // The link leads to the cursor form of the same list.
    const cursorForm = ok(await h.get(target!, { token }));
    expect(cursorForm.data.map((x: Payment) => x.id)).toEqual(ids.slice(0, 3));
    expect(cursorForm.next_cursor).toEqual(expect.any(String));

    const last = ok(await h.get("/v1/payments?limit=3&offset=6", { token }));
    expect(last.data.map((x: Payment) => x.id)).toEqual(ids.slice(6));
    expect(last.has_more).toBe(false);
    expect(ok(await h.get("/v1/payments?offset=50", { token })).data).toEqual([]);
    // Filters carry over into the link.
    const filtered = await h.get(`/v1/payments?reservation_id=${reservationA}&offset=1&limit=2`, { token });
    expect(ok(filtered).data.map((x: Payment) => x.id)).toEqual(idsOnA.slice(1, 3));
    const filteredTarget = /^<([^>]+)>/.exec(filtered.headers.get("link")!)?.[1];
    expect(filteredTarget).toBe(`/v1/payments?reservation_id=${reservationA}&limit=2`);
    const followed = ok(await h.get(filteredTarget!, { token }));
    expect(followed.data.map((x: Payment) => x.id)).toEqual(idsOnA.slice(0, 2));
    // Without offset, no deprecation.
    const plain = await h.get("/v1/payments?limit=3", { token });
    expect(plain.headers.get("deprecation")).toBeNull();
    expect(plain.headers.get("link")).toBeNull();
  });

  it("refuses a bad offset, or offset with a cursor (400)", async () => {
    expectError(await h.get("/v1/payments?offset=-1", { token }), 400, "parameter_invalid", "offset");
    expectError(await h.get("/v1/payments?offset=abc", { token }), 400, "parameter_invalid", "offset");
    const first = await list("limit=2");
    // Both at once is refused; which of the two the answer blames depends on which check runs
    // first (the cursor's fingerprint counts offset among the filters), so either code is right.
    const both = await h.get(`/v1/payments?limit=2&offset=2&cursor=${first.next_cursor}`, { token });
    expect(both.status, both.text).toBe(400);
    expect(["parameter_invalid", "invalid_cursor"]).toContain(both.json.error.code);
  });

  it("refuses offset on every other list (400 parameter_invalid)", async () => {
    for (const path of ["/v1/refunds", "/v1/reservations", "/v1/guests", "/v1/housekeeping/assignments", "/v1/events", "/v1/rooms"]) {
      expectError(await h.get(`${path}?offset=0`, { token }), 400, "parameter_invalid", "offset");
    }
  });

  it("lists only the caller's environment and account", async () => {
    const sandboxList = ok(await h.get("/v1/payments?limit=100", { token, sandbox: true }));
    expect(sandboxList.data.every((x: Payment & { livemode: boolean }) => x.livemode === false)).toBe(true);
    expect(sandboxList.data.some((x: Payment) => ids.includes(x.id))).toBe(false);
    const mainList = ok(await h.get("/v1/payments?limit=100", live));
    expect(mainList.data.some((x: Payment) => ids.includes(x.id))).toBe(false);
  });
});
