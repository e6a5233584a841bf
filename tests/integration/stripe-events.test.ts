import { randomBytes } from "node:crypto";
import Stripe from "stripe";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events, payments, processorEvents, properties, refunds } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";
import { deliverStripeEvent, stripeEvent, stripeFixture } from "../support/stripe-events";

// Issue 37, point 4: Stripe's own events in. Each is signed as Stripe signs it
// (stripe.webhooks.generateTestHeaderString) over Stripe's own fixture objects, as stripe-mock
// answers them, with the fields of the state the test plays; the endpoint verifies it with
// constructEvent over the raw body and applies it once. The amounts expected are the issue's: a
// dispute takes the disputed amount back, so the folio owes it again, on the business date the
// dispute arrives; a refund made in Stripe is a refund on the folio that day.

let h: Harness;
const live: Caller = { token: "" };
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let std: RoomTypeSetup;
let processorId: string;
const stripeKey = `sk_test_${randomBytes(18).toString("hex")}`;
const signingSecret = `whsec_${randomBytes(24).toString("hex")}`;

const fixture = stripeFixture;
const deliver = (event: object, secret = signingSecret, id = processorId) => deliverStripeEvent(h.baseUrl, id, event as Record<string, unknown>, secret);

let night = 0;
/** A future stay paid in full by card through Stripe: its payment as the API answers it. */
async function paidStay(capture = true) {
  const from = addDays(hotel.today, 10 + night++);
  const setup = { propertyId: hotel.propertyId, roomTypeId: std.roomTypeId, ratePlanId: std.ratePlanId };
  const stay = ok(await h.post("/v1/reservations", bookingBody(setup, from, addDays(from, 1)), live), 201);
  const payment = ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: { type: "card", processor_payment_method: "pm_card_visa" }, capture }, live), 201);
  return { stay, payment };
}

const folioOf = async (reservationId: string) => ok(await h.get(`/v1/reservations/${reservationId}/folio`, live));
const businessDate = async () => (await h.db.select().from(properties).where(eq(properties.id, hotel.propertyId)))[0].businessDate as IsoDate;
const eventsAbout = async (type: string, paymentId: string) =>
  (await h.db.select().from(events).where(and(eq(events.accountId, h.main.account.id), eq(events.type, type)))).filter((e) => (e.object as { id: string }).id === paymentId);
const revenue = async (from: IsoDate, to: IsoDate) =>
  ok(await h.get(`/v1/reports/revenue?property_id=${hotel.propertyId}&from=${from}&to=${to}`, live)).data as { date: string; payments: number; refunds: number }[];

async function disputeOf(paymentIntent: string, fields: { id: string; amount: number; status: string; reason?: string }) {
  return { ...(await fixture("/v1/disputes/dp_fixture")), payment_intent: paymentIntent, currency: "usd", ...fields };
}

beforeAll(async () => {
  h = await startHarness();
  live.token = h.main.token;
  hotel = await liveHotel(h, h.main.account.id);
  std = await buildRoomType(h, live, hotel.propertyId, hotel.today, { rooms: 10, amount: 10_000, days: 120 });
  processorId = ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: stripeKey, webhook_secret: signingSecret }, live), 201).id;
});
afterAll(async () => h?.close());

describe("verification", () => {
  it("refuses an event whose signature does not verify (400 on Stripe-Signature) and changes nothing", async () => {
    const { payment } = await paidStay();
    const event = await stripeEvent("charge.dispute.created", await disputeOf(payment.processor.payment_id, { id: "dp_forged", amount: 10_000, status: "needs_response" }));
    const forged = await deliver(event, `whsec_${randomBytes(24).toString("hex")}`);
    expect(forged.status).toBe(400);
    expect(forged.json.error).toMatchObject({ type: "invalid_request_error", code: "parameter_invalid", param: "Stripe-Signature", request_id: expect.stringMatching(/^req_/) });
    // The signature covers the raw body: the same signature over a changed body fails too.
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: signingSecret });
    const altered = await fetch(`${h.baseUrl}/stripe/webhooks/${processorId}`, { method: "POST", headers: { "stripe-signature": signature }, body: payload.replace("10000", "1") });
    expect(altered.status).toBe(400);
    const unsigned = await fetch(`${h.baseUrl}/stripe/webhooks/${processorId}`, { method: "POST", body: payload });
    expect(unsigned.status).toBe(400);
    expect(await h.db.select().from(processorEvents).where(eq(processorEvents.eventId, event.id as string))).toEqual([]);
    expect((await folioOf(payment.reservation_id)).balance.amount).toBe(0);
    expect(ok(await h.get(`/v1/payments/${payment.id}`, live)).dispute).toBeNull();
  });

  it("answers 404 for a connection that does not exist, 405 for another method", async () => {
    const event = await stripeEvent("customer.created", await fixture("/v1/customers/cus_fixture"));
    expect((await deliver(event, signingSecret, "ppr_nonexistent")).status).toBe(404);
    expect((await fetch(`${h.baseUrl}/stripe/webhooks/${processorId}`)).status).toBe(405);
  });

  it("takes a type it does not act on with 200, recorded as ignored; a redelivery is a duplicate", async () => {
    const event = await stripeEvent("customer.created", await fixture("/v1/customers/cus_fixture"));
    const first = await deliver(event);
    expect(first).toMatchObject({ status: 200, json: { received: true, duplicate: false, outcome: "ignored" } });
    expect((await deliver(event)).json).toMatchObject({ duplicate: true });
    const rows = await h.db.select().from(processorEvents).where(eq(processorEvents.eventId, event.id as string));
    expect(rows).toMatchObject([{ processorId, type: "customer.created", outcome: "ignored", livemode: true }]);
  });
});

