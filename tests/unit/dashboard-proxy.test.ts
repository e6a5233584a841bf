import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { proxyTo } from "@/server/process/dashboard";

// What the proxy logs, by level: a browser leaving early is routine (debug), an unreachable thread is not (error).
const logged = vi.hoisted(() => ({ error: [] as string[], debug: [] as string[] }));
vi.mock("@/server/observability/logger", () => {
  const record = (level: "error" | "debug") => (_fields: unknown, message: string) => void logged[level].push(message);
  const log = { error: record("error"), debug: record("debug"), info() {}, warn() {}, fatal() {}, trace() {}, child: () => log };
  return { logger: log };
});
beforeEach(() => {
  logged.error.length = 0;
  logged.debug.length = 0;
});

// The forwarder from the API's listener to the dashboard thread's socket. A kept-alive socket
// may be closed by the thread just as the next page request is written to it: the page must not
// answer 502 for that.

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function listen(server: http.Server, target: string | number) {
  await new Promise<void>((resolve) => server.listen(target, resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
}

/** A stand-in for the thread that drops the connection, unanswered, at its second request. */
async function threadClosingReusedSockets() {
  const socketPath = path.join(os.tmpdir(), `innkeep-proxy-test-${process.pid}-${Date.now().toString(36)}.sock`);
  const served = new WeakMap<object, number>();
  const thread = http.createServer((req, res) => {
    const n = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, n);
    if (n > 1) {
      req.socket.destroy();
      return;
    }
    res.end(`page ${req.method} ${req.url}`);
  });
  await listen(thread, socketPath);
  return socketPath;
}

async function front(socketPath: string) {
  const proxy = proxyTo(socketPath);
  closers.push(() => proxy.close());
  const server = http.createServer((req, res) => proxy.handle(req, res));
  await listen(server, 0);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the dashboard proxy", () => {
  it("sends a page request again on a fresh socket when the reused one was closed under it", async () => {
    const base = await front(await threadClosingReusedSockets());
    for (const url of ["/signin", "/reservations", "/calendar"]) {
      const answer = await fetch(`${base}${url}`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe(`page GET ${url}`);
    }
  });

  it("answers 502 for a request with a body rather than sending it twice", async () => {
    const base = await front(await threadClosingReusedSockets());
    expect((await fetch(`${base}/signin`)).status).toBe(200);
    const post = await fetch(`${base}/api/auth/callback`, { method: "POST", body: "a=1" });
    expect(post.status).toBe(502);
    expect(await post.text()).toBe("Bad Gateway");
  });

  it("logs a browser that closes its connection before the page is answered at debug, not as an unreachable thread", async () => {
    const socketPath = path.join(os.tmpdir(), `innkeep-proxy-abort-${process.pid}-${Date.now().toString(36)}.sock`);
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const upstreamClosed = new Promise<void>((resolve) => {
      // A slow page: the thread has the request and has not answered when the browser leaves.
      const thread = http.createServer((req) => {
        req.socket.once("close", () => resolve());
        arrived();
      });
      closers.push(() => new Promise((done) => (thread.closeAllConnections(), thread.close(() => done()))));
      thread.listen(socketPath);
    });
    const base = await front(socketPath);
    const browser = http.get(`${base}/calendar`);
    browser.on("error", () => {});
    await reached;
    browser.destroy();
    await upstreamClosed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logged.error).toEqual([]);
    expect(logged.debug).toEqual(["client closed the connection before the page was answered"]);
  });

  it("still logs an unreachable thread as an error", async () => {
    const base = await front(path.join(os.tmpdir(), `innkeep-proxy-nothing-${process.pid}-${Date.now().toString(36)}.sock`));
    const answer = await fetch(`${base}/signin`);
    expect(answer.status).toBe(502);
    expect(logged.error).toEqual(["dashboard thread unreachable"]);
    expect(logged.debug).toEqual([]);
  });
});
