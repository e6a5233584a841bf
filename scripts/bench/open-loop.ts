// An open-loop load: requests leave at a fixed arrival rate whatever the server's answers do
// (autocannon's closed connections slow down with the server and hide its queueing). Each
// latency is timed from the request's scheduled departure, so a stalled server shows in p99.
import http from "node:http";
import type { RequestSpec, Target } from "./load";
import { headersFor, percentile } from "./load";

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
  const timeline: [number, number, string][] = [];
  const statuses: Record<string, number> = {};
  const failures: string[] = [];
  const noteFailure = (line: string) => failures.length < maxFailuresKept && failures.push(line);
  let errors = 0;
  const count = Math.round(rate * seconds);
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
          timeline.push([due - started, performance.now() - due, name]);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (!isOk(status)) noteFailure(`${name}: ${status}${code ? ` ${code}` : ""}`);
        },
        (error: NodeJS.ErrnoException) => {
          errors++;
          noteFailure(`${name}: ${error.code ?? error.name}${error.message ? ` (${error.message})` : ""}`);
        },
      ),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  const sorted = (of: (typeof timeline)[number][]) => of.map(([, latency]) => latency).sort((a, b) => a - b);
  const latencies = sorted(timeline);
  return {
    rate,
    seconds,
    sent: count,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    p999: percentile(latencies, 99.9),
    non2xx: Object.entries(statuses).reduce((n, [code, c]) => (isOk(Number(code)) ? n : n + c), 0),
    errors,
    statuses,
    failures,
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
