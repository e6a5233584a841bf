import { operationTable } from "./generated/operations.js";
import { PagePromise, type Page } from "./pagination.js";
import { send, type RequestOptions, type ResponseInfo, type Transport } from "./request.js";
import { resourceTable, type Resources } from "./resources.js";
import { webhooks } from "./webhooks.js";

export type InnkeepOptions = {
  /** A secret API key (`hk_…`). Give this or `accessToken`. */
  apiKey?: string;
  /** An OAuth access token (`hat_…`), for apps installed through OAuth. */
  accessToken?: string;
  /** Called when the access token has expired; answer a fresh one (from your refresh token). */
  refreshToken?: () => Promise<string>;
  /** `<origin>` or `<origin>/v1` of the Innkeep server (default `http://localhost:3000/v1`). */
  baseUrl?: string;
  /** `Service-Environment`: `live` (default) or `sandbox`. */
  environment?: "live" | "sandbox";
  /** `Service-Version` pin, `YYYY-MM-DD`; by default the account's pinned version. */
  version?: string;
  /** Retries of a failed call (default 2). */
  maxRetries?: number;
  /** Milliseconds each attempt may take (default 60 000). */
  timeout?: number;
  /** A `fetch` of your own (tests, proxies, instrumentation). */
  fetch?: typeof fetch;
};

/** The keys of RequestOptions; no body or query of the API has a field of these names. */
const requestOptionKeys = new Set<string>(["idempotencyKey", "maxRetries", "timeout", "environment", "version", "headers", "signal"]);
const isRequestOptions = (value: unknown): value is RequestOptions =>
  typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => requestOptionKeys.has(k));

/** The refusal of a client without credentials: the same words in the four clients. */
export const missingKeyMessage =
  "No API key: give `apiKey` (a secret key, hk_…) or `accessToken` (an OAuth token, hat_…). Reading it from the environment? INNKEEP_API_KEY is not set";

const table = operationTable as Record<string, { method: string; path: string; pathParams: readonly string[]; list: boolean }>;

// The resources are properties the constructor builds from the table; the interface types them.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
export interface Innkeep extends Resources {}

/**
 * The Innkeep API client.
 *
 * @example
 * const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, environment: "sandbox" });
 * const reservation = await innkeep.reservations.create({ ... });
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Innkeep {
  /** Webhook signature checks and test headers (`Innkeep.webhooks.constructEvent(…)`). */
  static readonly webhooks = webhooks;
  /** Status, request id, idempotency key and rate-limit headers of the latest answer. */
  lastResponse: ResponseInfo | undefined;
  readonly #transport: Transport;
  #token: string | undefined;

  constructor(options: InnkeepOptions = {}) {
    if (options.apiKey && options.accessToken) throw new TypeError("Give `apiKey` or `accessToken`, not both.");
    const token = options.apiKey || options.accessToken;
    if (typeof token !== "string" || !token.trim()) {
      throw new TypeError(`${missingKeyMessage} (${token === undefined || token === null ? "none was given" : typeof token === "string" ? "got an empty string" : `got ${typeof token}`}).`);
    }
    this.#token = token;
    const base = (options.baseUrl ?? "http://localhost:3000/v1").replace(/\/+$/, "");
    const refresh = options.refreshToken;
    this.#transport = {
      baseUrl: base.endsWith("/v1") ? base : `${base}/v1`,
      fetch: options.fetch ?? ((...args) => globalThis.fetch(...args)),
      maxRetries: options.maxRetries ?? 2,
      timeout: options.timeout ?? 60_000,
      environment: options.environment,
      version: options.version,
      token: () => this.#token,
      refresh: refresh && (async () => (this.#token = await refresh())),
      onResponse: (info) => (this.lastResponse = info),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    for (const [resource, methods] of Object.entries(resourceTable)) {
      const built = Object.fromEntries(Object.entries(methods).map(([name, id]) => [name, this.#method(id)]));
      Object.defineProperty(this, resource, { value: Object.freeze(built), enumerable: true });
    }
  }

  /** Any call by method and path, for what the resources do not cover. */
  request<T = unknown>(method: string, path: string, input: { query?: Record<string, unknown>; body?: unknown } = {}, options?: RequestOptions): Promise<T> {
    return send<T>(this.#transport, { method: method.toUpperCase(), path, ...input, options });
  }

  /** One resource method, from its row of the operation table. */
  #method(id: string) {
    const op = table[id];
    return (...args: unknown[]) => {
      const ids = args.slice(0, op.pathParams.length);
      ids.forEach((value, i) => {
        if (typeof value !== "string" || !value) throw new TypeError(`${id}: \`${op.pathParams[i]}\` must be a non-empty string.`);
      });
      const path = op.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, encodeURIComponent(ids[i] as string)), op.path);
      const rest = args.slice(op.pathParams.length);
      // Where the body or query is optional, the options may come alone: `cancel(id, { idempotencyKey })`.
      const [input, options] = (rest.length === 1 && isRequestOptions(rest[0]) ? [undefined, rest[0]] : rest) as [Record<string, unknown> | undefined, RequestOptions | undefined];
      const reads = op.method === "GET" || op.method === "DELETE";
      const call = { method: op.method, path, options, ...(reads ? { query: input } : { body: input }) };
      if (!op.list) return send(this.#transport, call);
      return new PagePromise((cursor) => send<Page<unknown>>(this.#transport, { ...call, query: { ...input, ...(cursor ? { cursor } : {}) } }));
    };
  }
}
