import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments, reservations } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { holdDeposit } from "@/server/payments/deposits";
import { reconcileCharges } from "@/server/payments/reconcile";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, eventsFor, liveHotel, ok, type Caller } from "../support/hotel";
import { stripeRequests } from "../support/stripe-states";

// Issue 37, point 3: a rate plan's deposit, taken at booking from the card put on file with it.
// Held on the card before the stay is written (a refusal books nothing; a booking refused after
// the hold lets it go), captured once the booking has committed and recorded as the folio's
// payment on the business date. Every request reaches stripe-mock through the test relay
// (tests/support/stripe-states.ts), which plays the saved card that declines when charged.

let h: Harness;
const live: Caller = { token: "" };
const key = `sk_test_${randomBytes(18).toString("hex")}`;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let type: Awaited<ReturnType<typeof buildRoomType>>;
/** 120.00 a night, as the room type is loaded below. */
const rate = 12_000;

let night = 0;
/** A two-night booking of its own dates, from 3 days ahead. */
const book = (extra: Record<string, unknown> = {}, headers?: Record<string, string>) => {
  const start = addDays(hotel.today, 3 + 2 * night++);
  return h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId }, start, addDays(start, 2), extra), {
    ...live,
    ...(headers ? { headers } : {}),
  });
};
const card = (pm: string) => ({ guarantee: { type: "card", processor_payment_method: pm } });
const paymentsOf = (reservationId: string) => h.db.select().from(payments).where(eq(payments.reservationId, reservationId));
const reservationCount = async () =>
  Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(reservations).where(eq(reservations.propertyId, hotel.propertyId)))[0].n);
const intents = async () => (await stripeRequests(key)).filter((r) => r.path.startsWith("/v1/payment_intents"));
const setDeposit = async (deposit: unknown) => ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, { deposit }, live));

beforeAll(async () => {
  h = await startHarness();
  live.token = h.main.token;
  hotel = await liveHotel(h, h.main.account.id);
  type = await buildRoomType(h, live, hotel.propertyId, hotel.today, { rooms: 1, amount: rate, days: 40 });
  ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: key, webhook_secret: `whsec_${randomBytes(18).toString("hex")}` }, live), 201);
});
afterAll(async () => h?.close());