describe("a dispute", () => {
  it("takes the disputed amount back on the business date it arrives, never in the payment's closed day, and emits payment.disputed once", async () => {
    const { stay, payment } = await paidStay();
    const paidOn = await businessDate().then((d) => d ?? hotel.today);
    expect((await folioOf(stay.id)).balance.amount).toBe(0);
    // The payment's day closes before the dispute arrives.
    await runNightAudit({ db: h.db, propertyId: hotel.propertyId, trigger: "scheduled", date: paidOn });
    const today = await businessDate();
    expect(today).toBe(addDays(paidOn, 1));

    // Other tests' payments share these days: the report is read before and after.
    const [paidDay, todayBefore] = await revenue(paidOn, addDays(paidOn, 2));
    const dispute = await disputeOf(payment.processor.payment_id, { id: `dp_${randomBytes(8).toString("hex")}`, amount: payment.amount.amount, reason: "fraudulent", status: "needs_response" });
    const event = await stripeEvent("charge.dispute.created", dispute);
    expect((await deliver(event)).json).toMatchObject({ received: true, duplicate: false, outcome: "applied", payment_id: payment.id });
    // Redelivered, as Stripe retries: nothing more.
    expect((await deliver(event)).json).toMatchObject({ duplicate: true });

    const after = ok(await h.get(`/v1/payments/${payment.id}`, live));
    expect(after).toMatchObject({ status: "succeeded", dispute: { id: dispute.id, status: "needs_response", reason: "fraudulent", amount: payment.amount, reinstates_payment_id: null } });
    const folio = await folioOf(stay.id);
    expect(folio.balance.amount).toBe(payment.amount.amount);
    expect(folio.refunds).toMatchObject([{ payment_id: payment.id, amount: payment.amount, dispute_id: dispute.id }]);
    const [withdrawal] = await h.db.select().from(refunds).where(eq(refunds.disputeId, dispute.id));
    expect(withdrawal.businessDate).toBe(today);
    // The reports: the payment stays in its closed day, the money taken back counts today.
    expect(paidDay.payments).toBeGreaterThanOrEqual(payment.amount.amount);
    expect(await revenue(paidOn, addDays(paidOn, 2))).toMatchObject([
      { date: paidOn, payments: paidDay.payments, refunds: paidDay.refunds },
      { date: today, payments: todayBefore.payments, refunds: todayBefore.refunds + payment.amount.amount },
    ]);
    const disputed = await eventsAbout("payment.disputed", payment.id);
    expect(disputed).toHaveLength(1);
    expect(disputed[0].object).toMatchObject({ id: payment.id, dispute: { id: dispute.id, status: "needs_response" } });
    // Stripe refuses to refund a disputed charge, and so does Innkeep.
    expect((await h.post("/v1/refunds", { payment_id: payment.id }, live)).status).toBe(409);

    // Lost: the money stays with the cardholder; the dispute's end is told, no money moves.
    const lost = await stripeEvent("charge.dispute.closed", { ...dispute, status: "lost" });
    expect((await deliver(lost)).json).toMatchObject({ outcome: "applied" });
    expect(ok(await h.get(`/v1/payments/${payment.id}`, live)).dispute.status).toBe("lost");
    expect((await folioOf(stay.id)).balance.amount).toBe(payment.amount.amount);
    expect(await eventsAbout("payment.dispute_closed", payment.id)).toHaveLength(1);
    expect(await h.db.select().from(refunds).where(eq(refunds.disputeId, dispute.id))).toHaveLength(1);
  });

  it("won: the money comes back as a payment of the day it is won, and the folio is settled again", async () => {
    const { stay, payment } = await paidStay();
    const dispute = await disputeOf(payment.processor.payment_id, { id: `dp_${randomBytes(8).toString("hex")}`, amount: payment.amount.amount, reason: "product_not_received", status: "needs_response" });
    await deliver(await stripeEvent("charge.dispute.created", dispute));
    expect((await folioOf(stay.id)).balance.amount).toBe(payment.amount.amount);
    const won = await stripeEvent("charge.dispute.closed", { ...dispute, status: "won" });
    expect((await deliver(won)).json).toMatchObject({ outcome: "applied" });
    expect((await deliver(won)).json).toMatchObject({ duplicate: true });
    const folio = await folioOf(stay.id);
    expect(folio.balance.amount).toBe(0);
    const reinstated = folio.payments.find((p: { id: string }) => p.id !== payment.id);
    expect(reinstated).toMatchObject({ status: "succeeded", amount: payment.amount, dispute: { id: dispute.id, status: "won", reinstates_payment_id: payment.id } });
    expect(ok(await h.get(`/v1/payments/${payment.id}`, live)).dispute.status).toBe("won");
    expect(await eventsAbout("payment.dispute_closed", payment.id)).toHaveLength(1);
  });

  it("an inquiry (warning_needs_response) moves no money but is told", async () => {
    const { stay, payment } = await paidStay();
    const inquiry = await disputeOf(payment.processor.payment_id, { id: `dp_${randomBytes(8).toString("hex")}`, amount: payment.amount.amount, status: "warning_needs_response" });
    expect((await deliver(await stripeEvent("charge.dispute.created", inquiry))).json).toMatchObject({ outcome: "applied" });
    expect((await folioOf(stay.id)).balance.amount).toBe(0);
    expect(await eventsAbout("payment.disputed", payment.id)).toHaveLength(1);
  });
});

