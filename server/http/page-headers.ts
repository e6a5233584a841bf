/**
 * The security headers of every dashboard page, the OAuth consent page and /docs (the Hono API
 * sets its own). The fixed ones (X-Frame-Options, nosniff, Referrer-Policy) are in
 * next.config.mjs for every path; the Content-Security-Policy carries a fresh nonce per page and
 * is set by proxy.ts, which also adds HSTS over https.
 */

/** Two years, the HSTS preload list's minimum. */
export const hstsValue = "max-age=63072000; includeSubDomains";

/**
 * The page's policy. Scripts only from this origin with the nonce Next stamps on its own
 * (`strict-dynamic` lets those load their chunks); styles may be inline because Radix, Recharts
 * and the toaster set style attributes, which a nonce cannot cover and which cannot run code.
 * React's development build needs `eval`; production does not.
 */
export function contentSecurityPolicy({
  nonce,
  https,
  dev,
  formTargets = [],
  stripe = false,
}: {
  nonce: string;
  https: boolean;
  dev: boolean;
  formTargets?: string[];
  /** The page may take a card with Stripe.js (`takesCards`): Stripe's script, its API and its frames (the Payment Element, 3-D Secure). */
  stripe?: boolean;
}): string {
  // Stripe's own list (docs: Integration security guide, Content Security Policy), without Google
  // Maps (no address field). With 'strict-dynamic', CSP 3 browsers take Stripe.js from the nonced
  // loader and ignore the script host; older ones need it.
  const script = stripe ? " https://js.stripe.com https://*.js.stripe.com" : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${script}${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self'${stripe ? " https://api.stripe.com" : ""}`,
    ...(stripe ? ["frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com"] : []),
    "object-src 'none'",
    "base-uri 'self'",
    // The consent page (formTargets given) sets no form-action: its decision redirects to the
    // client's registered redirect_uri, which the decision itself checks.
    ...(formTargets.length ? [] : ["form-action 'self'"]),
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/**
 * Whether a page may take a card with Stripe.js: the signed-in dashboard, whose pages are one
 * application (a policy holds for the document first loaded, and a click from the reservations
 * list to a reservation's folio loads no new document), but not sign-in, the OAuth consent page,
 * the API reference or the guests' booking pages, which take no card here.
 */
export function takesCards(pathname: string): boolean {
  return !/^\/(signin|oauth|docs|book|api|v1)(\/|$)/.test(pathname);
}

/** Whether the browser reached us over https: directly, or through a proxy that says so. */
export function servedOverHttps(url: URL, forwardedProto: string | null): boolean {
  const proto = forwardedProto?.split(",")[0]?.trim().toLowerCase();
  return proto ? proto === "https" : url.protocol === "https:";
}

/**
 * Where the OAuth consent page's form may send the browser besides this origin: its Approve and
 * Deny post to /oauth/authorize/decision, which redirects to the client's `redirect_uri`, and
 * browsers hold a form's redirects to `form-action` too. The decision itself checks the
 * redirect_uri against the client's registered ones; this only names its origin (or, for a
 * native app's reversed-domain scheme, the scheme) so that an allowed redirect is not blocked. Nothing for any other
 * page, or for a value that is not a URL.
 */
export function consentFormTargets(pathname: string, redirectUri: string | null): string[] {
  if (pathname !== "/oauth/authorize" || !redirectUri) return [];
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return [];
  }
  if (url.protocol === "http:" || url.protocol === "https:") return [url.origin];
  // A native app's private-use scheme is a reversed domain name (RFC 8252 §7.1), so it has a dot;
  // that also keeps out javascript:, data: and the like.
  return /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/.test(url.protocol) ? [url.protocol] : [];
}
