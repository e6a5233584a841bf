import { shownFormat } from "@/components/ui/property-format";
import { formatMoney } from "@/lib/money";
import { plural } from "@/lib/words";

/** Meal plans in a guest's words. */
export const mealPlanLabels: Record<string, string> = {
  room_only: "Room only",
  breakfast: "Breakfast included",
  half_board: "Half board (breakfast and dinner)",
  full_board: "Full board (all meals)",
  all_inclusive: "All inclusive",
};

type PlanWords = {
  refundable: boolean;
  cancellation_deadline_hours: number;
  derived_from: { rate_plan_id: string; adjustment_percent: number | null; adjustment_amount: number | null } | null;
};

/** "Free cancellation until 24 hours before arrival" / "Non-refundable". */
export function cancellationWords(plan: PlanWords) {
  if (!plan.refundable) return "Non-refundable";
  const hours = plan.cancellation_deadline_hours;
  if (hours === 0) return "Free cancellation until the day of arrival";
  if (hours % 24 === 0) return `Free cancellation until ${hours / 24} day${hours === 24 ? "" : "s"} before arrival`;
  return `Free cancellation until ${plural(hours, "hour")} before arrival`;
}

/** "10 % below Best available" / "€15.00 above Best available" / "Own rates". */
export function pricingWords(plan: PlanWords, parentName: (id: string) => string, currency: string) {
  const d = plan.derived_from;
  if (!d) return "Own rates";
  const value = d.adjustment_percent ?? d.adjustment_amount ?? 0;
  const size = d.adjustment_percent !== null ? `${Math.abs(value)} %` : formatMoney({ amount: Math.abs(value), currency }, shownFormat().locale);
  if (value === 0) return `Same as ${parentName(d.rate_plan_id)}`;
  return `${size} ${value < 0 ? "below" : "above"} ${parentName(d.rate_plan_id)}`;
}

/** Every IANA time zone the browser knows, "UTC" first. */
export const timeZoneOptions = () => ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];

/** Currencies as "EUR · Euro", most common first. */
export function currencyOptions() {
  const names = new Intl.DisplayNames(["en"], { type: "currency" });
  const common = ["USD", "EUR", "GBP", "CHF", "JPY", "CAD", "AUD"];
  const rest = Intl.supportedValuesOf("currency").filter((c) => !common.includes(c));
  return [...common, ...rest].map((code) => ({ code, label: `${code} · ${names.of(code) ?? code}` }));
}
