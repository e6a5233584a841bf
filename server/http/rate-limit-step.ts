import type { MiddlewareHandler } from "hono";
import { ApiError } from "@/server/errors";
import type { RateLimits } from "@/server/plans";
import { clientAddress } from "./client-address";
import { accountRateKey } from "./rate-limit";
import type { ApiEnv } from "./context";

/** Requests without a valid credential are counted by address, at the Starter plan's limits. */
const anonymousLimits: RateLimits = { perSecond: 50, perMinute: 500, perDay: 250_000 };

/**
 * Counts the request against its account and environment (sandbox limits equal live ones but
 * are counted apart), and refuses with 429 once any window is spent.
 */
export const rateLimit: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const principal = c.get("principal");
  const sandbox = c.req.header("service-environment") === "sandbox";
  const key = principal ? accountRateKey(principal.accountId, !sandbox) : `ip:${clientAddress(c) ?? "unknown"}`;
  const state = await c.get("deps").limiter.consume(key, principal?.limits ?? anonymousLimits);
  c.set("rate", state);
  if (state.retryAfter !== undefined) {
    throw new ApiError("too_many_requests", `Rate limit exceeded. Retry after ${state.retryAfter} seconds.`, {
      headers: { "Retry-After": String(state.retryAfter) },
    });
  }
  return next();
};
