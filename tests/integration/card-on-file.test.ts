import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, payments, reservations } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { auditDueAt } from "@/server/properties/business-date";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { auditHotel, bookingBody, eventsFor, ok, type Caller } from "../support/hotel";
import { deliverStripeEvent, stripeEvent, stripeFixture } from "../support/stripe-events";
import { stripeRequests } from "../support/stripe-states";
import { createUser } from "@/server/auth/users";
import { RateLimiter } from "@/server/http/rate-limit";
import { createCaller } from "@/server/trpc/routers/_app";

// Issue #37, point 3: a card on file as a booking's guarantee (a Stripe customer and a SetupIntent
// for off-session use), a pre-authorisation at check-in charged to it, captured at check-out and
// refunded in part, and the night audit's no-show fee charged to it without the guest. Every
// request reaches stripe-mock, which validates it against Stripe's published API; the relay in
// front of it (tests/support/stripe-states.ts) plays the states stripe-mock cannot: a setup that
// succeeds or waits on 3-D Secure, a saved card declined when charged, a charge refused
// off-session for want of the guest's authentication.

let h: Harness;
const live: Caller = { token: "" };
let hotel: Awaited<ReturnType<typeof auditHotel>>;
/** This file's own Stripe test key, so the relay's log holds only this file's requests. */
const key = `sk_test_${randomBytes(18).toString("hex")}`;
const webhookSecret = `whsec_${randomBytes(18).toString("hex")}`;
let processorId: string;

let night = 0;
/** A one-night booking of its own dates (from 3 days ahead), or on `from`. */
const book = (extra: Record<string, unknown> = {}, from?: IsoDate, caller: Caller = live) => {
  const start = from ?? addDays(hotel.today, 3 + night++);
  const setup = { propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId };
  return h.post("/v1/reservations", bookingBody(setup, start, addDays(start, 1), extra), caller);
};
const guarantee = (pm: string) => ({ guarantee: { type: "card", processor_payment_method: pm } });
const reservationCount = async () =>
  Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(reservations).where(eq(reservations.propertyId, hotel.propertyId)))[0].n);
const paymentsOf = (reservationId: string) => h.db.select().from(payments).where(eq(payments.reservationId, reservationId));
const posts = async (path: string) => (await stripeRequests(key)).filter((r) => r.method === "POST" && r.path === path);
const trailOf = (objectId: string) => h.db.select().from(auditLog).where(and(eq(auditLog.accountId, h.main.account.id), eq(auditLog.objectId, objectId)));
const afterAudit = (date: IsoDate) => new Date(auditDueAt(date, { timezone: hotel.timezone, auditHour: 3 }).getTime() + 60_000);

beforeAll(async () => {
  h = await startHarness();
  live.token = h.main.token;
  hotel = await auditHotel(h, live, { rooms: 8, days: 30 });
});
afterAll(async () => h?.close());

describe("a card on file without a processor", () => {
  it("is refused with a clear 422 and books nothing", async () => {
    const before = await reservationCount();
    const error = expectError(await book(guarantee("pm_card_visa")), 422, "parameter_invalid", "guarantee.processor_payment_method");
    expect(error.message).toMatch(/none is connected.*Settings/);
    expect(await reservationCount()).toBe(before);
  });
});

