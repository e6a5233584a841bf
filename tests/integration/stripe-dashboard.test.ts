import { randomBytes } from "node:crypto";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "@/lib/dates";
import { createUser, type StaffRole } from "@/server/auth/users";
import { ApiError } from "@/server/errors";
import { RateLimiter } from "@/server/http/rate-limit";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { auditHotel, bookingBody, eventsFor, ok, sandboxProperty, type Caller } from "../support/hotel";
import { deliverStripeEvent, stripeEvent, stripeFixture } from "../support/stripe-events";
import { stripeRequests } from "../support/stripe-states";

// Issue #37 in the dashboard: what its Payment Element needs from the server. The connection's
// publishable key (checked by shape and against the secret key's mode), the desk's card entry for
// a property, a card put on file through tRPC, and, after the desk's browser completed the guest's
// 3-D Secure with Stripe.js, the payment or the card on file settled to what Stripe holds now, by
// the same code as Stripe's events and idempotent with them. Stripe is stripe-mock behind the
// test relay (tests/support/stripe-states.ts); the guest's answer to their bank is the relay's
// POST /__innkeep/authenticate, which is what the browser stand-in of Stripe.js calls in e2e.

let h: Harness;
const live: Caller = { token: "" };
let hotel: Awaited<ReturnType<typeof auditHotel>>;
const key = `sk_test_${randomBytes(18).toString("hex")}`;
const publishableKey = `pk_test_${randomBytes(18).toString("hex")}`;
const webhookSecret = `whsec_${randomBytes(18).toString("hex")}`;
let processorId: string;
const limiter = new RateLimiter();
/** The desk as the dashboard calls it: tRPC with a staff session of `role`, in the live data set unless told. */
async function as(role: StaffRole, { accountId = h.main.account.id, livemode = true } = {}) {
  const user = await createUser({ db: h.db, input: { accountId, email: `${role}-${randomBytes(4).toString("hex")}@example.com`, password: "password-1", role } });
  const session = { user: { id: user.id, accountId, role, name: null, email: user.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
  return createCaller({ db: h.db, session, livemode, limiter });
}

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

let night = 0;
const book = async (extra: Record<string, unknown> = {}) => {
  const start = addDays(hotel.today, 3 + night++);
  const setup = { propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId };
  return ok(await h.post("/v1/reservations", bookingBody(setup, start, addDays(start, 1), extra), live), 201) as { id: string; total: { amount: number } };
};

/** What the guest does with their bank's check in the browser, as Stripe records it (the relay). */
async function guest(clientSecret: string, outcome: "authenticated" | "failed" | "declined") {
  const res = await fetch(`${process.env.STRIPE_API_URL}/__innkeep/authenticate`, { method: "POST", body: new URLSearchParams({ client_secret: clientSecret, outcome }) });
  expect(res.status).toBe(200);
}
const retrievals = async (path: string) => (await stripeRequests(key)).filter((r) => r.method === "GET" && r.path === path).length;
const folioBalance = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, live)).balance.amount as number;

beforeAll(async () => {
  h = await startHarness();
  live.token = h.main.token;
  hotel = await auditHotel(h, live, { rooms: 8, days: 40 });
});
afterAll(async () => h?.close());

describe("the connection's publishable key", () => {
  it("is refused by shape, and when its mode is not the secret key's, naming the field and changing nothing", async () => {
    const connect = (body: Record<string, unknown>) => h.post("/v1/payment_processors", { type: "stripe", secret_key: key, ...body }, live);
    expectError(await connect({ publishable_key: "sk_test_abcdefghijkl" }), 422, "parameter_invalid", "publishable_key");
    expectError(await connect({ publishable_key: "pk_test_" }), 422, "parameter_invalid", "publishable_key");
    expectError(await connect({ publishable_key: 42 }), 422, "parameter_invalid", "publishable_key");
    expectError(await connect({ publishable_key: "" }), 422, "parameter_invalid", "publishable_key");
    const mismatch = expectError(await connect({ publishable_key: `pk_live_${randomBytes(12).toString("hex")}` }), 422, "parameter_invalid", "publishable_key");
    expect(mismatch.message).toMatch(/live key.*test one/);
    expect(ok(await h.get("/v1/payment_processors", live)).data).toEqual([]);
  });

  it("is kept as given and shown (it is public), beside the secret key's hint only", async () => {
    const connected = ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: key, publishable_key: publishableKey, webhook_secret: webhookSecret }, live), 201);
    processorId = connected.id;
    expect(connected).toMatchObject({ mode: "test", publishable_key: publishableKey, secret_key_hint: `sk_test_…${key.slice(-4)}` });
    expect(JSON.stringify(connected)).not.toContain(key);
    expect(ok(await h.get("/v1/payment_processors", live)).data[0].publishable_key).toBe(publishableKey);
  });
});