describe("a dispute as it moves on at Stripe", () => {
  it("an inquiry escalated (funds_withdrawn) takes the money then and says so; a status between is kept quietly; funds_reinstated gives it back", async () => {
    const { stay, payment } = await paidStay();
    const id = `dp_${randomBytes(8).toString("hex")}`;
    const inquiry = await disputeOf(payment.processor.payment_id, { id, amount: payment.amount.amount, reason: "fraudulent", status: "warning_needs_response" });
    await deliver(await stripeEvent("charge.dispute.created", inquiry));
    expect((await folioOf(stay.id)).balance.amount).toBe(0);
    expect(await eventsAbout("payment.disputed", payment.id)).toHaveLength(1);

    // The bank escalates it: the money is taken back now, once, and told.
    const withdrawn = await stripeEvent("charge.dispute.funds_withdrawn", { ...inquiry, status: "needs_response" });
    expect((await deliver(withdrawn)).json).toMatchObject({ duplicate: false, outcome: "applied", payment_id: payment.id });
    expect((await folioOf(stay.id)).balance.amount).toBe(payment.amount.amount);
    const told = await eventsAbout("payment.disputed", payment.id);
    expect(told).toHaveLength(2);
    expect(told[1].object).toMatchObject({ dispute: { id, status: "needs_response" } });
    // Stripe's created event for the same dispute, arriving late, takes nothing more.
    await deliver(await stripeEvent("charge.dispute.updated", { ...inquiry, status: "needs_response" }));
    expect(await h.db.select().from(refunds).where(eq(refunds.disputeId, id))).toHaveLength(1);

    // Evidence sent: under review. Kept on the payment; no event, no money.
    expect((await deliver(await stripeEvent("charge.dispute.updated", { ...inquiry, status: "under_review" }))).json).toMatchObject({ outcome: "applied" });
    expect(ok(await h.get(`/v1/payments/${payment.id}`, live)).dispute.status).toBe("under_review");
    expect(await eventsAbout("payment.disputed", payment.id)).toHaveLength(2);
    expect((await folioOf(stay.id)).balance.amount).toBe(payment.amount.amount);

    // Won: Stripe reinstates the funds; the money comes back once, whichever of its two events comes first.
    expect((await deliver(await stripeEvent("charge.dispute.funds_reinstated", { ...inquiry, status: "won" }))).json).toMatchObject({ outcome: "applied" });
    await deliver(await stripeEvent("charge.dispute.closed", { ...inquiry, status: "won" }));
    const folio = await folioOf(stay.id);
    expect(folio.balance.amount).toBe(0);
    expect(folio.payments.filter((p: { dispute: { reinstates_payment_id: string | null } | null }) => p.dispute?.reinstates_payment_id === payment.id)).toHaveLength(1);
    expect(await eventsAbout("payment.dispute_closed", payment.id)).toHaveLength(1);
  });
});

