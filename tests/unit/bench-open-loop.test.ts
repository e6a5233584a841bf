import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { combineRuns, rampInTurns, type MixEntry } from "../../scripts/bench/open-loop";

// The bench's open loop: rounds taken in turns add up to one distribution per server, and the
// ramp takes servers in turns until each misses.

const mix: MixEntry[] = [
  { name: "read", weight: 1, request: { method: "GET", path: () => "/read" } },
  { name: "write", weight: 1, request: { method: "POST", path: () => "/write", body: () => ({}) } },
];

describe("combineRuns", () => {
  it("takes percentiles over every answer of every stretch, and adds up statuses, errors and failures", () => {
    const first = { sent: 100, seconds: 1, timeline: Array.from({ length: 100 }, (_, i): [number, number, string] => [i * 10, i + 1, "read"]), statuses: { 200: 99, 500: 1 }, failures: ["read: 500 internal_error"], errors: 0 };
    const second = { sent: 102, seconds: 1, timeline: Array.from({ length: 100 }, (_, i): [number, number, string] => [i * 10, 101 + i, "write"]), statuses: { 201: 100 }, failures: ["write: ECONNRESET", "write: ECONNRESET", "write: ECONNRESET", "write: ECONNRESET", "write: ECONNRESET"], errors: 2 };
    const r = combineRuns([first, second], 100, mix);
    expect(r).toMatchObject({ rate: 100, seconds: 2, sent: 202, p50: 100, p99: 198, p999: 200, non2xx: 1, errors: 2, statuses: { 200: 99, 201: 100, 500: 1 } });
    // The first five failures, the first stretch's first.
    expect(r.failures).toEqual(["read: 500 internal_error", ...Array(4).fill("write: ECONNRESET")]);
    expect(r.kinds).toEqual([
      { name: "read", count: 100, p50: 50, p99: 99 },
      { name: "write", count: 100, p50: 150, p99: 199 },
    ]);
  });
});

describe("rampInTurns", () => {
  const servers: http.Server[] = [];
  const hits = new Map<string, number>();
  /** A server answering every request after `delayMs`, counting what it was sent. */
  async function serve(name: string, delayMs: number) {
    const server = http.createServer((req, res) => {
      hits.set(name, (hits.get(name) ?? 0) + 1);
      req.resume();
      setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end("{}"), delayMs);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return { name, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, auth: {} };
  }
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));

  it("raises the rate while a server holds it, retries a miss once, and drops a server that misses twice", async () => {
    const fast = await serve("fast", 0);
    const slow = await serve("slow", 60);
    const rates: number[] = [];
    const steps = await rampInTurns([fast, slow], mix, { from: 20, step: 20, seconds: 0.25, goalP99: 50, upTo: 40, beforeRate: async (rate) => void rates.push(rate) });
    expect(steps.get("fast")!.map((s) => [s.rate, s.held])).toEqual([[20, true], [40, true]]);
    // Missed at the first rate, tried again, then out: no turn at 40.
    expect(steps.get("slow")!.map((s) => [s.rate, s.held])).toEqual([[20, false]]);
    expect(steps.get("slow")![0].p99).toBeGreaterThanOrEqual(60);
    expect(hits.get("slow")).toBe(2 * (20 + 5));
    expect(rates).toEqual([20, 40]);
  }, 20_000);
});
