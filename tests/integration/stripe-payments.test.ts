import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentProcessors, payments } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";
import { stripeRequests } from "../support/stripe-states";
import { TRPCError } from "@trpc/server";
import { createUser, type StaffRole } from "@/server/auth/users";
import { ApiError } from "@/server/errors";
import { RateLimiter } from "@/server/http/rate-limit";
import { createCaller } from "@/server/trpc/routers/_app";
import { openSecret, resealSecrets } from "@/server/webhooks/secret-box";
import { parseSecretKeys } from "@/server/secret-keys";

// Issue #37, first slice: a hotel's Stripe account connected through the API, live card payments
// by Stripe payment method (never a card number), and their refunds through Stripe. Every request
// to Stripe is validated by the real stripe-mock (tests/support/stripe.ts); the relay in front of
// it plays the PaymentIntent's state, Stripe's idempotent replays and its declines.

let h: Harness;
const live: Caller = { token: "" };
const sandbox: Caller = { token: "", sandbox: true };
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let std: RoomTypeSetup;
let sandboxSetup: { propertyId: string; roomTypeId: string; ratePlanId: string; today: IsoDate };
/** A test key of this file's own, so the relay's log holds only this file's requests. */
const testKey = () => `sk_test_${randomBytes(18).toString("hex")}`;
let liveKey: string;

let night = 0;
async function bookLive(nights = 1) {
  const from = addDays(hotel.today, 5 + night);
  night += nights;
  const setup = { propertyId: hotel.propertyId, roomTypeId: std.roomTypeId, ratePlanId: std.ratePlanId };
  return ok(await h.post("/v1/reservations", bookingBody(setup, from, addDays(from, nights)), live), 201) as { id: string; total: { amount: number } };
}
let sandboxNight = 0;
async function bookSandbox() {
  const from = addDays(sandboxSetup.today, 200 + sandboxNight++);
  return ok(await h.post("/v1/reservations", bookingBody(sandboxSetup, from, addDays(from, 1)), sandbox), 201) as { id: string; total: { amount: number } };
}

const pm = (id: string) => ({ type: "card", processor_payment_method: id });
const expYear = new Date().getUTCFullYear() + 3;
const rawCard = (number = "4242424242424242") => ({ type: "card", number, exp_month: 12, exp_year: expYear, cvc: "123" });
const pay = (reservationId: string, method: unknown, extra: Record<string, unknown> = {}, caller: Caller = live, headers?: Record<string, string>) =>
  h.request("POST", "/v1/payments", { body: { reservation_id: reservationId, payment_method: method, ...extra }, token: caller.token, sandbox: caller.sandbox, headers });
const balanceOf = async (id: string, caller: Caller = live) => ok(await h.get(`/v1/reservations/${id}/folio`, caller)).balance.amount as number;
const paymentCount = async (reservationId: string) =>
  Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(payments).where(eq(payments.reservationId, reservationId)))[0].n);
const processorRows = async () => h.db.select().from(paymentProcessors);
const posts = async (key: string, path: string) => (await stripeRequests(key)).filter((r) => r.method === "POST" && r.path === path);

beforeAll(async () => {
  h = await startHarness();
  live.token = sandbox.token = h.main.token;
  hotel = await liveHotel(h, h.main.account.id);
  std = await buildRoomType(h, live, hotel.propertyId, hotel.today, { rooms: 10, amount: 10_000, days: 120 });
  const property = await sandboxProperty(h, h.main.token);
  const king = ok(await h.get(`/v1/room_types?property_id=${property.id}`, sandbox)).data.find((t: { code: string }) => t.code === "KING");
  const bar = ok(await h.get(`/v1/rate_plans?property_id=${property.id}`, sandbox)).data.find((p: { code: string }) => p.code === "BAR");
  sandboxSetup = { propertyId: property.id, roomTypeId: king.id, ratePlanId: bar.id, today: todayIn(property.timezone) };
});
afterAll(async () => h?.close());

