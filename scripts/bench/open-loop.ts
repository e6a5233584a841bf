// An open-loop load: requests leave at a fixed arrival rate whatever the server's answers do
// (autocannon's closed connections slow down with the server and hide its queueing). Each
// latency is timed from the request's scheduled departure, so a stalled server shows in p99.
import type { RequestSpec, Target } from "./load";
import { percentile } from "./load";

/** One kind of request and its share of the mix. */
export type MixEntry = { name: string; weight: number; request: RequestSpec };

export type OpenLoopResult = {
  rate: number;
  seconds: number;
  sent: number;
  p50: number;
  p99: number;
  p999: number;
  /** Answers outside 2xx, and failed or timed-out requests. */
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
};

/** Sends `rate` requests a second for `seconds`, drawn from `mix` by weight. */
export async function openLoop(target: Target, mix: MixEntry[], rate: number, seconds: number): Promise<OpenLoopResult> {
  const total = mix.reduce((s, m) => s + m.weight, 0);
  const pick = () => {
    let r = Math.random() * total;
    for (const m of mix) if ((r -= m.weight) < 0) return m;
    return mix[mix.length - 1];
  };
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let errors = 0;
  const count = Math.round(rate * seconds);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const { request } = pick();
    inFlight.push(
      fetch(`${target.url}${request.path()}`, {
        method: request.method,
        headers: { ...target.auth, ...(request.body ? { "content-type": "application/json" } : {}), ...request.headers?.() },
        body: request.body ? JSON.stringify(request.body()) : undefined,
        signal: AbortSignal.timeout(10_000),
      }).then(
        async (res) => {
          await res.arrayBuffer();
          latencies.push(performance.now() - due);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  return {
    rate,
    seconds,
    sent: count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    p999: percentile(latencies, 99.9),
    non2xx: Object.entries(statuses).reduce((n, [code, c]) => (code.startsWith("2") ? n : n + c), 0),
    errors,
    statuses,
  };
}
