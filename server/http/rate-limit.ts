import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import type { Redis } from "ioredis";
import type { RateLimits } from "@/server/plans";
import { logger } from "@/server/observability/logger";

/** One window's count as it stands: requests counted so far, the limit, and when the window resets. */
export type WindowUsage = { used: number; limit: number | null; resetsAt: Date | null };

/** The counter key of an account's requests in one environment (sandbox is counted apart). */
export const accountRateKey = (accountId: string, livemode: boolean) => `acct:${accountId}:${livemode ? "live" : "test"}`;

/** What the three X-RateLimit-* headers say, and Retry-After when over. */
export type RateState = { limit: number; remaining: number; reset: number; retryAfter?: number };

type Window = { name: "second" | "minute" | "day"; seconds: number; key: keyof RateLimits };
const windows: Window[] = [
  { name: "second", seconds: 1, key: "perSecond" },
  { name: "minute", seconds: 60, key: "perMinute" },
  { name: "day", seconds: 86_400, key: "perDay" },
];

/** Where the counters live: this process or Redis (a cluster's workers ask the primary's: server/process-plumbing/rate-counters.ts). */
export type CounterStore = Redis | "memory";

/** What the REST API counts with and the dashboard reads usage from: a RateLimiter, or a way to ask one. */
export type RateCounter = Pick<RateLimiter, "consume" | "peek">;

/** The state reported when no window applies, or the counter store cannot be reached (the request is served). */
export function unlimitedState(limits: RateLimits, now: number): RateState {
  const minuteLimit = limits.perMinute ?? limits.perSecond ?? 0;
  return { limit: minuteLimit, remaining: minuteLimit, reset: Math.ceil(now / 1000) + 60 };
}

/**
 * Counts requests per key in three windows (second, minute, UTC day) with rate-limiter-flexible,
 * in memory or in Redis. One limiter per (window, limit) pair, since accounts differ in limits.
 */
export class RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();
  constructor(private readonly store: CounterStore = "memory") {}

  private limiter(window: Window, points: number): RateLimiterAbstract {
    const id = `${window.name}:${points}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { points, duration: window.seconds, keyPrefix: `innkeep:rl:${id}` };
      const store = this.store;
      limiter = store === "memory" ? new RateLimiterMemory(options) : new RateLimiterRedis({ ...options, storeClient: store });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }

  /**
   * How much of each window `key` has used, without counting a request: the same limiters and
   * keys as `consume`, read with `get`. A window nobody has used yet reads as 0.
   */
  async peek(key: string, limits: RateLimits, now = Date.now()): Promise<Record<Window["name"], WindowUsage>> {
    const day = new Date(now).toISOString().slice(0, 10);
    const nextUtcMidnight = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    const entries = await Promise.all(
      windows.map(async (window): Promise<[Window["name"], WindowUsage]> => {
        const points = limits[window.key];
        const dayReset = window.name === "day" ? new Date(nextUtcMidnight) : null;
        if (points === null) return [window.name, { used: 0, limit: null, resetsAt: dayReset }];
        const windowKey = window.name === "day" ? `${key}:${day}` : key;
        const res = await this.limiter(window, points)
          .get(windowKey)
          .catch((error: unknown) => {
            logger.error({ err: error }, "rate limiter store unavailable");
            return null;
          });
        const used = res ? Math.min(res.consumedPoints, points) : 0;
        const resetsAt = dayReset ?? (res && res.msBeforeNext > 0 ? new Date(now + res.msBeforeNext) : null);
        return [window.name, { used, limit: points, resetsAt }];
      }),
    );
    return Object.fromEntries(entries) as Record<Window["name"], WindowUsage>;
  }

  /** Consumes one request for `key` and reports the state of the tightest window. */
  async consume(key: string, limits: RateLimits, now = Date.now()): Promise<RateState> {
    const day = new Date(now).toISOString().slice(0, 10);
    const nextUtcMidnight = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    const results = await Promise.all(
      windows.map(async (window) => {
        const points = limits[window.key];
        if (points === null) return null;
        // The daily window is the UTC day: the date in the key starts a fresh count at midnight.
        const windowKey = window.name === "day" ? `${key}:${day}` : key;
        let res: RateLimiterRes;
        let over = false;
        try {
          res = await this.limiter(window, points).consume(windowKey);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) {
            // The counter store is down: serve the request rather than fail every caller.
            logger.error({ err: error }, "rate limiter store unavailable");
            return null;
          }
          res = error;
          over = true;
        }
        const resetMs = window.name === "day" ? nextUtcMidnight : now + res.msBeforeNext;
        return { window, points, over, remaining: Math.max(0, res.remainingPoints), resetMs, retryMs: res.msBeforeNext };
      }),
    );
    const active = results.filter((r) => r !== null);
    if (active.length === 0) return unlimitedState(limits, now);
    const minuteLimit = limits.perMinute ?? limits.perSecond ?? 0;
    const tightest = active.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    const exceeded = active.filter((r) => r.over);
    const state: RateState = { limit: minuteLimit, remaining: tightest.remaining, reset: Math.ceil(tightest.resetMs / 1000) };
    if (exceeded.length > 0) {
      const waitMs = Math.max(...exceeded.map((r) => (r.window.name === "day" ? nextUtcMidnight - now : r.retryMs)));
      state.retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      state.remaining = 0;
    }
    return state;
  }
}

/** What reads usage: a RateLimiter, or a bridge to the one that counts. */
export type UsageSource = Pick<RateCounter, "peek">;