describe("a card on file as a booking's guarantee", () => {
  beforeAll(async () => {
    processorId = ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: key, webhook_secret: webhookSecret }, live), 201).id;
  });

  it("saves the card at Stripe for off-session use and shows brand and last four only", async () => {
    const res = await book(guarantee("pm_card_visa"));
    const r = ok(res, 201);
    expect(r.guarantee).toEqual({
      type: "card",
      status: "active",
      card: { brand: "visa", last4: "4242", exp_month: expect.any(Number), exp_year: expect.any(Number) },
      next_action: null,
      created_at: expect.any(String),
    });
    // A customer, then a confirmed setup of the card to it, for payments without the guest.
    const [customer] = await posts("/v1/customers");
    expect(customer.status).toBe(200);
    const [setup] = await posts("/v1/setup_intents");
    expect(setup).toMatchObject({ status: 200, params: { payment_method: "pm_card_visa", usage: "off_session", confirm: "true", "allowed_payment_method_types[0]": "card" } });
    expect(setup.params.customer).toMatch(/^cus_/);
    expect(setup.idempotencyKey).toMatch(/^innkeep-guarantee-[0-9a-f]{48}-setup$/);
    // The booking's event carries the guarantee as the API shows it.
    const [created] = await eventsFor(h, h.main.account.id, "reservation.created", (o) => o.id === r.id);
    expect((created.object as { guarantee: unknown }).guarantee).toEqual(r.guarantee);
    expect(JSON.stringify(r)).not.toMatch(/cus_|seti_|pm_card/);
  });

  it("refuses a card the bank declines (402, in Stripe's words) and books nothing", async () => {
    const before = await reservationCount();
    const error = expectError(await book(guarantee("pm_card_chargeDeclined")), 402, "card_declined", "guarantee.processor_payment_method");
    expect(error.message).toMatch(/declined.*not on file/);
    expect(await reservationCount()).toBe(before);
  });

  it("refuses a card number, in live mode as anywhere: the guarantee takes only Stripe's payment method", async () => {
    const before = await reservationCount();
    const res = await book({ guarantee: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2031, cvc: "123" } });
    expectError(res, 422, "parameter_missing", "guarantee.processor_payment_method");
    expect(res.json.error.errors.map((e: { code: string; param: string }) => `${e.code} ${e.param}`)).toContain("parameter_unknown guarantee.number");
    expect(res.text).not.toContain("4242424242424242");
    expectError(await book({ guarantee: { type: "card", processor_payment_method: "4242424242424242" } }), 422, "parameter_invalid", "guarantee.processor_payment_method");
    expect(await reservationCount()).toBe(before);
  });

  it("keeps a card whose bank asks for 3-D Secure as requires_action, with what Stripe.js completes it with, and charges nothing to it", async () => {
    const r = ok(await book(guarantee("pm_card_authenticationRequired")), 201);
    expect(r.guarantee).toMatchObject({ status: "requires_action", next_action: { type: "use_stripe_sdk", client_secret: expect.stringMatching(/^seti_.+_secret_/) } });
    const res = await h.post("/v1/payments", { reservation_id: r.id, payment_method: { type: "card_on_file" }, capture: false }, live);
    expect(expectError(res, 409, "invalid_state_transition", "payment_method.type").message).toMatch(/authentication/);
    expect(await paymentsOf(r.id)).toHaveLength(0);
    // The guest authenticates it with Stripe.js; Stripe's signed setup_intent.succeeded makes it chargeable, once.
    const setup = { ...(await stripeFixture("/v1/setup_intents/seti_fixture")), id: r.guarantee.next_action.client_secret.split("_secret_")[0], status: "succeeded" };
    const event = await stripeEvent("setup_intent.succeeded", setup);
    expect(await deliverStripeEvent(h.baseUrl, processorId, event, webhookSecret)).toMatchObject({ status: 200, json: { duplicate: false, outcome: "applied" } });
    expect(await deliverStripeEvent(h.baseUrl, processorId, event, webhookSecret)).toMatchObject({ status: 200, json: { duplicate: true } });
    const confirmed = ok(await h.get(`/v1/reservations/${r.id}`, live));
    expect(confirmed.guarantee).toMatchObject({ status: "active", next_action: null });
    expect(await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id)).toHaveLength(1);
  });

  it("puts a card on file after booking, on the trail and in reservation.updated; not for a stay that is over", async () => {
    const r = ok(await book(), 201);
    expect(r.guarantee).toBeNull();
    expect(expectError(await h.post("/v1/payments", { reservation_id: r.id, payment_method: { type: "card_on_file" } }, live), 409, "invalid_state_transition").message).toMatch(
      /no card on file/,
    );
    const updated = ok(await h.post(`/v1/reservations/${r.id}/guarantee`, { processor_payment_method: "pm_card_mastercard" }, live));
    expect(updated.guarantee).toMatchObject({ status: "active", card: { last4: expect.any(String) } });
    const [event] = await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id);
    expect((event.object as { guarantee: { status: string } }).guarantee.status).toBe("active");
    expect((await trailOf(r.id)).map((e) => e.action)).toContain("reservation.guaranteed");
    // A declined replacement keeps the card that was on file.
    expectError(await h.post(`/v1/reservations/${r.id}/guarantee`, { processor_payment_method: "pm_card_chargeDeclined" }, live), 402, "card_declined", "processor_payment_method");
    expect(ok(await h.get(`/v1/reservations/${r.id}`, live)).guarantee).toEqual(updated.guarantee);
    ok(await h.post(`/v1/reservations/${r.id}/cancel`, {}, live));
    expectError(await h.post(`/v1/reservations/${r.id}/guarantee`, { processor_payment_method: "pm_card_visa" }, live), 409, "invalid_state_transition");
    expectError(await h.post(`/v1/reservations/${r.id}/guarantee`, { processor_payment_method: "pm_card_visa", number: "4242424242424242" }, live), 422, "parameter_unknown");
  });
});

