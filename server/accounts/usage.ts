import { accountRateKey, type UsageSource, type WindowUsage } from "@/server/http/rate-limit";
import { limitsFor } from "@/server/plans";
import type { accounts } from "@/db/schema";

const presentWindow = (w: WindowUsage) => ({ used: w.used, limit: w.limit, resets_at: w.resetsAt?.toISOString() ?? null });

/**
 * The account's API usage in one environment as the rate limiter counts it: this second, this
 * minute and this UTC day against the limits in force. Reads the counters without adding to them.
 */
export async function readUsage({ limiter, account, livemode, now }: { limiter: UsageSource; account: typeof accounts.$inferSelect; livemode: boolean; now?: number }) {
  const usage = await limiter.peek(accountRateKey(account.id, livemode), limitsFor(account), now);
  return {
    object: "api_usage" as const,
    livemode,
    second: presentWindow(usage.second),
    minute: presentWindow(usage.minute),
    day: presentWindow(usage.day),
  };
}
