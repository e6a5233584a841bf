import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddressHeader, createListener, routeFor } from "@/server/listener";

describe("routeFor", () => {
  it.each([
    "/v1",
    "/v1/",
    "/v1/properties",
    "/v1/properties?limit=2",
    "/v1?x=1",
    "/v1/openapi.json",
    "/oauth/token",
    "/oauth/revoke",
    "/oauth/token?grant_type=refresh_token",
    "/.well-known/oauth-authorization-server",
    "/healthz",
    "/readyz",
    "/metrics",
    "http://example.com/v1/guests",
    "http://example.com:8080/healthz?probe=1",
  ])("sends %s to the REST app", (url) => {
    expect(routeFor(url)).toBe("api");
  });

  it.each([
    "/",
    "/login",
    "/v10",
    "/v1properties",
    "/v2/properties",
    "/api/trpc/reservations.list",
    "/api/auth/session",
    "/oauth/authorize?client_id=app_1",
    "/oauth/tokens",
    "/healthz/extra",
    "/_next/static/chunk.js",
    "/metrics.html",
    "http://example.com/",
    "http://example.com",
    undefined,
    "",
  ])("sends %s to Next", (url) => {
    expect(routeFor(url)).toBe("next");
  });
});

describe("the client address passed to pages", () => {
  it("replaces whatever the caller sent with the listener's own reading, and leaves API requests alone", () => {
    const seen: (string | string[] | undefined)[] = [];
    const listener = createListener({
      api: (req) => seen.push(req.headers[clientAddressHeader]),
      next: (req) => seen.push(req.headers[clientAddressHeader]),
      clientAddress: () => "192.0.2.10",
    });
    const request = (url: string) => ({ url, headers: { [clientAddressHeader]: "10.0.0.1" } }) as unknown as IncomingMessage;
    listener(request("/signin"), {} as ServerResponse);
    listener(request("/v1/properties"), {} as ServerResponse);
    expect(seen).toEqual(["192.0.2.10", "10.0.0.1"]);
  });
});
