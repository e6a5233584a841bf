import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, payments } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { createApiKey } from "@/server/auth/api-keys";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller } from "../support/hotel";
import { stripeRequests } from "../support/stripe-states";

// Issue 37, point 3: a pre-authorisation that grows with the stay. A guest pre-authorised at
// check-in who stays a night longer has the hold raised to the new total, by Stripe's incremental
// authorization where the card allows it (asked for when the hold was made), else by holding the
// difference apart on the card on file. Every request reaches stripe-mock through the test relay
// (tests/support/stripe-states.ts), which plays an American Express card as one whose bank does
// not let a hold grow.

let h: Harness;
const live: Caller = { token: "" };
const key = `sk_test_${randomBytes(18).toString("hex")}`;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let type: Awaited<ReturnType<typeof buildRoomType>>;
const rate = 10_000;

const intentCalls = async () => (await stripeRequests(key)).filter((r) => r.path.startsWith("/v1/payment_intents"));
const shape = (q: { method: string; path: string; status: number }) => `${q.method} ${q.path.replace(/pi_[A-Za-z0-9]+/, "{id}")} ${q.status}`;

/** A guest in house today for two nights, with `pm` on file and the stay's total held on it. */
async function heldStay(pm: string) {
  const body = bookingBody({ propertyId: hotel.propertyId, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId }, hotel.today, addDays(hotel.today, 2), {
    guarantee: { type: "card", processor_payment_method: pm },
  });
  const stay = ok(await h.post("/v1/reservations", body, live), 201);
  ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, live));
  const hold = ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: { type: "card_on_file" }, capture: false }, live), 201);
  return { stay, hold };
}
const extend = async (id: string, nights: number) => ok(await h.post(`/v1/reservations/${id}/change_departure`, { check_out: addDays(hotel.today, 2 + nights) }, live));
const balance = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, live)).balance.amount as number;
const raise = (id: string, amount: unknown, caller: Caller = live) => h.post(`/v1/payments/${id}/increment_authorization`, { amount }, caller);

beforeAll(async () => {
  h = await startHarness();
  live.token = h.main.token;
  hotel = await liveHotel(h, h.main.account.id);
  type = await buildRoomType(h, live, hotel.propertyId, hotel.today, { rooms: 6, amount: rate, days: 20 });
  ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: key, webhook_secret: `whsec_${randomBytes(18).toString("hex")}` }, live), 201);
});
afterAll(async () => h?.close());

describe("a hold that grows with the stay", () => {
  it("is raised on the same payment by Stripe's incremental authorization, asked for when the hold was made, and captured whole at check-out", async () => {
    const { stay, hold } = await heldStay("pm_card_visa");
    const [made] = (await intentCalls()).filter((q) => q.method === "POST" && q.path === "/v1/payment_intents").slice(-1);
    expect(made.params).toMatchObject({ capture_method: "manual", "payment_method_options[card][request_incremental_authorization]": "if_available" });
    await extend(stay.id, 1);
    const owed = await balance(stay.id);
    expect(owed).toBe(3 * rate);
    const before = (await intentCalls()).length;
    const raised = ok(await raise(hold.id, owed));
    expect(raised).toMatchObject({ id: hold.id, status: "authorized", amount: { amount: owed } });
    const sent = (await intentCalls()).slice(before);
    expect(sent.map(shape)).toEqual(["POST /v1/payment_intents/{id}/increment_authorization 200"]);
    expect(sent[0].params).toMatchObject({ amount: String(owed) });
    // On the reservation's trail, with the balance around it; an authorization is no event.
    const [entry] = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, stay.id), eq(auditLog.action, "reservation.hold_raised")));
    expect(entry.after).toMatchObject({ payment: { amount: { amount: owed }, status: "authorized" } });
    // Captured whole: the folio settles and the guest leaves.
    ok(await h.post(`/v1/payments/${hold.id}/capture`, {}, live));
    expect((await intentCalls()).at(-1)!.params).toMatchObject({ amount_to_capture: String(owed) });
    expect(await balance(stay.id)).toBe(0);
  });

  it("where the card's bank does not let it grow, holds the difference apart on the card on file, as a payment of its own", async () => {
    const { stay, hold } = await heldStay("pm_card_amex");
    await extend(stay.id, 2);
    const owed = await balance(stay.id);
    const before = (await intentCalls()).length;
    const raised = ok(await raise(hold.id, owed));
    expect(raised.id).not.toBe(hold.id);
    expect(raised).toMatchObject({ status: "authorized", amount: { amount: owed - 2 * rate } });
    expect((await intentCalls()).slice(before).map(shape)).toEqual(["POST /v1/payment_intents/{id}/increment_authorization 400", "POST /v1/payment_intents 200"]);
    expect(ok(await h.get(`/v1/payments/${hold.id}`, live)).amount.amount).toBe(2 * rate);
    const held = (await h.db.select().from(payments).where(eq(payments.reservationId, stay.id))).filter((p) => p.status === "authorized");
    expect(held.reduce((sum, p) => sum + p.amount, 0)).toBe(owed);
  });

  it("refuses what it cannot do with the contract's errors, and changes nothing", async () => {
    const { hold } = await heldStay("pm_card_visa");
    const calls = (await intentCalls()).length;
    expectError(await raise(hold.id, 2 * rate), 422, "parameter_invalid", "amount");
    expectError(await raise(hold.id, rate), 422, "parameter_invalid", "amount");
    expectError(await raise(hold.id, "30000"), 422, "parameter_invalid", "amount");
    expectError(await h.post(`/v1/payments/${hold.id}/increment_authorization`, {}, live), 422, "parameter_missing", "amount");
    expectError(await h.post(`/v1/payments/${hold.id}/increment_authorization`, { amount: 3 * rate, capture: true }, live), 422, "parameter_unknown", "capture");
    expectError(await raise(`pay_${"x".repeat(24)}`, 3 * rate), 404, "resource_missing");
    expect((await intentCalls()).length).toBe(calls);
    expect(ok(await h.get(`/v1/payments/${hold.id}`, live)).amount.amount).toBe(2 * rate);
    // A captured payment holds nothing to raise.
    ok(await h.post(`/v1/payments/${hold.id}/capture`, {}, live));
    expectError(await raise(hold.id, 3 * rate), 409, "invalid_state_transition");
    // A hold on a card given at the desk, not on file, whose bank does not let it grow: nothing to hold the difference on.
    const other = ok(
      await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId }, hotel.today, addDays(hotel.today, 1)), live),
      201,
    );
    const desk = ok(await h.post("/v1/payments", { reservation_id: other.id, payment_method: { type: "card", processor_payment_method: "pm_card_amex" }, capture: false }, live), 201);
    expect(expectError(await raise(desk.id, 2 * rate), 409, "invalid_state_transition", "amount").message).toMatch(/no card on file/);
    expect(ok(await h.get(`/v1/payments/${desk.id}`, live)).amount.amount).toBe(rate);
  });

  it("needs payments:write", async () => {
    const { hold } = await heldStay("pm_card_visa");
    const readOnly = await createApiKey({ db: h.db, input: { accountId: h.main.account.id, scopes: ["payments:read"] } });
    expectError(await raise(hold.id, 3 * rate, { token: readOnly.key }), 403, "insufficient_scope");
  });
});
