// A cluster's rate-limit counters without Redis: the primary process holds them in one in-memory
// RateLimiter, and each worker asks it over IPC, all three windows of a request in one question.
// rate-limiter-flexible's RateLimiterCluster sends one message per window, so three round trips
// through the primary per request. The questions a worker asks in one turn of its event loop
// travel together in one message, and their answers in one reply: every IPC message is a pipe
// write and a wake-up of the other process, which on two cores shared with PostgreSQL was most
// of what a second worker cost over one (docs/decisions.md).
import cluster from "node:cluster";
import type { RateLimits } from "@/server/plans";
import { unlimitedState, type RateCounter, type RateState } from "@/server/http/rate-limit";
import { logger } from "@/server/observability/logger";
import { askOver } from "./ask-over";
import { fromWire, toWire, type Usage, type WireUsage } from "./usage-bridge";

export type Ask = { id: number; op: "consume" | "peek"; key: string; limits: RateLimits; now: number };
export type Reply = { id: number; state?: RateState; usage?: WireUsage; error?: string };
/** The questions of one turn of a worker's event loop, and their answers, each as one message. */
export type Asks = { innkeep: "rates"; asks: Ask[] };
export type Replies = { innkeep: "rates"; replies: Reply[] };

const isAsks = (m: unknown): m is Asks => (m as Asks | null)?.innkeep === "rates" && Array.isArray((m as Asks).asks);
const isReplies = (m: unknown): m is Replies => (m as Replies | null)?.innkeep === "rates" && Array.isArray((m as Replies).replies);
// Replies come only unpacked from a Replies message, so an id is all that tells one.
const isReply = (m: unknown): m is Reply => typeof (m as Reply | null)?.id === "number";

/** The primary's answer to one worker's question, from `counters`. */
async function answerRateAsk({ id, op, key, limits, now }: Ask, counters: RateCounter): Promise<Reply> {
  try {
    if (op === "consume") return { id, state: await counters.consume(key, limits, now) };
    return { id, usage: toWire(await counters.peek(key, limits, now)) };
  } catch (error) {
    return { id, error: (error as Error).message };
  }
}

/** The answers to one message of questions, in one message, counted in the order asked. */
export async function answerRateAsks({ asks }: Asks, counters: RateCounter): Promise<Replies> {
  return { innkeep: "rates", replies: await Promise.all(asks.map((ask) => answerRateAsk(ask, counters))) };
}

/** In the primary: counts and reads for every worker with `counters` (the primary's in-memory RateLimiter). */
export function serveRateCounters(counters: RateCounter): void {
  cluster.on("message", (worker, message: unknown) => {
    if (!isAsks(message)) return;
    void answerRateAsks(message, counters).then((replies) => worker.isConnected() && worker.send(replies));
  });
}

/**
 * In a worker: the RateLimiter's two questions, asked of the primary. Unanswered within 2 s (the
 * primary is gone or stuck), a request is served, as when Redis is down, and the failure logged.
 */
export class PrimaryCounters implements RateCounter {
  private readonly ask: (send: (id: number) => void) => Promise<Reply>;
  private deliver: (message: unknown) => void = () => {};
  private waiting: Ask[] = [];

  /** `send` reaches the primary and `subscribe` hears its replies: the worker's IPC channel unless told otherwise (tests). */
  constructor(
    private readonly send: (asks: Asks) => void = (asks) => process.send!(asks),
    subscribe: (onMessage: (message: unknown) => void) => void = (on) => process.on("message", on),
  ) {
    this.ask = askOver(
      (on) => {
        this.deliver = on;
        subscribe((message) => (isReplies(message) ? message.replies.forEach(on) : undefined));
      },
      isReply,
      "The cluster's rate-limit counters did not answer within 2 s.",
    );
  }

  private question(op: Ask["op"], key: string, limits: RateLimits, now: number): Promise<Reply> {
    return this.ask((id) => {
      // The first question of this turn sends them all once the turn's I/O callbacks have run.
      if (this.waiting.push({ id, op, key, limits, now }) === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const asks = this.waiting;
    this.waiting = [];
    try {
      this.send({ innkeep: "rates", asks });
    } catch (error) {
      // The channel is closed: each question fails now rather than after 2 s of silence.
      for (const { id } of asks) this.deliver({ id, error: (error as Error).message });
    }
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
