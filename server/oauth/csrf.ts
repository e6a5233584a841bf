import { createHmac, timingSafeEqual } from "node:crypto";
import { staffSessionSecret } from "@/server/staff/secret";

/** How long a consent form stays valid. */
const lifetimeMs = 30 * 60 * 1000;

const sign = (payload: string) => createHmac("sha256", `oauth-consent:${staffSessionSecret()}`).update(payload).digest("base64url");

/**
 * The consent form's CSRF token: an HMAC over the signed-in user, the exact authorization
 * request and the time it was issued. Another site can neither read nor forge it, and it
 * cannot be replayed for another user or another app's request.
 */
export function consentToken(userId: string, requestKey: string, now = Date.now()): string {
  const issued = now.toString(36);
  return `${issued}.${sign(`${userId}\n${requestKey}\n${issued}`)}`;
}

export function verifyConsentToken(token: string | undefined | null, userId: string, requestKey: string, now = Date.now()): boolean {
  if (!token) return false;
  const [issued, mac] = token.split(".");
  if (!issued || !mac) return false;
  const at = parseInt(issued, 36);
  if (!Number.isFinite(at) || now - at > lifetimeMs || at - now > 60_000) return false;
  const expected = Buffer.from(sign(`${userId}\n${requestKey}\n${issued}`));
  const given = Buffer.from(mac);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The parts of an authorization request a consent token is bound to. */
export const requestKey = (r: { clientId: string; redirectUri: string; scopes: readonly string[]; state?: string; codeChallenge?: string }) =>
  JSON.stringify([r.clientId, r.redirectUri, [...r.scopes].sort(), r.state ?? "", r.codeChallenge ?? ""]);
