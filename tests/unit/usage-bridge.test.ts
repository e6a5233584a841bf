import { MessageChannel } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { RateLimiter } from "@/server/http/rate-limit";
import { answerUsage, askParentThread, isUsageQuestion, type UsageSource } from "@/server/process-plumbing/usage-bridge";

// The dashboard's thread reads usage from the limiter that counts /v1, over a message port.

const limits = { perSecond: 10, perMinute: 100, perDay: 1_000 };
const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A parent thread answering from `source`, and the thread's side asking it. */
function bridge(source: UsageSource) {
  const channel = new MessageChannel();
  channels.push(channel);
  channel.port1.on("message", (m: unknown) => {
    if (isUsageQuestion(m)) void answerUsage(m, source).then((a) => channel.port1.postMessage(a));
  });
  return askParentThread(channel.port2);
}

describe("usage over the bridge", () => {
  it("reads the counting limiter's windows, dates included, without counting", async () => {
    const limiter = new RateLimiter("memory");
    const now = Date.parse("2026-11-24T10:00:30Z");
    for (let i = 0; i < 3; i++) await limiter.consume("acct:a:live", limits, now);
    const usage = await bridge(limiter).peek("acct:a:live", limits, now);
    expect(usage.minute).toMatchObject({ used: 3, limit: 100 });
    expect(usage.day).toEqual({ used: 3, limit: 1_000, resetsAt: new Date("2026-11-25T00:00:00Z") });
    expect(usage.minute.resetsAt).toBeInstanceOf(Date);
    // Reading did not count: the limiter itself still says 3.
    expect((await limiter.peek("acct:a:live", limits, now)).minute.used).toBe(3);
    expect((await bridge(limiter).peek("acct:other:live", limits, now)).minute.used).toBe(0);
  });

  it("turns a failure on the other side into an error with its reason", async () => {
    const broken: UsageSource = { peek: () => Promise.reject(new Error("counter store down")) };
    await expect(bridge(broken).peek("acct:a:live", limits)).rejects.toThrow("counter store down");
  });

  it("answers concurrent questions each with its own key", async () => {
    const limiter = new RateLimiter("memory");
    await limiter.consume("acct:one:live", limits);
    for (let i = 0; i < 2; i++) await limiter.consume("acct:two:live", limits);
    const asking = bridge(limiter);
    const [one, two] = await Promise.all([asking.peek("acct:one:live", limits), asking.peek("acct:two:live", limits)]);
    expect([one.minute.used, two.minute.used]).toEqual([1, 2]);
  });
});
