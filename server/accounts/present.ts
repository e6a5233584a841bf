import { isoTime } from "@/lib/dates";
import type { accounts } from "@/db/schema";
import { limitsFor } from "@/server/plans";

export const presentAccount = (a: typeof accounts.$inferSelect) => {
  const limits = limitsFor(a);
  return {
    id: a.id,
    object: "account" as const,
    name: a.name,
    plan: a.plan,
    developer_contact: a.developerContact,
    /** In force: the account's own limits where set, else the plan's; null is no cap. */
    rate_limits: { per_second: limits.perSecond, per_minute: limits.perMinute, per_day: limits.perDay },
    custom_limits: a.ratePerSecond !== null || a.ratePerMinute !== null || a.ratePerDay !== null,
    api_version: a.apiVersion,
    created_at: isoTime(a.createdAt),
  };
};