describe("a rate plan's deposit", () => {
  it("is set, changed and removed through the API in the shape of the plan's fees; a wrong one is refused and changes nothing", async () => {
    expect(ok(await h.get(`/v1/rate_plans/${type.ratePlanId}`, live)).deposit).toBeNull();
    expect((await setDeposit({ type: "percent", percent: 50 })).deposit).toEqual({ type: "percent", percent: 50 });
    for (const wrong of [{ type: "percent", percent: 0 }, { type: "percent", percent: 101 }, { type: "nights", nights: 31 }, { type: "fixed", amount: 0 }, { type: "all" }, "50%"]) {
      const res = await h.patch(`/v1/rate_plans/${type.ratePlanId}`, { deposit: wrong }, live);
      expect(res.status).toBe(422);
      expect(res.json.error.param).toMatch(/^deposit/);
    }
    expect(ok(await h.get(`/v1/rate_plans/${type.ratePlanId}`, live)).deposit).toEqual({ type: "percent", percent: 50 });
    expect((await setDeposit(null)).deposit).toBeNull();
    const created = ok(
      await h.post(
        "/v1/rate_plans",
        { property_id: hotel.propertyId, code: "DEP1", name: "First night ahead", room_type_ids: [type.roomTypeId], deposit: { type: "nights", nights: 1 } },
        live,
      ),
      201,
    );
    expect(created.deposit).toEqual({ type: "nights", nights: 1 });
    const [event] = await eventsFor(h, h.main.account.id, "rate_plan.created", (o) => o.id === created.id);
    expect((event.object as { deposit: unknown }).deposit).toEqual({ type: "nights", nights: 1 });
  });

  it("is held on the card on file before the stay is written and captured after: one payment on the folio, on the business date, told once", async () => {
    await setDeposit({ type: "percent", percent: 50 });
    const before = (await intents()).length;
    const r = ok(await book(card("pm_card_visa")), 201);
    // Half of two nights at 120.00.
    expect(r.deposit).toEqual({ amount: rate, currency: "USD" });
    const [payment, ...more] = await paymentsOf(r.id);
    expect(more).toHaveLength(0);
    expect(payment).toMatchObject({ status: "succeeded", amount: rate, processor: "stripe", cardLast4: "4242", businessDate: hotel.today });
    // At Stripe: an authorization off-session on the saved card, naming the stay, then its capture.
    const sent = (await intents()).slice(before);
    expect(sent.map((q) => `${q.method} ${q.path.replace(/pi_[A-Za-z0-9]+/, "{id}")} ${q.status}`)).toEqual([
      "POST /v1/payment_intents 200",
      "POST /v1/payment_intents/{id}/capture 200",
    ]);
    expect(sent[0].params).toMatchObject({ amount: String(rate), capture_method: "manual", off_session: "true", payment_method: "pm_card_visa", "metadata[innkeep_reservation_id]": r.id });
    expect(sent[0].params.customer).toMatch(/^cus_/);
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, live));
    expect(folio.balance.amount).toBe(r.total.amount - rate);
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.reservation_id === r.id)).toHaveLength(1);
    const report = ok(await h.get(`/v1/reports/revenue?property_id=${hotel.propertyId}&from=${hotel.today}&to=${addDays(hotel.today, 1)}`, live));
    expect(report.totals.payments).toBeGreaterThanOrEqual(rate);
    // The booking's answer says what the plan asked; the event of its creation too.
    const [created] = await eventsFor(h, h.main.account.id, "reservation.created", (o) => o.id === r.id);
    expect((created.object as { deposit: unknown }).deposit).toEqual({ amount: rate, currency: "USD" });
  });

  it("is one deposit for a booking sent twice with one Idempotency-Key", async () => {
    const headers = { "idempotency-key": `deposit-${randomBytes(6).toString("hex")}` };
    const first = ok(await book(card("pm_card_visa"), headers), 201);
    night--; // the same dates again
    const again = ok(await book(card("pm_card_visa"), headers), 201);
    expect(again.id).toBe(first.id);
    expect(await paymentsOf(first.id)).toHaveLength(1);
  });

  it("refused by the bank answers 402 in the bank's words and books nothing", async () => {
    const before = await reservationCount();
    const error = expectError(await book(card("pm_card_chargeCustomerFail")), 402, "card_declined", "guarantee");
    expect(error.message).toMatch(/deposit could not be taken.*nothing was booked/);
    expect(await reservationCount()).toBe(before);
    expect(await h.db.select().from(payments).where(eq(payments.propertyId, hotel.propertyId))).toHaveLength(2);
  });

  it("is let go at Stripe when the booking is refused after the hold (no room left), and nothing is recorded", async () => {
    const taken = ok(await book(card("pm_card_visa")), 201);
    night--; // the same dates: the one room is sold
    const before = (await intents()).length;
    expectError(await book(card("pm_card_visa")), 409, "no_availability");
    const sent = (await intents()).slice(before);
    expect(sent.map((q) => `${q.method} ${q.path.replace(/pi_[A-Za-z0-9]+/, "{id}")}`)).toEqual(["POST /v1/payment_intents", "POST /v1/payment_intents/{id}/cancel"]);
    expect(await h.db.select().from(payments).where(eq(payments.propertyId, hotel.propertyId))).toHaveLength(3);
    expect(await paymentsOf(taken.id)).toHaveLength(1);
  });

  it("is still to pay on a booking without a card, and on one whose card waits on 3-D Secure: nothing charged", async () => {
    const before = (await intents()).length;
    const bare = ok(await book(), 201);
    expect(bare.deposit).toEqual({ amount: rate, currency: "USD" });
    expect(await paymentsOf(bare.id)).toHaveLength(0);
    const waiting = ok(await book(card("pm_card_authenticationRequired")), 201);
    expect(waiting.guarantee.status).toBe("requires_action");
    expect(waiting.deposit).toEqual({ amount: rate, currency: "USD" });
    expect(await paymentsOf(waiting.id)).toHaveLength(0);
    expect((await intents()).slice(before)).toHaveLength(0);
  });

  it("is asked on the plan's terms at booking: a plan without one asks none, and a later change leaves booked stays as they were", async () => {
    const asked = ok(await book(), 201);
    await setDeposit(null);
    const none = ok(await book(card("pm_card_visa")), 201);
    expect(none.deposit).toBeNull();
    expect(await paymentsOf(none.id)).toHaveLength(0);
    expect(ok(await h.get(`/v1/reservations/${asked.id}`, live)).deposit).toEqual({ amount: rate, currency: "USD" });
  });

  it("held by a process that died before the booking was written is let go by the reconciliation, never recorded", async () => {
    await setDeposit({ type: "fixed", amount: 5_000 });
    const r = ok(await book(card("pm_card_visa")), 201);
    const [guarantee] = (await h.db.select({ g: reservations.guarantee }).from(reservations).where(eq(reservations.id, r.id))).map((row) => row.g!);
    const tenant = { accountId: h.main.account.id, livemode: true, propertyIds: null };
    const ghost = "res_" + randomBytes(12).toString("hex");
    const held = await holdDeposit(h.db, tenant, { propertyId: hotel.propertyId, reservationId: ghost, amount: 5_000, currency: "USD", guarantee });
    const changed = await reconcileCharges({ db: h.db, olderThanMs: 0 });
    expect(changed).toContainEqual(expect.objectContaining({ processorPaymentId: held.processorPaymentId, paymentId: null }));
    expect((await intents()).filter((q) => q.path === `/v1/payment_intents/${held.processorPaymentId}/cancel`)).toHaveLength(1);
    expect(await h.db.select().from(payments).where(eq(payments.processorPaymentId, held.processorPaymentId))).toHaveLength(0);
    // The next pass finds it cancelled: nothing more to do.
    expect((await reconcileCharges({ db: h.db, olderThanMs: 0 })).filter((c) => c.processorPaymentId === held.processorPaymentId)).toEqual([]);
  });
});
