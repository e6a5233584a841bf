// An open-loop load: requests leave at a fixed arrival rate whatever the server's answers do
// (autocannon's closed connections slow down with the server and hide its queueing). Each
// latency is timed from the request's scheduled departure, so a stalled server shows in p99.
import http from "node:http";
import type { RequestSpec, Target } from "./load";
import { headersFor, percentile } from "./load";
import type { CpuUse } from "./cpu";

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
  /** The first few failures, each as "kind: 409 no_availability" or "kind: ECONNRESET", to say what went wrong. */
  failures: string[];
  /** p50 and p99 of each kind of request in the mix, to say which one makes the tail. */
  kinds: { name: string; count: number; p50: number; p99: number }[];
  /** Every answered request: ms from the start to its scheduled departure, its latency, its kind. */
  timeline: [number, number, string][];
};

/** Sends `rate` requests a second for `seconds`, drawn from `mix` by weight. */
export async function openLoop(target: Target, mix: MixEntry[], rate: number, seconds: number): Promise<OpenLoopResult> {
  const total = mix.reduce((s, m) => s + m.weight, 0);
  const pick = () => {
    let r = Math.random() * total;
    for (const m of mix) if ((r -= m.weight) < 0) return m;
    return mix[mix.length - 1];
  };
  const count = Math.round(rate * seconds);
  const run: Run = { sent: count, seconds, timeline: [], statuses: {}, failures: [], errors: 0 };
  const noteFailure = (line: string) => run.failures.length < maxFailuresKept && run.failures.push(line);
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  // Kept-alive sockets, as many as the backlog needs (an open loop never waits for a free one).
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  for (let i = 0; i < count; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const { name, request } = pick();
    inFlight.push(
      send(agent, target, request).then(
        ({ status, code }) => {
          run.timeline.push([due - started, performance.now() - due, name]);
          run.statuses[status] = (run.statuses[status] ?? 0) + 1;
          if (!isOk(status)) noteFailure(`${name}: ${status}${code ? ` ${code}` : ""}`);
        },
        (error: NodeJS.ErrnoException) => {
          run.errors++;
          noteFailure(`${name}: ${error.code ?? error.name}${error.message ? ` (${error.message})` : ""}`);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return combineRuns([run], rate, mix);
}

/** What one stretch of open loop gave, before percentiles. */
type Run = Pick<OpenLoopResult, "sent" | "seconds" | "timeline" | "statuses" | "failures" | "errors">;

/**
 * Stretches of the same rate and mix against one server as one result (rounds taken in turns
 * with other servers): percentiles over every answer of every stretch. The timeline keeps each
 * stretch's own clock.
 */
export function combineRuns(runs: Run[], rate: number, mix: MixEntry[]): OpenLoopResult {
  const timeline = runs.flatMap((r) => r.timeline);
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const sorted = (of: (typeof timeline)[number][]) => of.map(([, latency]) => latency).sort((a, b) => a - b);
  const latencies = sorted(timeline);
  return {
    rate,
    seconds: runs.reduce((s, r) => s + r.seconds, 0),
    sent: runs.reduce((s, r) => s + r.sent, 0),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    p999: percentile(latencies, 99.9),
    non2xx: Object.entries(statuses).reduce((n, [code, c]) => (isOk(Number(code)) ? n : n + c), 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    statuses,
    failures: runs.flatMap((r) => r.failures).slice(0, maxFailuresKept),
    timeline,
    kinds: mix.map(({ name }) => {
      const l = sorted(timeline.filter(([, , kind]) => kind === name));
      return { name, count: l.length, p50: percentile(l, 50), p99: percentile(l, 99) };
    }),
  };
}

const maxFailuresKept = 5;
const isOk = (status: number) => status >= 200 && status <= 299;

/**
 * One request through node:http, answering its status once the whole body is read, and for an
 * answer outside 2xx the contract's error code from its body. Not fetch: its
 * WHATWG streams cost the load generator, which shares the machine's two cores with both servers,
 * about twice the CPU per request.
 */
function send(agent: http.Agent, target: Target, request: RequestSpec): Promise<{ status: number; code?: string }> {
  const body = request.body ? JSON.stringify(request.body()) : undefined;
  const headers = { ...headersFor(request, target), ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) };
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${target.url}${request.path()}`,
      { method: request.method, headers, agent, signal: AbortSignal.timeout(10_000) },
      (res) => {
        const status = res.statusCode ?? 0;
        const ok = isOk(status);
        let text = "";
        res.on("data", (chunk: Buffer) => {
          if (!ok && text.length < 4096) text += chunk.toString();
        });
        res.on("end", () => resolve(ok ? { status } : { status, code: errorCode(text) }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function errorCode(body: string): string | undefined {
  try {
    return (JSON.parse(body) as { error?: { code?: string } }).error?.code;
  } catch {
    return body ? body.slice(0, 80) : undefined;
  }
}

/**
 * One measured stretch of a server taken in turns with others: a second of lead-in at the rate,
 * unmeasured (the server sat idle through its neighbours' turns), then `seconds` measured, with
 * the CPU each party used while measuring.
 */
export async function measuredStretch(target: Target, mix: MixEntry[], rate: number, seconds: number): Promise<{ result: OpenLoopResult; cpu?: CpuUse }> {
  await openLoop(target, mix, rate, 1);
  const read = target.meter?.();
  const result = await openLoop(target, mix, rate, seconds);
  return { result, cpu: read?.() };
}

/** One server at one rate of a ramp, and whether it held that rate. */
export type RampStep = { rate: number; held: boolean; p50: number; p99: number; failed: number; cpu?: CpuUse; kinds: OpenLoopResult["kinds"] };

/**
 * The highest arrival rate each server holds, searched from a rate every server holds (`from`),
 * the servers taken in turns at every probe, the first of each turn rotating (so a slower minute
 * of the machine, or the database growing with the bookings, meets them all alike). Each server
 * doubles its rate while it holds; after its first miss it halves the gap between its highest
 * rate held and its lowest missed until that gap is at most `step`. At each rate one unmeasured
 * second, then `seconds` measured; held = no failure and p99 under `goalP99`. A miss is taken
 * again once (on cores shared with PostgreSQL and this generator one stall can push a held
 * rate's p99 over). A server that misses `from` has held nothing.
 */
export async function rampInTurns(
  targets: Target[],
  mix: MixEntry[],
  options: {
    from: number;
    step: number;
    seconds: number;
    goalP99: number;
    upTo: number;
    /** Runs before each round of probes, unmeasured (the bench's stand-in for autovacuum). */
    beforeRate?: (rate: number) => Promise<void>;
    onStep?: (server: string, step: RampStep) => void;
  },
): Promise<Map<string, RampStep[]>> {
  const { from, step, seconds, goalP99, upTo, beforeRate, onStep } = options;
  const steps = new Map<string, RampStep[]>(targets.map((t) => [t.name, []]));
  const next = (name: string): number | undefined => {
    const tried = steps.get(name)!;
    if (!tried.length) return from;
    const held = Math.max(0, ...tried.filter((s) => s.held).map((s) => s.rate));
    const missed = Math.min(Infinity, ...tried.filter((s) => !s.held).map((s) => s.rate));
    if (held === 0) return undefined; // missed the rate every server was meant to hold
    if (missed === Infinity) return held >= upTo ? undefined : Math.min(upTo, held * 2);
    if (missed - held <= step) return undefined;
    // Halfway, rounded to the step, so the rates tried read as round numbers.
    const middle = Math.round((held + missed) / 2 / step) * step;
    return middle > held && middle < missed ? middle : held + step < missed ? held + step : undefined;
  };
  for (let turn = 0; ; turn++) {
    const probes = targets.map((t) => [t, next(t.name)] as const).filter((p): p is readonly [Target, number] => p[1] !== undefined);
    if (!probes.length) break;
    await beforeRate?.(Math.max(...probes.map(([, rate]) => rate)));
    const order = probes.map((_, i) => probes[(i + turn) % probes.length]);
    for (const [target, rate] of order) {
      let last: RampStep | undefined;
      for (let attempt = 0; attempt < 2 && !last?.held; attempt++) {
        const { result: r, cpu } = await measuredStretch(target, mix, rate, seconds);
        const failed = r.non2xx + r.errors;
        last = { rate, held: failed === 0 && r.p99 < goalP99, p50: r.p50, p99: r.p99, failed, cpu, kinds: r.kinds };
      }
      steps.get(target.name)!.push(last!);
      onStep?.(target.name, last!);
    }
  }
  return steps;
}
