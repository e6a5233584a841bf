import { createHmac } from "node:crypto";
import { randomToken } from "@/server/ids";

/** A new signing secret; shown once, at creation or rotation. */
export const newSigningSecret = () => `whsec_${randomToken(32)}`;

/**
 * Lowercase hex HMAC-SHA256 of `<t>.<raw body>`. The key is the whole secret string, `whsec_`
 * prefix included, as Stripe does, so Stripe's own helpers verify our deliveries.
 */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex");
}

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: one `v1` per secret still valid, so a receiver that
 * knows either the old or the new secret accepts the delivery during a rotation.
 */
export function signatureHeaderValue(secrets: readonly string[], timestamp: number, rawBody: string | Buffer): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, rawBody)}`)].join(",");
}