describe("the desk's card entry (tRPC)", () => {
  it("tells who takes payments which processor takes the property's cards and its publishable key; never to housekeeping", async () => {
    for (const role of ["owner", "manager", "front_desk"] as const) {
      expect(await (await as(role)).processors.cardEntry({ property_id: hotel.propertyId })).toEqual({ processor: "stripe", mode: "test", publishable_key: publishableKey });
    }
    expect((await failure((await as("housekeeping")).processors.cardEntry({ property_id: hotel.propertyId }))).code).toBe("FORBIDDEN");
  });

  it("is null where no processor is connected (the sandbox's test numbers), and another account's property is not found", async () => {
    const sandboxHotel = await sandboxProperty(h, h.main.token);
    expect(await (await as("front_desk", { livemode: false })).processors.cardEntry({ property_id: sandboxHotel.id })).toBeNull();
    const other = await h.newAccount("Elsewhere Hotels");
    const stranger = await as("owner", { accountId: other.account.id });
    expect(await failure(stranger.processors.cardEntry({ property_id: hotel.propertyId }))).toMatchObject({ code: "NOT_FOUND", api: { code: "resource_missing", param: "property_id" } });
    // The live hotel's own property, asked from the sandbox: not in that data set.
    expect((await failure((await as("front_desk", { livemode: false })).processors.cardEntry({ property_id: hotel.propertyId }))).code).toBe("NOT_FOUND");
  });
});

