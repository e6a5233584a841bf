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
    "/stripe/webhooks/ppr_9aV3kQ2rT8mX1nB4cD6eF0gH",
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
    "/stripe/webhooks",
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

describe("methods the Fetch standard forbids", () => {
  it("are refused with 405 before a page sees them (Next would throw building its Request); the API answers its own", async () => {
    const { createServer, request } = await import("node:http");
    const server = createServer(createListener({ api: (_, res) => res.end("api"), next: (_, res) => res.end("page") }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as import("node:net").AddressInfo;
    const send = (method: string, path: string) =>
      new Promise<{ status: number; allow?: string; body: string }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, method, path }, (res) => {
          let body = "";
          res.on("data", (chunk) => (body += chunk));
          res.on("end", () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      expect(await send("TRACE", "/oauth/authorize?client_id=x")).toEqual({ status: 405, allow: "GET, HEAD, POST", body: "Method Not Allowed" });
      expect(await send("TRACE", "/")).toMatchObject({ status: 405 });
      expect(await send("TRACE", "/v1/properties")).toMatchObject({ status: 200, body: "api" });
      expect(await send("GET", "/signin")).toMatchObject({ status: 200, body: "page" });
      expect(await send("DELETE", "/signin")).toMatchObject({ status: 200, body: "page" });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