describe("a stay paid by its card on file", () => {
  it("is pre-authorised at check-in, captured at check-out and refunded a night later: the folio, the report and the events agree", async () => {
    const stay = await auditHotel(h, live, { rooms: 2, days: 10 });
    const T = stay.today;
    const body = bookingBody({ propertyId: stay.propertyId, roomTypeId: stay.type.roomTypeId, ratePlanId: stay.type.ratePlanId }, T, addDays(T, 2), guarantee("pm_card_visa"));
    const r = ok(await h.post("/v1/reservations", body, live), 201);
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, live));
    // The pre-authorisation: the stay's total held on the card, off-session, to be captured by hand.
    const held = ok(await h.post("/v1/payments", { reservation_id: r.id, payment_method: { type: "card_on_file" }, capture: false }, live), 201);
    expect(held).toMatchObject({ status: "authorized", amount: r.total, payment_method: { type: "card", brand: "visa", last4: "4242" } });
    const intent = (await posts("/v1/payment_intents")).at(-1)!;
    expect(intent.params).toMatchObject({ off_session: "true", capture_method: "manual", payment_method: "pm_card_visa", confirm: "true", amount: String(r.total.amount) });
    expect(intent.params.customer).toMatch(/^cus_/);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).balance.amount).toBe(r.total.amount);
    // Two nights close; on the departure morning the hold is captured and the guest checks out.
    for (const date of [T, addDays(T, 1)]) await runNightAudit({ db: h.db, propertyId: stay.propertyId, trigger: "scheduled", now: afterAudit(date) });
    expect(ok(await h.post(`/v1/payments/${held.id}/capture`, {}, live)).status).toBe("succeeded");
    expect((await stripeRequests(key)).filter((q) => q.method === "POST" && q.path.endsWith("/capture"))).toHaveLength(1);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).balance.amount).toBe(0);
    expect(ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, live)).status).toBe("checked_out");
    // A night given back the day after: through Stripe, a credit note on the invoice, and in the report of the day it was made.
    const nightAmount = r.nightly[0].amount as number;
    const refund = ok(await h.post("/v1/refunds", { payment_id: held.id, amount: nightAmount, reason: "A night given back" }, live), 201);
    expect(refund).toMatchObject({ amount: { amount: nightAmount }, status: "succeeded" });
    expect((await posts("/v1/refunds")).at(-1)!.params).toMatchObject({ amount: String(nightAmount) });
    expect(ok(await h.get(`/v1/payments/${held.id}`, live)).status).toBe("partially_refunded");
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, live));
    expect(folio.balance.amount).toBe(0);
    expect(folio.credit_notes).toHaveLength(1);
    const note = ok(await h.get(`/v1/credit_notes/${folio.credit_notes[0].id}`, live));
    expect(note.totals.gross.amount).toBe(-nightAmount);
    const day = (date: IsoDate) => h.get(`/v1/reports/revenue?property_id=${stay.propertyId}&from=${date}&to=${addDays(date, 1)}`, live);
    expect(ok(await day(addDays(T, 2))).totals).toMatchObject({ payments: r.total.amount, refunds: nightAmount });
    expect(ok(await day(T)).totals).toMatchObject({ payments: 0, refunds: 0 });
    expect(ok(await day(addDays(T, 1))).totals).toMatchObject({ payments: 0, refunds: 0 });
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === held.id)).toHaveLength(1);
    expect(await eventsFor(h, h.main.account.id, "payment.refunded", (o) => o.id === held.id)).toHaveLength(1);
  });
});

