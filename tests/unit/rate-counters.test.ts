import { EventEmitter } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RateLimiter } from "@/server/http/rate-limit";
import { answerRateAsks, PrimaryCounters, type Asks } from "@/server/process-plumbing/rate-counters";

// A cluster's workers count against the primary's one set of counters: one question per request,
// the questions of one turn of a worker's event loop in one message.

const limits = { perSecond: 2, perMinute: 100, perDay: 1_000 };
const now = Date.parse("2026-11-24T10:00:30.200Z");
afterEach(() => void vi.useRealTimers());

/** A worker's counters whose messages reach a primary holding `counters`; `messages` records each one sent. */
function worker(counters = new RateLimiter("memory")) {
  const messages: Asks[] = [];
  const channel = new EventEmitter();
  const asking = new PrimaryCounters(
    (asks) => {
      messages.push(asks);
      // As over IPC: JSON both ways, and the answers arrive later, as one message.
      void answerRateAsks(JSON.parse(JSON.stringify(asks)), counters).then((replies) => channel.emit("message", JSON.parse(JSON.stringify(replies))));
    },
    (on) => channel.on("message", on),
  );
  return { asking, messages, counters };
}

describe("the primary's counters, asked by workers", () => {
  it("counts every window in one message, and refuses the third request in a second", async () => {
    const primary = new RateLimiter("memory");
    const a = worker(primary);
    const b = worker(primary);
    const first = await a.asking.consume("acct:a:live", limits, now);
    const second = await b.asking.consume("acct:a:live", limits, now);
    const third = await a.asking.consume("acct:a:live", limits, now);
    expect([first.remaining, second.remaining]).toEqual([1, 0]);
    expect(third).toMatchObject({ remaining: 0, retryAfter: 1, limit: 100 });
    expect(a.messages.length + b.messages.length).toBe(3);
    // Both workers counted on the one store: the minute window holds all three.
    expect((await a.asking.peek("acct:a:live", limits, now)).minute).toMatchObject({ used: 3, limit: 100 });
    expect((await primary.peek("acct:a:live", limits, now)).day.resetsAt).toEqual(new Date("2026-11-25T00:00:00Z"));
  });

  it("keeps answers apart when questions overlap", async () => {
    const { asking } = worker();
    await asking.consume("acct:two:live", limits, now);
    const [one, two] = await Promise.all([asking.consume("acct:one:live", limits, now), asking.consume("acct:two:live", limits, now)]);
    expect([one.remaining, two.remaining]).toEqual([1, 0]);
  });

  it("sends the questions of one turn in one message, and counts and answers each in the order asked", async () => {
    const { asking, messages } = worker();
    const states = await Promise.all([1, 2, 3].map(() => asking.consume("acct:burst:live", limits, now)));
    expect(messages).toHaveLength(1);
    expect(messages[0].asks.map((a) => a.op)).toEqual(["consume", "consume", "consume"]);
    expect(states.map((s) => s.remaining)).toEqual([1, 0, 0]);
    expect(states.map((s) => s.retryAfter)).toEqual([undefined, undefined, 1]);
    // The next turn's question is a message of its own.
    await asking.consume("acct:burst:live", limits, now);
    expect(messages).toHaveLength(2);
  });

  it("fails every question of a message at once when the channel to the primary is closed", async () => {
    const closed = new PrimaryCounters(
      () => {
        throw new Error("Channel closed");
      },
      () => {},
    );
    const [state, usage] = [closed.consume("acct:a:live", limits, now), closed.peek("acct:a:live", limits, now)];
    // Served as when the store is down, without waiting out the 2 s of silence.
    expect(await state).toEqual({ limit: 100, remaining: 100, reset: Math.ceil(now / 1000) + 60 });
    await expect(usage).rejects.toThrow("Channel closed");
  });

  it("serves the request when the primary does not answer within 2 s, and says why in the log", async () => {
    vi.useFakeTimers();
    const silent = new PrimaryCounters(
      () => {},
      () => {},
    );
    const state = silent.consume("acct:a:live", limits, now);
    await vi.advanceTimersByTimeAsync(2_001);
    expect(await state).toEqual({ limit: 100, remaining: 100, reset: Math.ceil(now / 1000) + 60 });
  });

  it("turns a failure to read usage into an error with its reason", async () => {
    const broken = { consume: () => Promise.reject(new Error("unused")), peek: () => Promise.reject(new Error("counter store down")) };
    const channel = new EventEmitter();
    const asking = new PrimaryCounters(
      (asks) => void answerRateAsks(asks, broken).then((replies) => channel.emit("message", replies)),
      (on) => channel.on("message", on),
    );
    await expect(asking.peek("acct:a:live", limits, now)).rejects.toThrow("counter store down");
  });
});
