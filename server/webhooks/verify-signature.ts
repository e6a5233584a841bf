import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Receiver-side verification of an Innkeep webhook, for integrators: pass the raw body (the
 * exact bytes received, before any JSON parsing), the `Service-Signature` header and your
 * endpoint's `whsec_…` secret. Returns the parsed event, or throws WebhookSignatureError
 * (answer 401 then). Several `v1` values are accepted, as sent during a secret rotation.
 *
 * @example
 * const event = verifyWebhook(rawBody, req.headers["service-signature"], process.env.INNKEEP_WEBHOOK_SECRET!);
 */
export function verifyWebhook<T = WebhookEvent>(
  rawBody: string | Buffer,
  header: string | string[] | undefined,
  secret: string,
  options: { toleranceSeconds?: number; now?: number } = {},
): T {
  verifySignature(rawBody, header, secret, options);
  return JSON.parse(Buffer.isBuffer(rawBody) ? rawBody.toString("utf8") : rawBody) as T;
}

/** The check alone: throws WebhookSignatureError unless one `v1` matches and `t` is recent. */
export function verifySignature(
  rawBody: string | Buffer,
  header: string | string[] | undefined,
  secret: string,
  { toleranceSeconds = 300, now = Math.floor(Date.now() / 1000) }: { toleranceSeconds?: number; now?: number } = {},
): void {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) throw new WebhookSignatureError("No Service-Signature header.");
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const [key, ...rest] = part.trim().split("=");
    const item = rest.join("=");
    if (key === "t" && /^\d+$/.test(item)) timestamp = Number(item);
    else if (key === "v1" && item) signatures.push(item);
  }
  if (timestamp === undefined) throw new WebhookSignatureError("The signature header has no timestamp (t=).");
  if (!signatures.length) throw new WebhookSignatureError("The signature header has no v1 signature.");
  if (toleranceSeconds > 0 && Math.abs(now - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError(`The signature timestamp is more than ${toleranceSeconds} seconds from now.`);
  }
  const expected = Buffer.from(createHmac("sha256", secret).update(`${timestamp}.`).update(rawBody).digest("hex"), "utf8");
  const matches = signatures.some((s) => {
    const given = Buffer.from(s, "utf8");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError("No signature matches the expected signature for this body and secret.");
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookSignatureError";
  }
}

/** The event envelope every delivery carries. */
export type WebhookEvent = {
  id: string;
  object: "event";
  type: string;
  created_at: string;
  api_version: string;
  livemode: boolean;
  property_id: string | null;
  data: { object: Record<string, unknown> };
};
