/** Request limits per plan (specification, Limits). null: no cap for that window. */
export type RateLimits = { perSecond: number | null; perMinute: number | null; perDay: number | null };

export const plans = ["starter", "growth", "scale", "enterprise"] as const;
export type Plan = (typeof plans)[number];

const planLimits: Record<Plan, RateLimits> = {
  starter: { perSecond: 50, perMinute: 500, perDay: 250_000 },
  growth: { perSecond: 100, perMinute: 1_000, perDay: 500_000 },
  scale: { perSecond: 500, perMinute: 5_000, perDay: 2_500_000 },
  // "custom" in the specification: set per account; until set, Scale's burst and sustained
  // limits apply and the daily cap is unlimited.
  enterprise: { perSecond: 500, perMinute: 5_000, perDay: null },
};

type AccountLimits = {
  plan: Plan;
  ratePerSecond: number | null;
  ratePerMinute: number | null;
  ratePerDay: number | null;
};

/** The limits in force for an account: its own settings where it has them, else its plan's. */
export function limitsFor(account: AccountLimits): RateLimits {
  const base = planLimits[account.plan];
  return {
    perSecond: account.ratePerSecond ?? base.perSecond,
    perMinute: account.ratePerMinute ?? base.perMinute,
    perDay: account.ratePerDay ?? base.perDay,
  };
}
