// The settings page's API usage, read where the counters are. The dashboard runs in its own
// thread (and in a cluster, in the primary process), while /v1 counts requests in the listener's
// thread or, across workers, in the primary (or in Redis). So the dashboard asks its parent
// thread, which reads its own limiter, the primary's counters, or with Redis asks a worker.
import type { MessagePort } from "node:worker_threads";
import type { RateLimits } from "@/server/plans";
import type { RateCounter, UsageSource } from "@/server/http/rate-limit";
import { askOver } from "./ask-over";

export type Usage = Awaited<ReturnType<RateCounter["peek"]>>;
export type { UsageSource };

type Question = { innkeep: "usage"; id: number; key: string; limits: RateLimits; now: number };
type Answer = { innkeep: "usage"; id: number; usage: WireUsage | null; error?: string };
// Cluster IPC is JSON: dates travel as milliseconds.
export type WireUsage = Record<keyof Usage, { used: number; limit: number | null; resetsAt: number | null }>;

export const toWire = (u: Usage): WireUsage =>
  Object.fromEntries(Object.entries(u).map(([k, w]) => [k, { ...w, resetsAt: w.resetsAt?.getTime() ?? null }])) as WireUsage;
export const fromWire = (u: WireUsage): Usage =>
  Object.fromEntries(Object.entries(u).map(([k, w]) => [k, { ...w, resetsAt: w.resetsAt === null ? null : new Date(w.resetsAt) }])) as Usage;

export const isUsageQuestion = (m: unknown): m is Question => (m as Question | null)?.innkeep === "usage" && typeof (m as Question).key === "string";
const isUsageAnswer = (m: unknown): m is Answer => (m as Answer | null)?.innkeep === "usage" && "usage" in (m as Answer);

/** Answers one question from `source` (the thread's or worker's own limiter). */
export async function answerUsage(question: Question, source: UsageSource): Promise<Answer> {
  try {
    return { innkeep: "usage", id: question.id, usage: toWire(await source.peek(question.key, question.limits, question.now)) };
  } catch (error) {
    return { innkeep: "usage", id: question.id, usage: null, error: (error as Error).message };
  }
}

/**
 * A usage source that asks over a channel (a thread's port, or a worker process): `send` posts
 * the question, `subscribe` delivers every incoming message. Unanswered within 2 s: an error.
 */
export function askingOver(send: (q: Question) => void, subscribe: (onMessage: (m: unknown) => void) => void): UsageSource {
  const ask = askOver(subscribe, isUsageAnswer, "The API's rate-limit counters did not answer within 2 s.");
  return {
    async peek(key, limits, now = Date.now()) {
      const { usage } = await ask((id) => send({ innkeep: "usage", id, key, limits, now }));
      if (!usage) throw new Error("The API's rate-limit counters could not be read.");
      return fromWire(usage);
    },
  };
}

/** The dashboard thread's source: its parent thread. */
export const askParentThread = (port: MessagePort): UsageSource =>
  askingOver(
    (q) => port.postMessage(q),
    (on) => port.on("message", on),
  );

type Holder = { __innkeepUsageSource?: UsageSource };
/** Set once in the dashboard thread; elsewhere the process's own limiter counts and reads. */
export const setUsageSource = (source: UsageSource) => void ((globalThis as Holder).__innkeepUsageSource = source);
export const registeredUsageSource = (): UsageSource | undefined => (globalThis as Holder).__innkeepUsageSource;
