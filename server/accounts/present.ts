import { isoTime } from "@/server/dates";
import type { accounts, users } from "@/db/schema";
import { limitsFor } from "./plans";

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

/** A staff member as the settings page lists them; never the password hash. */
export const presentStaffUser = (u: typeof users.$inferSelect) => ({
  id: u.id,
  object: "user" as const,
  email: u.email,
  name: u.name,
  role: u.role,
  created_at: isoTime(u.createdAt),
});
