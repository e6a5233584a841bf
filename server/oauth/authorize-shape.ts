/**
 * The checks of an authorization request that need no database: kept apart (no imports) so that
 * proxy.ts can answer a malformed request with a 400 page before the consent page runs, and the
 * page itself applies the very same rule.
 */

/** The query of `GET /oauth/authorize`, as given (a repeated parameter arrives as a list). */
export type AuthorizeParams = Record<string, string | string[] | undefined>;

/** A parameter given once: its value (undefined when absent or empty), or null when repeated. */
export const once = (params: AuthorizeParams, name: string): string | undefined | null => {
  const value = params[name];
  if (Array.isArray(value)) return null;
  return value === "" ? undefined : value;
};

/**
 * A request that cannot name an app or a place to send the person back (RFC 6749 §4.1.2.1: show
 * an error, never redirect): no client_id, or no redirect_uri that is an absolute URI.
 * Whether the app exists and registered that address is the page's question (it reads the
 * database).
 */
export function malformedAuthorizeRequest(params: AuthorizeParams): { title: string; message: string } | null {
  if (!once(params, "client_id")) return { title: "Unknown app", message: "The link that sent you here names no app (client_id is missing or repeated)." };
  const redirectUri = once(params, "redirect_uri");
  if (!redirectUri || !URL.canParse(redirectUri)) {
    return { title: "Redirect address not valid", message: "The link that sent you here gives no single, complete address to send you back to (redirect_uri). For your safety you were not sent anywhere." };
  }
  return null;
}
