import type { Schemas } from "./types.js";

/** The object of an `inventory.updated` event: the range whose availability changed (`to` exclusive, null: from then on). */
export type InventoryRange = Schemas["InventoryRange"];
/** The object of a `ping`, the test event (`webhookEndpoints.test(id)` or the dashboard's "Send test event"). */
export type PingObject = Schemas["Ping"];

/**
 * A webhook event: the document's `Event` (every type of the event log, each with its typed
 * `data.object`, discriminated by `type`) and `ping`, the test event. Derived from the generated
 * types, so a type the server adds is here as soon as the client is regenerated.
 */
export type WebhookEvent = Schemas["Event"] | Schemas["PingEvent"];

export type WebhookEventType = WebhookEvent["type"];

/** Why a delivery was refused; `reason` is stable, `message` says it in words. */
export class SignatureVerificationError extends Error {
  constructor(
    readonly reason: "missing_header" | "missing_timestamp" | "missing_signature" | "timestamp_outside_tolerance" | "no_matching_signature",
    message: string,
  ) {
    super(message);
    this.name = "SignatureVerificationError";
  }
}

type VerifyOptions = { toleranceSeconds?: number; /** Unix seconds; for tests. */ now?: number };
type RawBody = string | Uint8Array;
type Header = string | string[] | null | undefined;

const encoder = new TextEncoder();
const bytes = (body: RawBody) => (typeof body === "string" ? encoder.encode(body) : body);
const text = (body: RawBody) => (typeof body === "string" ? body : new TextDecoder().decode(body));
const hex = (buffer: ArrayBuffer | Uint8Array) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Splits `t=…,v1=…,v1=…` and checks what can be checked without the secret. */
function parseHeader(header: Header, { toleranceSeconds = 300, now = Math.floor(Date.now() / 1000) }: VerifyOptions) {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) throw new SignatureVerificationError("missing_header", "No Service-Signature header: is this request from Innkeep?");
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(",")) {
    const [key, ...rest] = part.trim().split("=");
    const item = rest.join("=");
    if (key === "t" && /^\d+$/.test(item)) timestamp = Number(item);
    else if (key === "v1" && /^[0-9a-f]{64}$/i.test(item)) signatures.push(item.toLowerCase());
  }
  if (timestamp === undefined) throw new SignatureVerificationError("missing_timestamp", "The Service-Signature header has no timestamp (t=).");
  if (!signatures.length) throw new SignatureVerificationError("missing_signature", "The Service-Signature header has no v1 signature.");
  if (toleranceSeconds > 0 && Math.abs(now - timestamp) > toleranceSeconds) {
    throw new SignatureVerificationError("timestamp_outside_tolerance", `The signature's timestamp is more than ${toleranceSeconds} seconds from now: a replayed or delayed delivery.`);
  }
  return { timestamp, signatures };
}

const noMatch = () => new SignatureVerificationError("no_matching_signature", "No v1 signature matches this body and secret: wrong secret, or the body was changed (verify the raw bytes, before any JSON parsing).");

/** The part of Node's crypto used here (typed locally: the package needs no @types/node). */
type NodeCrypto = { createHmac(algorithm: "sha256", key: string): { update(data: string | Uint8Array): NodeHmac; digest(encoding: "hex"): string } };
type NodeHmac = ReturnType<NodeCrypto["createHmac"]>;

/** Node's crypto, reached without a static import so that edge bundles never pull it in. */
function nodeCrypto(): NodeCrypto {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.("node:crypto");
  if (!builtin) throw new Error("Node's crypto is not available here: use constructEventAsync (WebCrypto).");
  return builtin as NodeCrypto;
}

/** Constant-time comparison of two equally long hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function hmacNode(secret: string, timestamp: number, body: RawBody): string {
  return nodeCrypto().createHmac("sha256", secret).update(`${timestamp}.`).update(bytes(body)).digest("hex");
}

async function hmacWeb(secret: string, timestamp: number, body: RawBody): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const prefix = encoder.encode(`${timestamp}.`);
  const payload = bytes(body);
  const message = new Uint8Array(prefix.length + payload.length);
  message.set(prefix);
  message.set(payload, prefix.length);
  return hex(await crypto.subtle.sign("HMAC", key, message));
}

export const webhooks = {
  /**
   * Verifies a delivery and answers its event. `rawBody` is the exact body received (before any
   * JSON parsing), `signatureHeader` the `Service-Signature` header, `secret` the endpoint's
   * `whsec_…`. Any `v1` may match (during a secret rotation a delivery carries one per secret).
   * Throws SignatureVerificationError with its reason. Uses Node's crypto.
   */
  constructEvent(rawBody: RawBody, signatureHeader: Header, secret: string, options: VerifyOptions = {}): WebhookEvent {
    const { timestamp, signatures } = parseHeader(signatureHeader, options);
    const expected = hmacNode(secret, timestamp, rawBody);
    if (!signatures.some((s) => sameHex(s, expected))) throw noMatch();
    return JSON.parse(text(rawBody)) as WebhookEvent;
  },

  /** The same check on WebCrypto, for edge runtimes (Cloudflare Workers, Deno, Vercel Edge). */
  async constructEventAsync(rawBody: RawBody, signatureHeader: Header, secret: string, options: VerifyOptions = {}): Promise<WebhookEvent> {
    const { timestamp, signatures } = parseHeader(signatureHeader, options);
    const expected = await hmacWeb(secret, timestamp, rawBody);
    if (!signatures.some((s) => sameHex(s, expected))) throw noMatch();
    return JSON.parse(text(rawBody)) as WebhookEvent;
  },

  /**
   * A `Service-Signature` header for a payload, as Innkeep would sign it, to test a receiver.
   * Several secrets give one `v1` each, as during a rotation.
   */
  generateTestHeader({ payload, secret, timestamp = Math.floor(Date.now() / 1000) }: { payload: RawBody; secret: string | string[]; timestamp?: number }): string {
    const secrets = Array.isArray(secret) ? secret : [secret];
    return [`t=${timestamp}`, ...secrets.map((s) => `v1=${hmacNode(s, timestamp, payload)}`)].join(",");
  },

  /** generateTestHeader on WebCrypto. */
  async generateTestHeaderAsync({ payload, secret, timestamp = Math.floor(Date.now() / 1000) }: { payload: RawBody; secret: string | string[]; timestamp?: number }): Promise<string> {
    const secrets = Array.isArray(secret) ? secret : [secret];
    return [`t=${timestamp}`, ...(await Promise.all(secrets.map(async (s) => `v1=${await hmacWeb(s, timestamp, payload)}`)))].join(",");
  },
};
