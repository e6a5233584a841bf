import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { proxyTo } from "@/server/process/dashboard";

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
});
