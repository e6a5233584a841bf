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
export function contentSecurityPolicy({ nonce, https, dev }: { nonce: string; https: boolean; dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** Whether the browser reached us over https: directly, or through a proxy that says so. */
export function servedOverHttps(url: URL, forwardedProto: string | null): boolean {
  const proto = forwardedProto?.split(",")[0]?.trim().toLowerCase();
  return proto ? proto === "https" : url.protocol === "https:";
}
