import { z } from "@hono/zod-openapi";
import type { NightlyRate, PlanFee } from "@/db/schema";

/**
 * A rate plan's fee (early departure, no-show, late check-out), or null for none. One shape for
 * all three, charged on "the nights concerned": the nights given back for an early departure,
 * the nights booked for a no-show, the stay's last night for a late check-out.
 * - `fixed`: that amount, in minor units of the property's currency;
 * - `nights`: the rates of the first N nights concerned (all of them when fewer);
 * - `percent`: that percentage (1–100) of the nights concerned, rounded to a whole minor unit.
 */
export const planFeeSchema = z
  .discriminatedUnion("type", [
    z.strictObject({
      type: z.literal("fixed"),
      amount: z.number().int().min(1).max(100_000_000).openapi({ description: "Minor units of the property's currency." }),
    }),
    z.strictObject({
      type: z.literal("nights"),
      nights: z.number().int().min(1).max(30).openapi({ description: "The rates of the first this many nights concerned." }),
    }),
    z.strictObject({
      type: z.literal("percent"),
      percent: z.number().int().min(1).max(100).openapi({ description: "Percent of the nights concerned, rounded to a minor unit." }),
    }),
  ])
  .openapi("RatePlanFee", {
    description:
      "A fee of the rate plan: a fixed amount, the rates of a number of nights, or a percentage of them. The nights concerned are those given back (early departure), those booked (no-show) or the stay's last night (late check-out).",
  });

export type FeeKind = "early_departure_fee" | "no_show_fee" | "late_check_out_fee";

/** What a fee comes to on the nights concerned; 0 when the plan has none (or nothing is concerned but a fixed fee). */
export function feeAmount(fee: PlanFee | null | undefined, nights: NightlyRate[]): number {
  if (!fee) return 0;
  if (fee.type === "fixed") return fee.amount;
  const take = fee.type === "nights" ? nights.slice(0, fee.nights) : nights;
  const sum = take.reduce((s, n) => s + n.amount, 0);
  return fee.type === "nights" ? sum : Math.round((sum * fee.percent) / 100);
}

/** The words a folio line uses for each fee. */
export const feeLabels: Record<FeeKind, string> = {
  early_departure_fee: "Early departure fee",
  no_show_fee: "No-show fee",
  late_check_out_fee: "Late check-out fee",
};