describe("a payment whose bank asks for 3-D Secure, completed at the desk", () => {
  let desk: ReturnType<typeof createCaller>;
  beforeAll(async () => {
    desk = await as("front_desk");
  });
  const takeCard = (reservationId: string, pm: string, capture = true) =>
    desk.payments.create({ reservation_id: reservationId, payment_method: { type: "card", processor_payment_method: pm }, capture });

  it("authenticated by the guest, is paid at once by the refresh; Stripe's event after it changes nothing", async () => {
    const r = await book();
    const pending = await takeCard(r.id, "pm_card_authenticationRequired");
    expect(pending).toMatchObject({ status: "pending", next_action: { type: "use_stripe_sdk", client_secret: expect.stringMatching(/^pi_.+_secret_/) } });
    // Not yet answered by the guest: still pending, with what Stripe.js completes it with.
    expect(await desk.payments.refresh({ id: pending.id })).toMatchObject({ status: "pending", next_action: pending.next_action });
    await guest(pending.next_action!.client_secret, "authenticated");
    const paid = await desk.payments.refresh({ id: pending.id });
    expect(paid).toMatchObject({ status: "succeeded", captured: true, next_action: null, amount: r.total });
    expect(await folioBalance(r.id)).toBe(0);
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === pending.id)).toHaveLength(1);
    // Stripe's own event arrives afterwards, signed: recorded, nothing changed, no second event.
    const intentId = pending.processor!.payment_id!;
    const intent = { ...(await stripeFixture(`/v1/payment_intents/${intentId}`)), id: intentId, status: "succeeded", amount: r.total.amount, amount_received: r.total.amount, currency: "usd", last_payment_error: null };
    expect(await deliverStripeEvent(h.baseUrl, processorId, await stripeEvent("payment_intent.succeeded", intent), webhookSecret)).toMatchObject({
      status: 200,
      json: { duplicate: false, outcome: "ignored" },
    });
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === pending.id)).toHaveLength(1);
    // A refresh again asks Stripe nothing: the payment is settled.
    const asked = await retrievals(`/v1/payment_intents/${intentId}`);
    expect(await desk.payments.refresh({ id: pending.id })).toMatchObject({ status: "succeeded" });
    expect(await retrievals(`/v1/payment_intents/${intentId}`)).toBe(asked);
  });

  it("settled first by Stripe's event, the refresh finds it settled and changes nothing", async () => {
    const r = await book();
    const pending = await takeCard(r.id, "pm_card_threeDSecure2Required");
    await guest(pending.next_action!.client_secret, "authenticated");
    const intentId = pending.processor!.payment_id!;
    const intent = { ...(await stripeFixture(`/v1/payment_intents/${intentId}`)), id: intentId, status: "succeeded", amount: r.total.amount, amount_received: r.total.amount, currency: "usd", last_payment_error: null };
    expect(await deliverStripeEvent(h.baseUrl, processorId, await stripeEvent("payment_intent.succeeded", intent), webhookSecret)).toMatchObject({ json: { outcome: "applied" } });
    expect(await desk.payments.refresh({ id: pending.id })).toMatchObject({ status: "succeeded" });
    expect(await retrievals(`/v1/payment_intents/${intentId}`)).toBe(0);
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === pending.id)).toHaveLength(1);
  });

  it("a hold (capture false) the guest authenticated becomes an authorization, captured later", async () => {
    const r = await book();
    const pending = await takeCard(r.id, "pm_card_authenticationRequired", false);
    expect(pending.status).toBe("pending");
    await guest(pending.next_action!.client_secret, "authenticated");
    expect(await desk.payments.refresh({ id: pending.id })).toMatchObject({ status: "authorized", captured: false, next_action: null });
    expect(await eventsFor(h, h.main.account.id, "payment.succeeded", (o) => o.id === pending.id)).toHaveLength(0);
    expect(await desk.payments.settle({ id: pending.id, to: "captured" })).toMatchObject({ status: "succeeded" });
  });

  it("not completed by the guest, fails in words that say so; the folio still owes it", async () => {
    const r = await book();
    const pending = await takeCard(r.id, "pm_card_authenticationRequired");
    await guest(pending.next_action!.client_secret, "failed");
    const failed = await desk.payments.refresh({ id: pending.id });
    expect(failed).toMatchObject({ status: "failed", failure_code: "card_declined", next_action: null });
    expect(failed.failure_message).toMatch(/did not complete their bank's check/);
    expect(await folioBalance(r.id)).toBe(r.total.amount);
    expect(await eventsFor(h, h.main.account.id, "payment.failed", (o) => o.id === pending.id)).toHaveLength(1);
  });

  it("authenticated, then declined by the bank, fails with the bank's decline", async () => {
    const r = await book();
    const pending = await takeCard(r.id, "pm_card_authenticationRequired");
    await guest(pending.next_action!.client_secret, "declined");
    expect(await desk.payments.refresh({ id: pending.id })).toMatchObject({ status: "failed", failure_code: "card_declined", failure_message: "Your card was declined." });
    expect(await folioBalance(r.id)).toBe(r.total.amount);
  });

  it("asks Stripe nothing for a payment that never went through it, refuses housekeeping and another account's payment", async () => {
    const r = await book();
    const cash = await desk.payments.create({ reservation_id: r.id, amount: 100, payment_method: { type: "cash" } });
    const before = (await stripeRequests(key)).length;
    expect(await desk.payments.refresh({ id: cash.id })).toMatchObject({ id: cash.id, status: "succeeded" });
    expect((await stripeRequests(key)).length).toBe(before);
    expect((await failure((await as("housekeeping")).payments.refresh({ id: cash.id }))).code).toBe("FORBIDDEN");
    const other = await h.newAccount("Other Desk Hotels");
    expect(await failure((await as("owner", { accountId: other.account.id })).payments.refresh({ id: cash.id }))).toMatchObject({ code: "NOT_FOUND", api: { code: "resource_missing" } });
    expect((await failure(desk.payments.refresh({ id: "" }))).code).toBe("UNPROCESSABLE_CONTENT");
  });
});