describe("charges and refunds as Stripe tells them", () => {
  it("a refund made in Stripe's dashboard is a refund on the folio, on the business date, once", async () => {
    const { stay, payment } = await paidStay();
    const refundId = `re_${randomBytes(10).toString("hex")}`;
    const base = await fixture("/v1/charges/ch_fixture");
    const charge = {
      ...base,
      payment_intent: payment.processor.payment_id,
      amount: payment.amount.amount,
      amount_refunded: 3_000,
      refunded: false,
      currency: "usd",
      refunds: { ...base.refunds, data: [{ ...base.refunds.data[0], id: refundId, amount: 3_000 }] },
    };
    const event = await stripeEvent("charge.refunded", charge);
    expect((await deliver(event)).json).toMatchObject({ outcome: "applied", payment_id: payment.id });
    expect((await deliver(event)).json).toMatchObject({ duplicate: true });
    // Another event telling the same refunded total changes nothing either.
    expect((await deliver(await stripeEvent("charge.refunded", charge))).json).toMatchObject({ outcome: "ignored" });
    const after = ok(await h.get(`/v1/payments/${payment.id}`, live));
    expect(after).toMatchObject({ status: "partially_refunded", amount_refunded: { amount: 3_000 } });
    const rows = await h.db.select().from(refunds).where(eq(refunds.paymentId, payment.id));
    expect(rows).toMatchObject([{ amount: 3_000, processorRefundId: refundId, businessDate: (await businessDate()) ?? hotel.today, disputeId: null }]);
    expect((await folioOf(stay.id)).balance.amount).toBe(3_000);
    expect(await eventsAbout("payment.refunded", payment.id)).toHaveLength(1);
  });

  it("an authorization captured in Stripe becomes a captured payment (payment_intent.succeeded)", async () => {
    const { payment } = await paidStay(false);
    expect(payment.status).toBe("authorized");
    const intent = { ...(await fixture(`/v1/payment_intents/${payment.processor.payment_id}`)), id: payment.processor.payment_id, status: "succeeded", amount: payment.amount.amount, amount_received: payment.amount.amount, currency: "usd" };
    expect((await deliver(await stripeEvent("payment_intent.succeeded", intent))).json).toMatchObject({ outcome: "applied" });
    expect(ok(await h.get(`/v1/payments/${payment.id}`, live))).toMatchObject({ status: "succeeded", captured: true });
    expect(await eventsAbout("payment.succeeded", payment.id)).toHaveLength(1);
  });

  it("a charge Innkeep never recorded (its answer lost) is recorded from the ids it carries, once; a failed one records nothing", async () => {
    const from = addDays(hotel.today, 60);
    const stay = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: std.roomTypeId, ratePlanId: std.ratePlanId }, from, addDays(from, 1)), live), 201);
    const lost = {
      ...(await fixture("/v1/payment_intents/pi_fixture")),
      id: `pi_${randomBytes(10).toString("hex")}`,
      status: "succeeded",
      amount: 10_000,
      amount_received: 10_000,
      currency: "usd",
      payment_method: "pm_card_visa",
      last_payment_error: null,
      metadata: { innkeep_payment_id: "pay_lostAnswer0000000000000000", innkeep_reservation_id: stay.id, innkeep_account_id: h.main.account.id, innkeep_environment: "live" },
    };
    const event = await stripeEvent("payment_intent.succeeded", lost);
    expect((await deliver(event)).json).toMatchObject({ outcome: "applied", payment_id: "pay_lostAnswer0000000000000000" });
    expect((await deliver(await stripeEvent("payment_intent.succeeded", lost))).json).toMatchObject({ outcome: "ignored" });
    const recorded = await h.db.select().from(payments).where(eq(payments.reservationId, stay.id));
    expect(recorded).toMatchObject([{ id: "pay_lostAnswer0000000000000000", status: "succeeded", amount: 10_000, processorPaymentId: lost.id, cardLast4: "4242" }]);
    const failed = { ...lost, id: `pi_${randomBytes(10).toString("hex")}`, status: "requires_payment_method", last_payment_error: { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } };
    expect((await deliver(await stripeEvent("payment_intent.payment_failed", failed))).json).toMatchObject({ outcome: "ignored" });
    expect(await h.db.select().from(payments).where(eq(payments.reservationId, stay.id))).toHaveLength(1);
  });
});