describe("the desk's hold on the card on file (tRPC, as the dashboard calls it)", () => {
  it("a front-desk clerk holds the balance on the card at check-in, then captures it; another hold is released; housekeeping may do neither", async () => {
    const limiter = new RateLimiter();
    const caller = async (role: "front_desk" | "housekeeping") => {
      const user = await createUser({ db: h.db, input: { accountId: h.main.account.id, email: `${role}-hold@example.com`, password: "password-1", role } });
      const session = { user: { id: user.id, accountId: h.main.account.id, role, name: null, email: user.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
      return createCaller({ db: h.db, session, livemode: true, limiter });
    };
    const desk = await caller("front_desk");
    const housekeeping = await caller("housekeeping");
    const r = ok(await book(guarantee("pm_card_visa")), 201);
    const hold = await desk.payments.create({ reservation_id: r.id, payment_method: { type: "card_on_file" }, capture: false });
    expect(hold).toMatchObject({ status: "authorized", amount: r.total });
    await expect(housekeeping.payments.settle({ id: hold.id, to: "captured" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await desk.payments.settle({ id: hold.id, to: "captured" })).toMatchObject({ status: "succeeded" });
    await expect(desk.payments.settle({ id: hold.id, to: "voided" })).rejects.toThrow(/Only an authorized payment can be voided/);
    const second = await desk.payments.create({ reservation_id: r.id, amount: 500, payment_method: { type: "card_on_file" }, capture: false });
    expect(await desk.payments.settle({ id: second.id, to: "voided" })).toMatchObject({ status: "voided" });
    expect((await trailOf(r.id)).map((e) => e.action)).toEqual(expect.arrayContaining(["reservation.payment_captured", "reservation.payment_voided"]));
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).balance.amount).toBe(0);
  });
});

describe("a card payment whose bank asks for 3-D Secure", () => {
  it("is pending with what Stripe.js completes it with, moves no money, and is settled by Stripe's event", async () => {
    const r = ok(await book(), 201);
    const paid = ok(await h.post("/v1/payments", { reservation_id: r.id, payment_method: { type: "card", processor_payment_method: "pm_card_authenticationRequired" } }, live), 201);
    expect(paid).toMatchObject({ status: "pending", captured: false, next_action: { type: "use_stripe_sdk", client_secret: expect.stringMatching(/^pi_.+_secret_/) }, failure_code: null });
    // Nothing was cancelled at Stripe: the guest completes it.
    expect((await stripeRequests(key)).filter((q) => q.path === `/v1/payment_intents/${paid.processor.payment_id}/cancel`)).toHaveLength(0);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).balance.amount).toBe(r.total.amount);
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === paid.id)).toHaveLength(0);
    expectError(await h.post(`/v1/payments/${paid.id}/capture`, {}, live), 409, "invalid_state_transition");
    // The guest authenticates; Stripe tells Innkeep, signed.
    const intentId = paid.processor.payment_id as string;
    const intent = { ...(await stripeFixture(`/v1/payment_intents/${intentId}`)), id: intentId, status: "succeeded", amount: paid.amount.amount, amount_received: paid.amount.amount, currency: "usd", last_payment_error: null };
    expect(await deliverStripeEvent(h.baseUrl, processorId, await stripeEvent("payment_intent.succeeded", intent), webhookSecret)).toMatchObject({ status: 200, json: { outcome: "applied", payment_id: paid.id } });
    expect(ok(await h.get(`/v1/payments/${paid.id}`, live))).toMatchObject({ status: "succeeded", captured: true, next_action: null });
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).balance.amount).toBe(0);
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === paid.id)).toHaveLength(1);
  });

  it("abandoned by the guest, it fails with Stripe's event and the folio still owes it", async () => {
    const r = ok(await book(), 201);
    const paid = ok(await h.post("/v1/payments", { reservation_id: r.id, payment_method: { type: "card", processor_payment_method: "pm_card_threeDSecure2Required" } }, live), 201);
    const intentId = paid.processor.payment_id as string;
    const failed = {
      ...(await stripeFixture(`/v1/payment_intents/${intentId}`)),
      id: intentId,
      status: "requires_payment_method",
      currency: "usd",
      last_payment_error: { type: "card_error", code: "payment_intent_authentication_failure", message: "The guest did not complete the authentication." },
    };
    expect(await deliverStripeEvent(h.baseUrl, processorId, await stripeEvent("payment_intent.payment_failed", failed), webhookSecret)).toMatchObject({ status: 200, json: { outcome: "applied" } });
    expect(ok(await h.get(`/v1/payments/${paid.id}`, live))).toMatchObject({ status: "failed", failure_code: "card_declined", next_action: null });
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live)).balance.amount).toBe(r.total.amount);
    expect(await eventsFor(h, h.main.account.id, "payment.failed", (o) => o.id === paid.id)).toHaveLength(1);
  });
});

