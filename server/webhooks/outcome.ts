import type { Exchange } from "./send";

export type Outcome = {
  /** succeeded: 2xx; retry: 408, 429, 5xx, 3xx and network errors; failed: any other 4xx. */
  result: "succeeded" | "retry" | "failed";
  /** Weighs against the endpoint in the circuit breaker: 5xx, timeouts and network errors, never 3xx. */
  serverError: boolean;
};

/** The specification's outcome table (Delivery and retry), with contract §7's 3xx and network rules. */
export function classify(exchange: Pick<Exchange, "status" | "error">): Outcome {
  const { status, error } = exchange;
  if (error !== null || status === null) return { result: "retry", serverError: true };
  if (status >= 200 && status < 300) return { result: "succeeded", serverError: false };
  if (status >= 500) return { result: "retry", serverError: true };
  if (status === 408 || status === 429) return { result: "retry", serverError: false };
  if (status >= 300 && status < 400) return { result: "retry", serverError: false };
  return { result: "failed", serverError: false };
}

/** Seconds asked for by `Retry-After` (delta seconds or an HTTP date), if any. */
export function retryAfterSeconds(headers: Record<string, string>, now = Date.now()): number | null {
  const value = headers["retry-after"]?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}
