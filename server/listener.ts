import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { errorCodes, type ErrorCode } from "@/server/errors";
import { newId } from "@/server/ids";

export type Target = "api" | "next";

/** Exact paths the Hono app answers besides `/v1/…`, Stripe's events (`/stripe/webhooks/…`) and the booking engine's posts (`/book-api/…`): OAuth endpoints and operational probes. */
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
  if (apiPaths.has(path) || path.startsWith("/v1/") || path.startsWith("/stripe/webhooks/") || path.startsWith("/book-api/")) return "api";
  return "next";
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * The caller's address as this listener worked it out (socket and TRUST_PROXY), passed to Next's
 * pages (staff sign-in counts failures per address); whatever a caller sent in it is replaced.
 */
export const clientAddressHeader = "x-innkeep-client-address";

/**
 * Methods the Fetch standard forbids: Next (its proxy.ts builds a `Request`) throws on them and
 * would answer 500, so the pages refuse them here (the API answers them with its own 405).
 */
const forbiddenMethods = new Set(["CONNECT", "TRACE"]);

/** The Node request listener: each request goes to exactly one of the two apps. */
export function createListener(handlers: { api: Handler; next: Handler; clientAddress?: (req: IncomingMessage) => string | undefined }): Handler {
  return (req, res) => {
    if (routeFor(req.url) === "api") return handlers.api(req, res);
    if (forbiddenMethods.has(req.method ?? "")) {
      res.writeHead(405, { allow: "GET, HEAD, POST", "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      return res.end("Method Not Allowed");
    }
    req.headers[clientAddressHeader] = handlers.clientAddress?.(req) ?? "";
    return handlers.next(req, res);
  };
}

/**
 * Keep-alive longer than the idle timeout of the proxies and clients in front of us (60 s is the
 * common one): a client that reuses a socket the server is closing at that moment gets a reset;
 * with Node's 5 s that moment came within a page's pause (docs/decisions.md).
 */
export function holdIdleConnections(server: Pick<Server, "keepAliveTimeout" | "headersTimeout">): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

/**
 * Node's `clientError`: a request its parser refused before any app saw it (headers over 16 KB,
 * raw non-ASCII or spaces in the URL, a broken request line). Node's own answer has no body; this
 * one is the contract's JSON error with a `Service-Request-Id`, then the connection closes.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const [code, message]: [ErrorCode, string] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? ["headers_too_large", "The request's headers are larger than the server accepts (16 KB in all)."]
      : ["malformed_request", "The request could not be read as HTTP: characters outside ASCII in the URL must be percent-encoded, and the request line and headers must follow RFC 9112."];
  const requestId = newId("request");
  const { status, type } = errorCodes[code];
  const body = JSON.stringify({ error: { type, code, message, request_id: requestId } });
  const reason = status === 431 ? "Request Header Fields Too Large" : "Bad Request";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Service-Request-Id: ${requestId}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`,
  );
}
