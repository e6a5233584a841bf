// Load generation: autocannon in this process, every response's latency kept so that rounds
// interleaved between the two servers add up to one distribution; and a plain sequential timer
// for heavy reads.
import autocannon from "autocannon";
import { addCpu, type CpuUse } from "./cpu";

/** One kind of request; the functions run for every request, so paths, bodies and keys can vary. */
export type RequestSpec = {
  method: "GET" | "POST";
  path: () => string;
  body?: () => unknown;
  headers?: () => Record<string, string>;
};

/** Where requests go: a server's base URL, its credentials, and a meter of its CPU. */
export type Target = { name: string; url: string; auth: Record<string, string>; meter?: () => () => CpuUse | undefined };

/** What one stretch of requests against one server gave. */
export type Round = { latencies: number[]; statuses: Record<string, number>; errors: number; seconds: number; cpu?: CpuUse };

export type Measurement = {
  kind: "load" | "sequential";
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Answers outside 2xx, and connection errors or timeouts: either makes the row suspect. */
  non2xx: number;
  errors: number;
  statuses: Record<string, number>;
  connections: number;
  seconds: number;
  /** CPU used while measuring (not during the warm-up). */
  cpu?: CpuUse;
};

/** The headers both load generators send: credentials, the JSON content type when there is a body, the request's own. */
export function headersFor(spec: RequestSpec, target: Target): Record<string, string> {
  return { ...target.auth, ...(spec.body ? { "content-type": "application/json" } : {}), ...spec.headers?.() };
}

/** Without a callback autocannon answers its instance, an event emitter that is also a promise of the result. */
type Running = autocannon.Instance & PromiseLike<autocannon.Result>;

function fire(target: Target, spec: RequestSpec, connections: number, seconds: number): Running {
  return autocannon({
    url: target.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: spec.method,
        setupRequest: (req) => ({
          ...req,
          path: spec.path(),
          headers: { ...req.headers, ...headersFor(spec, target) },
          ...(spec.body ? { body: JSON.stringify(spec.body()) } : {}),
        }),
      },
    ],
  }) as unknown as Running;
}

/** Load that is not measured: JIT, pools and caches settle first. */
export async function warmUp(target: Target, spec: RequestSpec, connections: number, seconds: number): Promise<void> {
  if (seconds > 0) await fire(target, spec, connections, seconds);
}

/** `seconds` of `connections` concurrent keep-alive connections, every latency kept. */
export async function loadRound(target: Target, spec: RequestSpec, connections: number, seconds: number): Promise<Round> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const read = target.meter?.();
  const instance = fire(target, spec, connections, seconds);
  instance.on("response", (_client, status, _bytes, time) => {
    latencies.push(time);
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const result = await instance;
  return { latencies, statuses, errors: result.errors + result.timeouts, seconds: result.duration, cpu: read?.() };
}

/** `count` requests one after another, each timed from send to the last byte of its body. */
export async function sequentialRound(target: Target, spec: RequestSpec, count: number): Promise<Round> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const read = target.meter?.();
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${target.url}${spec.path()}`, {
      method: spec.method,
      headers: headersFor(spec, target),
      body: spec.body ? JSON.stringify(spec.body()) : undefined,
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  }
  return { latencies, statuses, errors: 0, seconds: (performance.now() - started) / 1000, cpu: read?.() };
}

/** Rounds of one server as one measurement: req/s over all their time, percentiles over all latencies. */
export function summarize(rounds: Round[], kind: Measurement["kind"], connections: number): Measurement {
  const latencies = rounds.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const statuses: Record<string, number> = {};
  for (const r of rounds) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const seconds = rounds.reduce((s, r) => s + r.seconds, 0);
  return {
    kind,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    non2xx: Object.entries(statuses).reduce((n, [code, count]) => (code.startsWith("2") ? n : n + count), 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    statuses,
    connections,
    seconds,
    cpu: rounds.reduce<CpuUse | undefined>((sum, r) => addCpu(sum, r.cpu), undefined),
  };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** One request, which must answer `status` (a route that fails is reported, not benchmarked); gives the answer's JSON, if any. */
export async function check(target: Target, spec: RequestSpec, status: number): Promise<unknown> {
  const res = await fetch(`${target.url}${spec.path()}`, {
    method: spec.method,
    headers: headersFor(spec, target),
    body: spec.body ? JSON.stringify(spec.body()) : undefined,
  });
  const text = await res.text();
  if (res.status !== status) throw new Error(`${target.name} answered ${spec.method} ${res.url} with ${res.status}, expected ${status}: ${text.slice(0, 600)}`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
