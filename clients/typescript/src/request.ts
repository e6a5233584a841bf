import { AuthenticationError, ConnectionError, InnkeepError, TimeoutError, errorFromResponse, retryAfterSeconds } from "./errors.js";

export const VERSION = "0.1.0";

/** Options of one call; each overrides the client's own. */
export type RequestOptions = {
  /** The `Idempotency-Key` of a POST; by default a UUID v4 made once per call, kept across its retries. */
  idempotencyKey?: string;
  /** Retries after a network error, 408, 409 `idempotency_key_in_use`, 429 or 5xx (default: the client's, 2). */
  maxRetries?: number;
  /** Milliseconds each attempt may take (default: the client's, 60 000). */
  timeout?: number;
  environment?: "live" | "sandbox";
  version?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

/** What the last answer said besides its body: ids and rate-limit headers. */
export type ResponseInfo = {
  status: number;
  requestId: string | undefined;
  /** The `Idempotency-Key` sent, for a POST. */
  idempotencyKey: string | undefined;
  /** True when the server answered a retried POST from its idempotency store. */
  idempotentReplayed: boolean;
  rateLimit: { limit: number | undefined; remaining: number | undefined; reset: number | undefined };
  /** 1 for a first-time success; more when retries were needed. */
  attempts: number;
  headers: Headers;
};

export type Transport = {
  baseUrl: string;
  fetch: typeof fetch;
  maxRetries: number;
  timeout: number;
  environment: "live" | "sandbox" | undefined;
  version: string | undefined;
  token(): string | undefined;
  /** Called once on 401 `token_expired`/`invalid_token` when an OAuth refresh hook exists; answers the new token. */
  refresh: (() => Promise<string>) | undefined;
  onResponse(info: ResponseInfo): void;
  /** Sleeps between attempts; replaceable in tests. */
  sleep(ms: number): Promise<void>;
};

export type Call = { method: string; path: string; query?: Record<string, unknown>; body?: unknown; options?: RequestOptions };

const MAX_DELAY_MS = 8_000;
const BASE_DELAY_MS = 500;

/** Exponential backoff with full jitter: a uniform wait in [0, min(cap, base·2^attempt)). */
export function backoff(attempt: number): number {
  return Math.random() * Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** attempt);
}

/**
 * One API call: sends it, retries what is safe to retry (a POST always carries the same
 * `Idempotency-Key`, so a retry can never create twice), and answers the parsed body or
 * throws the typed error of the last answer.
 */