describe("without a processor", () => {
  it("a live card, raw or by payment method, keeps the clear 422 and records nothing", async () => {
    const r = await bookLive();
    expect(expectError(await pay(r.id, rawCard()), 422, "parameter_invalid", "payment_method.type").message).toMatch(/processor.*none is configured/);
    expect(expectError(await pay(r.id, pm("pm_card_visa")), 422, "parameter_invalid", "payment_method.type").message).toMatch(/Settings/);
    expect(await paymentCount(r.id)).toBe(0);
  });
});

describe("connecting a Stripe account", () => {
  it("checks the key against Stripe, keeps it sealed and shows only its hint", async () => {
    liveKey = testKey();
    const res = await h.post("/v1/payment_processors", { type: "stripe", secret_key: liveKey, webhook_secret: "whsec_abcdefghijklmnop1234" }, live);
    const connected = ok(res, 201);
    expect(connected).toMatchObject({
      object: "payment_processor",
      livemode: true,
      type: "stripe",
      property_id: null,
      mode: "test",
      secret_key_hint: `sk_test_…${liveKey.slice(-4)}`,
      webhook_secret_hint: "whsec_…1234",
      processor_account_id: expect.stringMatching(/^acct_/),
    });
    expect(res.text).not.toContain(liveKey);
    // Stripe was asked, with this key: the payments it may read, and its account.
    expect((await stripeRequests(liveKey)).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /v1/payment_intents 200", "GET /v1/account 200"]);
    const list = await h.get("/v1/payment_processors", live);
    expect(ok(list).data).toHaveLength(1);
    expect(list.text).not.toContain(liveKey);
    const [row] = await processorRows();
    expect(row.secretKey).toMatch(/^aesgcm1:/);
    expect(row.secretKey).not.toContain(liveKey);
    expect(row.webhookSecret).not.toContain("abcdefghijklmnop");
  });

  it("re-seals the keys under a new first key at start, as webhook secrets are", async () => {
    const newKey = `k2:${randomBytes(32).toString("base64")}`;
    const rotated = parseSecretKeys(`${newKey},${process.env.WEBHOOK_SECRET_KEYS}`);
    expect(await resealSecrets(h.db, rotated)).toMatchObject({ rewritten: 1, unreadable: 0 });
    const [row] = await processorRows();
    expect(row.secretKey).toMatch(/^aesgcm1:k2:/);
    expect(row.webhookSecret).toMatch(/^aesgcm1:k2:/);
    expect(openSecret(row.secretKey, row.id, rotated)).toBe(liveKey);
    // And back under the test run's key, for the payments below.
    await resealSecrets(h.db, parseSecretKeys(`${process.env.WEBHOOK_SECRET_KEYS},${newKey}`));
    expect((await processorRows())[0].secretKey).toMatch(/^aesgcm1:test:/);
  });

  it("refuses a key Stripe refuses (422 on secret_key, in Stripe's words) and keeps the one connected", async () => {
    // stripe-mock itself refuses live keys; the relay answers Stripe's 401 for a revoked one.
    const liveModeKey = `sk_live_${randomBytes(12).toString("hex")}`;
    expect(expectError(await h.post("/v1/payment_processors", { type: "stripe", secret_key: liveModeKey }, live), 422, "parameter_invalid", "secret_key").message).toMatch(
      /^Stripe refused this key/,
    );
    const revoked = `sk_test_revoked${randomBytes(6).toString("hex")}`;
    expect(expectError(await h.post("/v1/payment_processors", { type: "stripe", secret_key: revoked }, live), 422, "parameter_invalid", "secret_key").message).toMatch(
      /Stripe refused this key: Expired API Key/,
    );
    const rows = await processorRows();
    expect(rows).toHaveLength(1);
    expect(rows[0].secretKeyHint).toBe(`sk_test_…${liveKey.slice(-4)}`);
  });

  it("refuses a live key in the sandbox without asking Stripe, and malformed input, changing nothing", async () => {
    const key = `sk_live_${randomBytes(12).toString("hex")}`;
    expect(expectError(await h.post("/v1/payment_processors", { type: "stripe", secret_key: key }, sandbox), 422, "parameter_invalid", "secret_key").message).toMatch(/sandbox/);
    expect(await stripeRequests(key)).toEqual([]);
    expectError(await h.post("/v1/payment_processors", { type: "stripe", secret_key: "pk_test_123456789" }, live), 422, "parameter_invalid", "secret_key");
    expectError(await h.post("/v1/payment_processors", { type: "stripe" }, live), 422, "parameter_missing", "secret_key");
    expectError(await h.post("/v1/payment_processors", { type: "adyen", secret_key: testKey() }, live), 422, "parameter_invalid", "type");
    expectError(await h.post("/v1/payment_processors", { type: "stripe", secret_key: testKey(), webhook_secret: "nope" }, live), 422, "parameter_invalid", "webhook_secret");
    expectError(await h.post("/v1/payment_processors", { type: "stripe", secret_key: testKey(), property_id: "prop_nothere1234567890" }, live), 404, "resource_missing", "property_id");
    expect(await processorRows()).toHaveLength(1);
  });
});

describe("live card payments through Stripe", () => {
  it("charges a pm_ payment method: a confirmed PaymentIntent, validated by stripe-mock, with Stripe's ids on the payment", async () => {
    const r = await bookLive();
    const res = await pay(r.id, pm("pm_card_visa"), {}, live, { "idempotency-key": "stay-1-deposit" });
    const payment = ok(res, 201);
    expect(payment).toMatchObject({
      status: "succeeded",
      captured: true,
      amount: { amount: 10_000, currency: "USD" },
      payment_method: { type: "card", brand: "visa", last4: "4242" },
      processor: { type: "stripe", payment_id: expect.stringMatching(/^pi_/) },
    });
    expect(await balanceOf(r.id)).toBe(0);
    const [intent] = await posts(liveKey, "/v1/payment_intents");
    expect(intent.status).toBe(200);
    expect(intent.params).toMatchObject({
      amount: "10000",
      currency: "usd",
      confirm: "true",
      payment_method: "pm_card_visa",
      capture_method: "automatic",
      "metadata[innkeep_reservation_id]": r.id,
      "metadata[innkeep_account_id]": h.main.account.id,
      "metadata[innkeep_environment]": "live",
    });
    // Under a request's Idempotency-Key the payment's own id is not sent: a retry makes a new one, and
    // Stripe replays a key only for the very same parameters.
    expect(intent.params["metadata[innkeep_payment_id]"]).toBeUndefined();
    expect(intent.idempotencyKey).toMatch(/^innkeep-payment-[0-9a-f]{48}$/);
    expect(intent.idempotencyKey).not.toContain("stay-1-deposit");
  });

  it("a retry with the same Idempotency-Key is the same payment, and Stripe is not asked to charge again", async () => {
    const r = await bookLive();
    const headers = { "idempotency-key": `retry-${r.id}` };
    const before = (await posts(liveKey, "/v1/payment_intents")).length;
    const first = ok(await pay(r.id, pm("pm_card_visa"), { amount: 3_000 }, live, headers), 201);
    const again = await pay(r.id, pm("pm_card_visa"), { amount: 3_000 }, live, headers);
    expect(ok(again, 201).id).toBe(first.id);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await posts(liveKey, "/v1/payment_intents")).length).toBe(before + 1);
    expect(await paymentCount(r.id)).toBe(1);
    expect(await balanceOf(r.id)).toBe(7_000);
  });

  it("the charge's key at Stripe is Innkeep's key's: the same request sent again after a lost answer is one charge there", async () => {
    // Two Innkeep accounts never share a key at Stripe, and the same Innkeep key always gives the same one.
    const r1 = await bookLive();
    const key = `lost-answer-${r1.id}`;
    ok(await pay(r1.id, pm("pm_card_visa"), { amount: 1_000 }, live, { "idempotency-key": key }), 201);
    const sent = (await posts(liveKey, "/v1/payment_intents")).at(-1)!;
    const { processorIdempotencyKey } = await import("@/server/processors/keys");
    const tenant = { accountId: h.main.account.id, livemode: true };
    expect(sent.idempotencyKey).toBe(processorIdempotencyKey(tenant, "payment", key, "unused"));
    expect(processorIdempotencyKey({ ...tenant, accountId: "acct_other" }, "payment", key, "unused")).not.toBe(sent.idempotencyKey);
  });

  it("a decline at Stripe is a 402 in Innkeep's codes, recorded as a failed payment; the balance stays", async () => {
    const r = await bookLive();
    const res = await pay(r.id, pm("pm_card_chargeDeclinedInsufficientFunds"));
    const error = expectError(res, 402, "insufficient_funds", "payment_method");
    const failed = ok(await h.get(`/v1/payments/${res.json.error.payment_id}`, live));
    expect(failed).toMatchObject({ status: "failed", failure_code: "insufficient_funds", processor: { type: "stripe" } });
    expect(error.message).toBe("Your card has insufficient funds.");
    expect(await balanceOf(r.id)).toBe(10_000);
    expectError(await pay(r.id, pm("pm_card_chargeDeclinedExpiredCard")), 402, "expired_card", "payment_method");
  });

  it("authorizes with capture: false and captures through Stripe", async () => {
    const r = await bookLive();
    const held = ok(await pay(r.id, pm("pm_card_visa"), { capture: false }), 201);
    expect(held).toMatchObject({ status: "authorized", captured: false });
    const intent = (await posts(liveKey, "/v1/payment_intents")).at(-1)!;
    expect(intent.params.capture_method).toBe("manual");
    const captured = ok(await h.post(`/v1/payments/${held.id}/capture`, {}, live));
    expect(captured).toMatchObject({ status: "succeeded", captured: true });
    const [capture] = await posts(liveKey, `/v1/payment_intents/${held.processor.payment_id}/capture`);
    expect(capture).toMatchObject({ status: 200, params: { amount_to_capture: "10000" } });
  });

  it("refunds through Stripe, partly then the rest, each with Stripe's refund behind it", async () => {
    const r = await bookLive();
    const payment = ok(await pay(r.id, pm("pm_card_visa")), 201);
    const part = ok(await h.post("/v1/refunds", { payment_id: payment.id, amount: 4_000 }, live), 201);
    expect(part).toMatchObject({ amount: { amount: 4_000 }, payment_id: payment.id });
    ok(await h.post("/v1/refunds", { payment_id: payment.id }, live), 201);
    const refunds = (await posts(liveKey, "/v1/refunds")).filter((q) => q.params.payment_intent === payment.processor.payment_id);
    expect(refunds.map((q) => [q.status, q.params.amount, q.params["metadata[innkeep_payment_id]"]])).toEqual([
      [200, "4000", payment.id],
      [200, "6000", payment.id],
    ]);
    expect(ok(await h.get(`/v1/payments/${payment.id}`, live))).toMatchObject({ status: "refunded", amount_refunded: { amount: 10_000 } });
    expect(await balanceOf(r.id)).toBe(10_000);
  });

  it("refuses a raw card number in live mode, saying what to send instead; nothing recorded, Stripe never asked", async () => {
    const r = await bookLive();
    const before = (await stripeRequests(liveKey)).length;
    const error = expectError(await pay(r.id, rawCard()), 422, "parameter_invalid", "payment_method.number");
    expect(error.message).toMatch(/^Live mode takes no card numbers: .*processor_payment_method.*pm_/);
    expect(await paymentCount(r.id)).toBe(0);
    expect((await stripeRequests(liveKey)).length).toBe(before);
  });

  it("bad card input is 422 naming the field, and changes nothing", async () => {
    const r = await bookLive();
    const before = (await stripeRequests(liveKey)).length;
    expectError(await pay(r.id, { ...pm("pm_card_visa"), number: "4242424242424242" }), 422, "parameter_invalid", "payment_method.number");
    expectError(await pay(r.id, pm("card_visa")), 422, "parameter_invalid", "payment_method.processor_payment_method");
    expectError(await pay(r.id, { type: "card" }), 422, "parameter_missing", "payment_method.number");
    expectError(await pay(r.id, pm("pm_card_visa"), { amount: 0 }), 422, "parameter_invalid", "amount");
    expect(await paymentCount(r.id)).toBe(0);
    expect((await stripeRequests(liveKey)).length).toBe(before);
    expect(await balanceOf(r.id)).toBe(10_000);
  });
});

