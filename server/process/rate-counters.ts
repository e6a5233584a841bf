// A cluster's rate-limit counters without Redis: the primary process holds them in one in-memory
// RateLimiter, and each worker asks it in ONE IPC message per request, all three windows at once.
// rate-limiter-flexible's RateLimiterCluster sends one message per window, so three round trips
// through the primary per request; on two cores shared with PostgreSQL those wake-ups showed in
// the N-worker bench line (docs/decisions.md).
import cluster from "node:cluster";
import type { RateLimits } from "@/server/accounts/plans";
import { unlimitedState, type RateCounter, type RateState } from "@/server/http/rate-limit";
import { logger } from "@/server/observability/logger";
import { askOver } from "./ask-over";
import { fromWire, toWire, type Usage, type WireUsage } from "./usage-bridge";

export type Ask = { innkeep: "rate"; id: number; op: "consume" | "peek"; key: string; limits: RateLimits; now: number };
export type Reply = { innkeep: "rate"; id: number; state?: RateState; usage?: WireUsage; error?: string };

const isAsk = (m: unknown): m is Ask => (m as Ask | null)?.innkeep === "rate" && typeof (m as Ask).key === "string";
const isReply = (m: unknown): m is Reply => (m as Reply | null)?.innkeep === "rate" && typeof (m as Reply).id === "number" && !("key" in (m as object));

/** The primary's answer to one worker's question, from `counters`. */
export async function answerRateAsk({ id, op, key, limits, now }: Ask, counters: RateCounter): Promise<Reply> {
  try {
    if (op === "consume") return { innkeep: "rate", id, state: await counters.consume(key, limits, now) };
    return { innkeep: "rate", id, usage: toWire(await counters.peek(key, limits, now)) };
  } catch (error) {
    return { innkeep: "rate", id, error: (error as Error).message };
  }
}

/** In the primary: counts and reads for every worker with `counters` (the primary's in-memory RateLimiter). */
export function serveRateCounters(counters: RateCounter): void {
  cluster.on("message", (worker, message: unknown) => {
    if (!isAsk(message)) return;
    void answerRateAsk(message, counters).then((reply) => worker.isConnected() && worker.send(reply));
  });
}

/**
 * In a worker: the RateLimiter's two questions, asked of the primary. Unanswered within 2 s (the
 * primary is gone or stuck), a request is served, as when Redis is down, and the failure logged.
 */
export class PrimaryCounters implements RateCounter {
  private readonly ask: (send: (id: number) => void) => Promise<Reply>;

  /** `send` reaches the primary and `subscribe` hears its replies: the worker's IPC channel unless told otherwise (tests). */
  constructor(
    private readonly send: (ask: Ask) => void = (ask) => process.send!(ask),
    subscribe: (onMessage: (message: unknown) => void) => void = (on) => process.on("message", on),
  ) {
    this.ask = askOver(subscribe, isReply, "The cluster's rate-limit counters did not answer within 2 s.");
  }

  private question(op: Ask["op"], key: string, limits: RateLimits, now: number): Promise<Reply> {
    return this.ask((id) => this.send({ innkeep: "rate", id, op, key, limits, now }));
  }

  async consume(key: string, limits: RateLimits, now = Date.now()): Promise<RateState> {
    try {
      return (await this.question("consume", key, limits, now)).state!;
    } catch (error) {
      logger.error({ err: error }, "rate limiter store unavailable");
      return unlimitedState(limits, now);
    }
  }

  async peek(key: string, limits: RateLimits, now = Date.now()): Promise<Usage> {
    return fromWire((await this.question("peek", key, limits, now)).usage!);
  }
}
