import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { computeSignature, newSigningSecret, signatureHeaderValue } from "@/server/webhooks/signing";
import { verifySignature, verifyWebhook, WebhookSignatureError } from "@/server/webhooks/verify-signature";

// Our header is Stripe's scheme under another name: stripe-node's constructEvent must accept
// exactly what our helper accepts, on the same body, header and secret.
const stripe = new Stripe("sk_test_unused");
const body = JSON.stringify({ id: "evt_123", object: "event", type: "reservation.created", data: { object: { id: "res_1", note: "é ü 🏨" } } });
const now = () => Math.floor(Date.now() / 1000);

function stripeAccepts(payload: string, header: string, secret: string): boolean {
  try {
    stripe.webhooks.constructEvent(payload, header, secret, 300);
    return true;
  } catch {
    return false;
  }
}
function oursAccepts(payload: string, header: string, secret: string): boolean {
  try {
    verifyWebhook(payload, header, secret);
    return true;
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookSignatureError);
    return false;
  }
}

describe("signatures", () => {
  it("a secret is whsec_ and random", () => {
    expect(newSigningSecret()).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(newSigningSecret()).not.toBe(newSigningSecret());
  });

  it("v1 is the lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed by the whole secret", async () => {
    const { createHmac } = await import("node:crypto");
    const secret = "whsec_test";
    expect(computeSignature(secret, 1700000000, body)).toBe(createHmac("sha256", "whsec_test").update(`1700000000.${body}`).digest("hex"));
    expect(signatureHeaderValue([secret, "whsec_other"], 1700000000, body)).toMatch(/^t=1700000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  });

  it("agrees with stripe-node's constructEvent on every case", () => {
    const secret = newSigningSecret();
    const other = newSigningSecret();
    const t = now();
    const cases: { name: string; payload: string; header: string; secret: string; ok: boolean }[] = [
      { name: "valid", payload: body, header: signatureHeaderValue([secret], t, body), secret, ok: true },
      { name: "rotation: new first", payload: body, header: signatureHeaderValue([other, secret], t, body), secret, ok: true },
      { name: "rotation: old first", payload: body, header: signatureHeaderValue([secret, other], t, body), secret, ok: true },
      { name: "wrong secret", payload: body, header: signatureHeaderValue([other], t, body), secret, ok: false },
      { name: "body changed", payload: body.replace("res_1", "res_2"), header: signatureHeaderValue([secret], t, body), secret, ok: false },
      { name: "re-serialized body", payload: JSON.stringify(JSON.parse(body), null, 2), header: signatureHeaderValue([secret], t, body), secret, ok: false },
      { name: "too old", payload: body, header: signatureHeaderValue([secret], t - 301, body), secret, ok: false },
      { name: "just in time", payload: body, header: signatureHeaderValue([secret], t - 290, body), secret, ok: true },
      { name: "no v1", payload: body, header: `t=${t}`, secret, ok: false },
      { name: "no t", payload: body, header: `v1=${computeSignature(secret, t, body)}`, secret, ok: false },
      { name: "only a v0", payload: body, header: `t=${t},v0=${computeSignature(secret, t, body)}`, secret, ok: false },
      { name: "garbage", payload: body, header: "nonsense", secret, ok: false },
    ];
    for (const c of cases) {
      expect({ name: c.name, ours: oursAccepts(c.payload, c.header, c.secret) }).toEqual({ name: c.name, ours: c.ok });
      expect({ name: c.name, stripe: stripeAccepts(c.payload, c.header, c.secret) }).toEqual({ name: c.name, stripe: c.ok });
    }
  });

  it("verifies Buffers as well as strings, and returns the parsed event", () => {
    const secret = newSigningSecret();
    const header = signatureHeaderValue([secret], now(), body);
    expect(verifyWebhook(Buffer.from(body), header, secret)).toEqual(JSON.parse(body));
    expect(() => verifySignature(body, undefined, secret)).toThrow(WebhookSignatureError);
    expect(() => verifySignature(body, header, secret, { now: now() + 1000 })).toThrow(/300 seconds/);
  });
});
