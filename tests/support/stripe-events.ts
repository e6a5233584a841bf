// Stripe's events as Stripe sends them, for the tests: its own fixture objects (as stripe-mock
// serves them from Stripe's published fixtures), wrapped in an event and signed with the
// endpoint's secret by stripe-node's generateTestHeaderString, posted to /stripe/webhooks/{id}.
import { randomBytes } from "node:crypto";
import Stripe from "stripe";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Stripe's own object at `path` (`/v1/disputes/dp_x`), as stripe-mock serves it. */
export async function stripeFixture(path: string): Promise<Json> {
  const res = await fetch(`${process.env.STRIPE_MOCK_URL}${path}`, { headers: { authorization: "Bearer sk_test_fixtures" } });
  if (!res.ok) throw new Error(`stripe-mock answered ${res.status} for ${path}`);
  return (await res.json()) as Json;
}

/** A Stripe event of `type` around `object`, on Stripe's own event fixture, with an id of its own. */
export async function stripeEvent(type: string, object: Json): Promise<Json> {
  const base = await stripeFixture("/v1/events/evt_fixture");
  return { ...base, id: `evt_${randomBytes(12).toString("hex")}`, type, livemode: false, created: Math.floor(Date.now() / 1000), data: { object } };
}

/** Posts `event` to a connection's endpoint as Stripe does: its raw JSON, signed with `secret`. */
export async function deliverStripeEvent(baseUrl: string, processorId: string, event: Json, secret: string): Promise<{ status: number; json: Json }> {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  const res = await fetch(`${baseUrl}/stripe/webhooks/${processorId}`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A dispute of `amount` on a PaymentIntent, opened then closed (`lost`): payment.disputed and payment.dispute_closed. */
export async function disputeAndLose(baseUrl: string, processorId: string, secret: string, paymentIntent: string, amount: number, currency: string) {
  const dispute = { ...(await stripeFixture("/v1/disputes/dp_fixture")), id: `dp_${randomBytes(8).toString("hex")}`, payment_intent: paymentIntent, amount, currency: currency.toLowerCase() };
  for (const [type, status] of [["charge.dispute.created", "needs_response"], ["charge.dispute.closed", "lost"]]) {
    const answer = await deliverStripeEvent(baseUrl, processorId, await stripeEvent(type, { ...dispute, status }), secret);
    if (answer.status !== 200) throw new Error(`${type} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  }
}
