import type { IncomingMessage, ServerResponse } from "node:http";

export type Target = "api" | "next";

/** Exact paths the Hono app answers besides `/v1/…`: OAuth endpoints and operational probes. */
const apiPaths = new Set(["/v1", "/oauth/token", "/oauth/revoke", "/.well-known/oauth-authorization-server", "/healthz", "/readyz", "/metrics"]);

/**
 * Which app answers a request target (`/v1/properties?limit=2`): the Hono app for the REST API,
 * the OAuth token endpoints and the probes; Next for everything else (dashboard, sign-in, the
 * OAuth consent page, tRPC). Pure, so the decision is tested without starting anything.
 */
export function routeFor(url: string | undefined): Target {
  if (!url) return "next";
  // A proxy may send the absolute form (`GET http://host/v1/… HTTP/1.1`).
  const target = url.startsWith("/") ? url : url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "") || "/";
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  if (apiPaths.has(path) || path.startsWith("/v1/")) return "api";
  return "next";
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/** The Node request listener: each request goes to exactly one of the two apps. */
export function createListener(handlers: { api: Handler; next: Handler }): Handler {
  return (req, res) => (routeFor(req.url) === "api" ? handlers.api(req, res) : handlers.next(req, res));
}
