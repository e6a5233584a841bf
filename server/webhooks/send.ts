import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import { BlockedAddressError, guardedLookup, literalBlocked, type Lookup } from "@/server/url-guard";

/**
 * Connections kept alive between attempts, per origin (the agent pools by host and port): a
 * new TCP (and TLS) handshake per delivery was most of an attempt's cost to a nearby receiver.
 * How many attempts go to one endpoint at once is the dispatcher's limit, not the agent's
 * (a request queued in the agent would spend its deadline waiting for a socket). An idle
 * socket is closed after 4 s, or a second before the receiver's own `Keep-Alive: timeout=`,
 * so it is rarely reused just as the receiver closes it (if it is, the attempt fails with a
 * reset and is retried on the schedule: whether the receiver got the request is unknown, and the
 * attempt's record says what happened rather than hiding a second send). One pool per way of resolving
 * addresses: a socket opened without the private-network guard is never reused under it.
 */
const keepAlive = { keepAlive: true, maxSockets: Infinity, maxFreeSockets: 64, timeout: 4_000, scheduling: "lifo" } as const;
const agents = new Map<string, http.Agent>();
const agentsByLookup = new WeakMap<Lookup, Map<string, http.Agent>>();
function agentFor(protocol: string, guarded: boolean, lookup: Lookup | undefined): http.Agent {
  const pool = lookup ? agentsByLookup.get(lookup) ?? agentsByLookup.set(lookup, new Map()).get(lookup)! : agents;
  const key = `${protocol}${guarded ? "guarded" : ""}`;
  let agent = pool.get(key);
  if (!agent) pool.set(key, (agent = protocol === "https:" ? new https.Agent(keepAlive) : new http.Agent(keepAlive)));
  return agent;
}

/** At most this much of an answer is read; the rest is dropped with the connection. */
const maxResponseBytes = 64 * 1024;

export type Exchange = {
  /** null when no answer came (timeout, reset, refused, blocked address). */
  status: number | null;
  headers: Record<string, string>;
  /** What was read of the body, at most `maxResponseBytes`. */
  body: Buffer;
  error: string | null;
  latencyMs: number;
};

export type SendOptions = {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Deadline for the whole exchange: connect, headers and body. */
  timeoutMs: number;
  blockPrivateNetworks: boolean;
  lookup?: Lookup;
};

const flatten = (headers: IncomingHttpHeaders): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : String(v ?? "")]));

/**
 * One POST to a webhook endpoint. Never throws: every failure is an Exchange with `error`.
 * Redirects are not followed (node:http never does); the body is cut at 64 KiB; one deadline
 * covers the whole exchange; with private networks blocked the resolved address is checked at
 * connection time (a kept-alive socket was checked when it connected).
 */
export function sendWebhook(options: SendOptions): Promise<Exchange> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    let status: number | null = null;
    let headers: Record<string, string> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    // Set once the request exists; `finish` may run earlier (a bad URL) and must not touch it then.
    // eslint-disable-next-line prefer-const
    let timer: NodeJS.Timeout | undefined;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ status, headers, body: Buffer.concat(chunks).subarray(0, maxResponseBytes), error, latencyMs: latency() });
    };

    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      return finish("invalid URL");
    }
    if (options.blockPrivateNetworks) {
      const why = literalBlocked(url);
      if (why) return finish(new BlockedAddressError(url.hostname, url.hostname, why).message);
    }
    const client = url.protocol === "https:" ? https : http;
    const payload = Buffer.from(options.body, "utf8");
    const req = client.request(url, {
      method: "POST",
      headers: { ...options.headers, "content-length": String(payload.length) },
      agent: agentFor(url.protocol, options.blockPrivateNetworks, options.lookup),
      ...(options.blockPrivateNetworks ? { lookup: guardedLookup(options.lookup) } : options.lookup ? { lookup: options.lookup } : {}),
    });
    timer = setTimeout(() => {
      req.destroy();
      finish(`timeout: no complete answer within ${options.timeoutMs} ms`);
    }, options.timeoutMs);

    req.on("error", (error: NodeJS.ErrnoException) => finish(describeError(error)));
    req.on("response", (res) => {
      status = res.statusCode ?? null;
      headers = flatten(res.headers);
      res.on("data", (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= maxResponseBytes) {
          // Enough read: the status stands, the rest of the body is not our business.
          finish(null);
          res.destroy();
        }
      });
      res.on("end", () => finish(null));
      res.on("error", (error: NodeJS.ErrnoException) => finish(describeError(error)));
      res.on("aborted", () => finish("connection reset while reading the answer"));
    });
    req.end(payload);
  });
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof BlockedAddressError || error.code === "EBLOCKED") return error.message;
  const code = error.code ? `${error.code}: ` : "";
  return `${code}${error.message}`.slice(0, 500);
}