describe("a no-show's fee", () => {
  it("is charged off-session to the card on file by the night audit, once, as is a late cancellation's charge; a decline is recorded and told", async () => {
    const T = hotel.today;
    const paid = ok(await book(guarantee("pm_card_visa"), T), 201);
    const declined = ok(await book(guarantee("pm_card_chargeCustomerFail"), T), 201);
    const needsGuest = ok(await book(guarantee("pm_card_threeDSecure2Required"), T), 201);
    const withoutCard = ok(await book({}, T), 201);
    // Cancelled on its arrival day, inside the deadline: its night stays on the folio as the cancellation charge.
    const cancelled = ok(await book(guarantee("pm_card_visa"), T), 201);
    ok(await h.post(`/v1/reservations/${cancelled.id}/cancel`, { reason: "Plans changed" }, live));
    const kept = ok(await h.get(`/v1/reservations/${cancelled.id}/folio`, live)).balance.amount as number;
    expect(kept).toBe(cancelled.total.amount);
    const intentsBefore = (await posts("/v1/payment_intents")).length;
    const audit = await runNightAudit({ db: h.db, propertyId: hotel.propertyId, trigger: "scheduled", now: afterAudit(T) });
    expect(audit?.noShows).toEqual(expect.arrayContaining([paid.id, declined.id, withoutCard.id]));
    const fee = 5_000;

    const [charged] = await paymentsOf(paid.id);
    expect(charged).toMatchObject({ status: "succeeded", amount: fee, cardBrand: "visa", cardLast4: "4242" });
    expect(ok(await h.get(`/v1/reservations/${paid.id}/folio`, live)).balance.amount).toBe(0);
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === charged.id)).toHaveLength(1);

    const [failed] = await paymentsOf(declined.id);
    expect(failed).toMatchObject({ status: "failed", amount: fee, failureCode: "card_declined" });
    expect(ok(await h.get(`/v1/reservations/${declined.id}/folio`, live)).balance.amount).toBe(fee);
    expect(await eventsFor(h, h.main.account.id, "payment.failed", (o) => o.id === failed.id)).toHaveLength(1);

    // requires_action on file: never charged without the guest. Without a card: nothing to charge.
    expect(await paymentsOf(needsGuest.id)).toHaveLength(0);
    expect(await paymentsOf(withoutCard.id)).toHaveLength(0);

    const [charge] = await paymentsOf(cancelled.id);
    expect(charge).toMatchObject({ status: "succeeded", amount: kept });
    expect(ok(await h.get(`/v1/reservations/${cancelled.id}/folio`, live)).balance.amount).toBe(0);

    const intents = (await posts("/v1/payment_intents")).slice(intentsBefore);
    expect(intents.map((i) => i.params.amount).sort()).toEqual([String(kept), String(fee), String(fee)].sort());
    for (const intent of intents) expect(intent.params).toMatchObject({ off_session: "true", confirm: "true", capture_method: "automatic" });

    // The next day's audit charges nothing again, the declined fee included (the desk collects it).
    await runNightAudit({ db: h.db, propertyId: hotel.propertyId, trigger: "scheduled", now: afterAudit(addDays(T, 1)) });
    expect((await posts("/v1/payment_intents")).slice(intentsBefore)).toHaveLength(3);
    expect(await paymentsOf(declined.id)).toHaveLength(1);
    const receivables = ok(await h.get(`/v1/receivables?property_id=${hotel.propertyId}`, live)).data as { stay: { reservation_id: string }; amount: { amount: number } }[];
    expect(receivables.find((x) => x.stay.reservation_id === declined.id)?.amount.amount).toBe(fee);
    expect(receivables.find((x) => x.stay.reservation_id === paid.id)).toBeUndefined();
    // The payment taken by the audit, and the decline, are on the stays' trails, by the night audit.
    expect((await trailOf(paid.id)).find((e) => e.action === "reservation.payment_taken")?.actorType).toBe("night_audit");
    expect((await trailOf(declined.id)).find((e) => e.action === "reservation.payment_declined")?.actorType).toBe("night_audit");
  });
});