describe("a card put on file at the desk", () => {
  let desk: ReturnType<typeof createCaller>;
  beforeAll(async () => {
    desk = await as("front_desk");
  });

  it("is saved through tRPC as POST /v1/reservations/{id}/guarantee does, replacing the card before it; a declined card changes nothing", async () => {
    const r = await book();
    const first = await desk.reservations.guarantee({ id: r.id, processor_payment_method: "pm_card_visa" });
    expect(first.guarantee).toMatchObject({ status: "active", card: { brand: "visa", last4: "4242" }, next_action: null });
    const declined = await failure(desk.reservations.guarantee({ id: r.id, processor_payment_method: "pm_card_chargeDeclined" }));
    expect(declined.api).toMatchObject({ code: "card_declined", param: "processor_payment_method" });
    expect(ok(await h.get(`/v1/reservations/${r.id}`, live)).guarantee).toEqual(first.guarantee);
    const replaced = await desk.reservations.guarantee({ id: r.id, processor_payment_method: "pm_card_mastercard" });
    // stripe-mock answers one fixture card for every payment method: what was saved is read at Stripe.
    expect(replaced.guarantee).toMatchObject({ status: "active" });
    expect(replaced.guarantee!.created_at >= first.guarantee!.created_at).toBe(true);
    const setups = (await stripeRequests(key)).filter((q) => q.method === "POST" && q.path === "/v1/setup_intents").map((q) => q.params.payment_method);
    expect(setups.slice(-3)).toEqual(["pm_card_visa", "pm_card_chargeDeclined", "pm_card_mastercard"]);
    expect((await failure(desk.reservations.guarantee({ id: r.id, processor_payment_method: "4242424242424242" }))).code).toBe("UNPROCESSABLE_CONTENT");
    expect((await failure((await as("housekeeping")).reservations.guarantee({ id: r.id, processor_payment_method: "pm_card_visa" }))).code).toBe("FORBIDDEN");
  });

  it("whose bank asks for 3-D Secure becomes chargeable by the refresh once the guest authenticated it, once with Stripe's event", async () => {
    const r = await book();
    // Stripe's test card that asks for authentication when saved, and never again off-session.
    const waiting = await desk.reservations.guarantee({ id: r.id, processor_payment_method: "pm_card_authenticationRequiredOnSetup" });
    expect(waiting.guarantee).toMatchObject({ status: "requires_action", next_action: { client_secret: expect.stringMatching(/^seti_.+_secret_/) } });
    const secret = waiting.guarantee!.next_action!.client_secret;
    expect(await desk.reservations.refreshGuarantee({ id: r.id })).toMatchObject({ reservation: { guarantee: { status: "requires_action" } }, setup: { status: "requires_action", message: null } });
    const updatesBefore = (await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id)).length;
    await guest(secret, "authenticated");
    const done = await desk.reservations.refreshGuarantee({ id: r.id });
    expect(done).toMatchObject({ reservation: { guarantee: { status: "active", next_action: null } }, setup: { status: "succeeded", message: null } });
    expect(await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id)).toHaveLength(updatesBefore + 1);
    // Stripe's setup_intent.succeeded afterwards: nothing left to change.
    const setup = { ...(await stripeFixture("/v1/setup_intents/seti_fixture")), id: secret.split("_secret_")[0], status: "succeeded" };
    expect(await deliverStripeEvent(h.baseUrl, processorId, await stripeEvent("setup_intent.succeeded", setup), webhookSecret)).toMatchObject({ json: { outcome: "ignored" } });
    expect(await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id)).toHaveLength(updatesBefore + 1);
    // Chargeable now: a hold on it.
    expect(await desk.payments.create({ reservation_id: r.id, payment_method: { type: "card_on_file" }, capture: false })).toMatchObject({ status: "authorized" });
    // Nothing waits any more: the refresh says so without asking Stripe.
    expect(await desk.reservations.refreshGuarantee({ id: r.id })).toMatchObject({ setup: null });
  });

  it("not completed by the guest stays unchargeable, and the refresh says why in words", async () => {
    const r = await book();
    const waiting = await desk.reservations.guarantee({ id: r.id, processor_payment_method: "pm_card_authenticationRequired" });
    await guest(waiting.guarantee!.next_action!.client_secret, "failed");
    const refused = await desk.reservations.refreshGuarantee({ id: r.id });
    expect(refused.setup).toEqual({ status: "failed", message: expect.stringMatching(/did not complete their bank's check.*not on file/) });
    expect(refused.reservation.guarantee).toMatchObject({ status: "requires_action" });
    expect((await failure(desk.payments.create({ reservation_id: r.id, payment_method: { type: "card_on_file" } }))).api).toMatchObject({ code: "invalid_state_transition" });
  });
});
