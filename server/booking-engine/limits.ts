import { ApiError } from "@/server/errors";
import type { RateCounter, RateState } from "@/server/http/rate-limit";
import type { RateLimits } from "@/server/plans";

/**
 * What one address may ask of the public booking pages: searching (pages and the search
 * endpoint) is generous, a person compares dates; choosing and booking hold rooms and write
 * bookings, so far fewer. Counted in the same counters as the API's limits (Redis with REDIS_URL).
 */
export const guestLimits = {
  search: { perSecond: 10, perMinute: 120, perDay: 5_000 },
  book: { perSecond: 3, perMinute: 20, perDay: 500 },
  /** A booking's manage page: a change looked at, then made; requests added; a cancellation. */
  manage: { perSecond: 3, perMinute: 30, perDay: 500 },
} satisfies Record<string, RateLimits>;

export type GuestAction = keyof typeof guestLimits;

/**
 * Counts one request of `address` for `action`; 429 `too_many_requests` with Retry-After once a
 * window is spent. `seen` gets the count first, so even the refusal carries the X-RateLimit headers.
 */
export async function countGuestRequest(limiter: RateCounter, action: GuestAction, address: string | undefined, seen?: (state: RateState) => void) {
  const state = await limiter.consume(`book:${action}:${address ?? "unknown"}`, guestLimits[action]);
  seen?.(state);
  if (state.retryAfter !== undefined) {
    throw new ApiError("too_many_requests", `Rate limit exceeded. Retry after ${state.retryAfter} seconds.`, { headers: { "Retry-After": String(state.retryAfter) } });
  }
  return state;
}