export async function send<T>(t: Transport, call: Call): Promise<T> {
  const o = call.options ?? {};
  const maxRetries = o.maxRetries ?? t.maxRetries;
  const timeout = o.timeout ?? t.timeout;
  const idempotencyKey = call.method === "POST" ? (o.idempotencyKey ?? crypto.randomUUID()) : undefined;
  const url = new URL(t.baseUrl + call.path);
  for (const [name, value] of Object.entries(call.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
  }
  const body = call.body === undefined ? (call.method === "POST" ? "{}" : undefined) : JSON.stringify(call.body);
  let refreshed = false;

  for (let attempt = 0; ; attempt++) {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": `innkeep-node/${VERSION}` };
    const token = t.token();
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const environment = o.environment ?? t.environment;
    if (environment) headers["service-environment"] = environment;
    const version = o.version ?? t.version;
    if (version) headers["service-version"] = version;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    Object.assign(headers, o.headers);

    let response: Response;
    const controller = new AbortController();
    const onAbort = () => controller.abort(o.signal?.reason);
    o.signal?.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(() => controller.abort(new TimeoutError(`No answer within ${timeout} ms: ${call.method} ${call.path}`)), timeout);
    let text: string;
    let bytes: Uint8Array;
    try {
      response = await t.fetch(url, { method: call.method, headers, body, signal: controller.signal });
      bytes = new Uint8Array(await response.arrayBuffer());
      text = new TextDecoder().decode(bytes);
    } catch (error) {
      if (o.signal?.aborted) throw o.signal.reason ?? error;
      const failure =
        controller.signal.reason instanceof TimeoutError
          ? controller.signal.reason
          : new ConnectionError(`Could not reach Innkeep at ${url.origin} (${call.method} ${url.pathname}): ${describeFailure(error)}`, error);
      if (attempt < maxRetries) {
        await t.sleep(backoff(attempt));
        continue;
      }
      throw failure;
    } finally {
      clearTimeout(timer);
      o.signal?.removeEventListener("abort", onAbort);
    }

    // A document the API answers as a file (an invoice's PDF) comes back as its bytes.
    if (response.ok && response.headers.get("content-type")?.split(";")[0].trim() === "application/pdf") {
      t.onResponse(info(response, idempotencyKey, attempt + 1));
      return bytes as T;
    }
    const json = parse(text, response.headers.get("content-type"));
    t.onResponse(info(response, idempotencyKey, attempt + 1));
    if (response.ok) return json as T;

    const error = errorFromResponse(response.status, json, response.headers, url);
    if (error instanceof AuthenticationError && t.refresh && !refreshed && ["token_expired", "invalid_token"].includes(error.code)) {
      // An expired OAuth access token: refresh once, and try again at no cost to the retry budget.
      refreshed = true;
      await t.refresh();
      attempt--;
      continue;
    }
    if (attempt < maxRetries && retryable(error)) {
      const after = retryAfterSeconds(response.headers);
      await t.sleep(after !== undefined ? after * 1000 : backoff(attempt));
      continue;
    }
    throw error;
  }
}

/** What a network error's causes say, innermost first: `fetch failed` alone says nothing. */
const causeWords: Record<string, string> = {
  ECONNREFUSED: "the connection was refused: nothing listens there (is the server running, and is `baseUrl` right?)",
  ENOTFOUND: "the host name does not resolve (is `baseUrl` right?)",
  EAI_AGAIN: "the host name could not be resolved just now (DNS)",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "connecting timed out",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable",
  UND_ERR_SOCKET: "the connection closed before the answer was complete",
};

export function describeFailure(error: unknown): string {
  const chain: { message?: string; code?: string }[] = [];
  for (let e = error as { message?: string; code?: string; cause?: unknown } | undefined; e && chain.length < 5; e = e.cause as typeof e) chain.push(e);
  const coded = chain.reverse().find((e) => typeof e.code === "string" && e.code);
  if (!coded) return chain.map((e) => e.message).filter(Boolean).reverse().join(": ") || String(error);
  const words = causeWords[coded.code!] ?? (coded.code!.startsWith("ERR_TLS") || /CERT/.test(coded.code!) ? "the TLS handshake failed (certificate)" : undefined);
  return words ? `${words} [${coded.message ?? coded.code}]` : (coded.message ?? coded.code!);
}

function retryable(error: InnkeepError): boolean {
  return error.status === 408 || error.status === 429 || error.status >= 500 || error.code === "idempotency_key_in_use";
}

/** JSON when the answer says so (or looks like it); the text itself otherwise (CSV reports). */
function parse(text: string, contentType: string | null): unknown {
  if (!text) return undefined;
  if (contentType && !/json/i.test(contentType)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function info(response: Response, idempotencyKey: string | undefined, attempts: number): ResponseInfo {
  const h = response.headers;
  const num = (name: string) => (h.get(name) === null ? undefined : Number(h.get(name)));
  return {
    status: response.status,
    requestId: h.get("service-request-id") ?? undefined,
    idempotencyKey,
    idempotentReplayed: h.get("idempotent-replayed") === "true",
    rateLimit: { limit: num("x-ratelimit-limit"), remaining: num("x-ratelimit-remaining"), reset: num("x-ratelimit-reset") },
    attempts,
    headers: h,
  };
}