describe("the sandbox", () => {
  it("keeps the contract's test cards, and takes pm_ only once a Stripe test key is connected", async () => {
    const r = await bookSandbox();
    ok(await pay(r.id, rawCard(), { amount: 1_000 }, sandbox), 201);
    expect(expectError(await pay(r.id, pm("pm_card_visa"), { amount: 1_000 }, sandbox), 422, "parameter_invalid", "payment_method.type").message).toMatch(/test key/);
    const key = testKey();
    ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: key, property_id: sandboxSetup.propertyId }, sandbox), 201);
    const viaStripe = ok(await pay(r.id, pm("pm_card_visa"), { amount: 1_000 }, sandbox), 201);
    expect(viaStripe).toMatchObject({ livemode: false, status: "succeeded", processor: { type: "stripe" } });
    expect(await posts(key, "/v1/payment_intents")).toHaveLength(1);
    // A test card still never goes to Stripe, processor or not.
    expect(ok(await pay(r.id, rawCard(), { amount: 1_000 }, sandbox), 201).processor).toBeNull();
    expect(await posts(key, "/v1/payment_intents")).toHaveLength(1);
  });
});

describe("Settings (tRPC): owners only", () => {
  const limiter = new RateLimiter();
  async function staffMember(role: StaffRole) {
    const user = await createUser({ db: h.db, input: { accountId: h.main.account.id, email: `${role}@stripe.example`, password: "password-1", role } });
    const session = { user: { id: user.id, accountId: h.main.account.id, role, name: null, email: user.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
    return (livemode = true) => createCaller({ db: h.db, session, livemode, limiter });
  }

  it("an owner connects a key for one property and sees only its hint; a manager is refused; a bad key is named", async () => {
    const owner = await staffMember("owner");
    const manager = await staffMember("manager");
    const key = testKey();
    const connected = await owner().processors.connect({ type: "stripe", secret_key: key, property_id: hotel.propertyId });
    expect(connected).toMatchObject({ property_id: hotel.propertyId, secret_key_hint: `sk_test_…${key.slice(-4)}`, mode: "test" });
    const listed = await owner().processors.list();
    expect(listed.map((p) => p.property_id)).toEqual([null, hotel.propertyId]);
    expect(JSON.stringify(listed)).not.toContain(key);
    // The property's own account now takes its cards, not the account's.
    const r = await bookLive();
    ok(await pay(r.id, pm("pm_card_visa"), { amount: 500 }), 201);
    expect(await posts(key, "/v1/payment_intents")).toHaveLength(1);
    await owner().processors.remove({ id: connected.id });

    const refused = await manager().processors.list().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("FORBIDDEN");
    const bad = await owner(false).processors.connect({ type: "stripe", secret_key: `rk_live_${randomBytes(10).toString("hex")}` }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((bad as TRPCError).cause).toBeInstanceOf(ApiError);
    expect((bad as TRPCError).cause).toMatchObject({ code: "parameter_invalid", param: "secret_key" });
  });
});

describe("removing the processor", () => {
  it("deletes its keys; live cards answer 422 again", async () => {
    const [connected] = ok(await h.get("/v1/payment_processors", live)).data;
    ok(await h.del(`/v1/payment_processors/${connected.id}`, live));
    expect((await processorRows()).filter((row) => row.livemode)).toHaveLength(0);
    const r = await bookLive();
    expectError(await pay(r.id, pm("pm_card_visa")), 422, "parameter_invalid", "payment_method.type");
    expectError(await h.del(`/v1/payment_processors/${connected.id}`, live), 404, "resource_missing", "id");
  });
});
