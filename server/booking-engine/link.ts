import { createHash, createHmac } from "node:crypto";

/**
 * The manage link's token, derived from the booking form's token (256 random bits only the
 * guest's browser held): HMAC-SHA256 keyed by it. The confirmation page (which has the form's
 * token) and the booking (which mails it) both write the same link; the server keeps only its
 * SHA-256, so neither token can be read back from the database.
 */
export const manageTokenOf = (formToken: string) => createHmac("sha256", formToken).update("innkeep:manage-booking").digest("base64url");
/** What the database keeps of a manage token: its SHA-256. */
export const manageTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The manage page's address for a token, in the guest's language. */
export const managePath = (slug: string, token: string, lang?: string) => `/book/${encodeURIComponent(slug)}/manage?${new URLSearchParams({ token, ...(lang ? { lang } : {}) })}`;

