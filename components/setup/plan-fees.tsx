"use client";

import { z } from "zod";
import { Input, Select } from "@/components/ui";
import { FormField } from "@/components/ui/form";
import { shownFormat } from "@/components/ui/property-format";
import type { PlanFee } from "@/db/schema";
import { amountText, formatMoney, parseMoney, sampleAmount } from "@/lib/money";
import { inflect, plural } from "@/lib/words";

// A rate plan's three fees and its deposit in the settings form: each "none", a fixed amount, a number of nights'
// rates or a percentage of the nights concerned (server/rates/fees.ts), chosen in words and typed
// in the property's currency and number format.

export const feeKeys = ["no_show_fee", "early_departure_fee", "late_check_out_fee", "deposit"] as const;
type FeeKey = (typeof feeKeys)[number];
export type PlanFees = Record<FeeKey, PlanFee | null>;

/** Each fee's name, when it is charged, and the nights it is worked out on. */
const about: Record<FeeKey, { label: string; hint: string; nights: string }> = {
  no_show_fee: {
    label: "No-show fee",
    hint: "Charged in place of the booked nights when the guest never arrives. None: the whole stay on a non-refundable plan, nothing on a refundable one.",
    nights: "the booked nights",
  },
  early_departure_fee: { label: "Early departure fee", hint: "Charged when a guest leaves before the booked departure, on the nights given back.", nights: "the nights given back" },
  late_check_out_fee: { label: "Late check-out fee", hint: "Charged when the front desk grants a late check-out on the departure day.", nights: "the last night" },
  deposit: {
    label: "Deposit at booking",
    hint: "Taken from the card the guest puts on file when booking. A booking without a card is made with the deposit still to pay.",
    nights: "the booked nights",
  },
};

const shapes = [
  ["none", "No fee"],
  ["fixed", "A fixed amount"],
  ["nights", "Nights at the room rate"],
  ["percent", "A percentage of the room rate"],
] as const;
type Shape = (typeof shapes)[number][0];

/** The form's fields of the fees: a shape and what was typed for each. */
export const feeFormFields = {
  no_show_fee_shape: z.enum(["none", "fixed", "nights", "percent"]),
  no_show_fee_value: z.string().trim(),
  early_departure_fee_shape: z.enum(["none", "fixed", "nights", "percent"]),
  early_departure_fee_value: z.string().trim(),
  late_check_out_fee_shape: z.enum(["none", "fixed", "nights", "percent"]),
  late_check_out_fee_value: z.string().trim(),
  deposit_shape: z.enum(["none", "fixed", "nights", "percent"]),
  deposit_value: z.string().trim(),
};
type FeeFormValues = { [K in keyof typeof feeFormFields]: z.input<(typeof feeFormFields)[K]> };

const shapeOf = (key: FeeKey) => `${key}_shape` as const;
const valueOf = (key: FeeKey) => `${key}_value` as const;

/** What was typed as the fee, or null when it is not a valid one of its shape. */
function parseFee(shape: Shape, value: string, currency: string): PlanFee | null {
  if (shape === "fixed") {
    const amount = parseMoney(value, currency, shownFormat().locale);
    return amount !== null && amount >= 1 && amount <= 100_000_000 ? { type: "fixed", amount } : null;
  }
  const n = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (shape === "nights") return n >= 1 && n <= 30 ? { type: "nights", nights: n } : null;
  if (shape === "percent") return n >= 1 && n <= 100 ? { type: "percent", percent: n } : null;
  return null;
}

const valueError = (shape: Shape, currency: string) =>
  shape === "fixed"
    ? `An amount above zero, such as ${sampleAmount(currency, shownFormat().locale)}.`
    : shape === "nights"
      ? "A whole number of nights from 1 to 30."
      : "A whole percentage from 1 to 100, such as 50.";

/** Adds each fee's error beside its value when what was typed is not a fee of its shape. */
export function checkFees(v: FeeFormValues, currency: string, ctx: z.RefinementCtx) {
  for (const key of feeKeys) {
    const shape = v[shapeOf(key)] ?? "none";
    if (shape !== "none" && !parseFee(shape, v[valueOf(key)] ?? "", currency)) ctx.addIssue({ code: "custom", path: [valueOf(key)], message: valueError(shape, currency) });
  }
}

/** The fees as the API takes them: null for none, minor units for an amount. */
export const feesInput = (v: FeeFormValues, currency: string): PlanFees =>
  Object.fromEntries(feeKeys.map((key) => [key, v[shapeOf(key)] === "none" ? null : parseFee(v[shapeOf(key)], v[valueOf(key)] ?? "", currency)])) as PlanFees;

/** A plan's fees as the form's starting values (a new plan: none). */
export function feeDefaults(plan: Partial<PlanFees> | null, currency: string): FeeFormValues {
  const values = {} as Record<string, string>;
  for (const key of feeKeys) {
    const fee = plan?.[key] ?? null;
    values[shapeOf(key)] = fee?.type ?? "none";
    values[valueOf(key)] = !fee ? "" : fee.type === "fixed" ? amountText({ amount: fee.amount, currency }, shownFormat().locale) : String(fee.type === "nights" ? fee.nights : fee.percent);
  }
  return values as FeeFormValues;
}

/** The server's refusal of a fee, beside its value. */
export const feeErrorFields = Object.fromEntries(
  feeKeys.flatMap((key) => [key, `${key}.type`, `${key}.amount`, `${key}.nights`, `${key}.percent`].map((param) => [param, valueOf(key)])),
) as Record<string, `${FeeKey}_value`>;

/** One fee in words: "€40.00", "1 night's rate", "50 % of the last night". */
export function feeWords(key: FeeKey, fee: PlanFee, currency: string) {
  if (fee.type === "fixed") return formatMoney({ amount: fee.amount, currency }, shownFormat().locale);
  if (fee.type === "nights") return `${plural(fee.nights, "night")}${inflect(fee.nights, { one: "'s rate", other: "' rates" })}`;
  return `${fee.percent} % of ${about[key].nights}`;
}

/** The plan's fees in a list cell: each set fee by name (a non-refundable plan's no-show without one costs the whole stay), or "None". */
export function FeesCell({ plan, currency }: { plan: Partial<PlanFees> & { refundable: boolean }; currency: string }) {
  const lines = feeKeys.flatMap((key) => {
    const name = about[key].label.replace(/ fee$/, "").replace(/ at booking$/, "");
    const fee = plan[key];
    if (fee) return [`${name}: ${feeWords(key, fee, currency)}`];
    return key === "no_show_fee" && !plan.refundable ? [`${name}: the whole stay`] : [];
  });
  if (!lines.length) return <span className="text-stone-500">None</span>;
  return (
    <ul className="space-y-0.5">
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/** The three fees' and the deposit's fields: a shape in words, then its amount, nights or percentage (`shapesNow`: the shapes chosen, in `feeKeys`' order). */
export function FeeFields({ shapesNow, currency }: { shapesNow: readonly (Shape | undefined)[]; currency: string }) {
  return (
    <fieldset className="rounded-md border border-stone-200 p-3">
      <legend className="px-1 text-xs font-medium text-stone-600">Fees and deposit</legend>
      <div className="space-y-4">
        {feeKeys.map((key, i) => {
          const shape = shapesNow[i] ?? "none";
          return (
            <div key={key} className="grid gap-3 sm:grid-cols-2">
              <FormField<FeeFormValues> name={shapeOf(key)} label={about[key].label} hint={about[key].hint}>
                {(control) => (
                  <Select {...control}>
                    {shapes.map(([value, words]) => (
                      <option key={value} value={value}>
                        {value === "none" && key === "deposit" ? "No deposit" : words}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
              {shape === "none" ? null : (
                <FormField<FeeFormValues>
                  name={valueOf(key)}
                  label={`${about[key].label.replace(/ fee$/, "").replace(/ at booking$/, "")} ${shape === "fixed" ? `amount (${currency})` : shape === "nights" ? "nights" : "percent (%)"}`}
                  hint={shape === "fixed" ? undefined : shape === "nights" ? `The rates of the first nights of ${about[key].nights}.` : `Of the rates of ${about[key].nights}.`}
                >
                  {(control) => (
                    <Input {...control} inputMode={shape === "fixed" ? "decimal" : "numeric"} placeholder={shape === "fixed" ? sampleAmount(currency, shownFormat().locale) : shape === "nights" ? "1" : "50"} />
                  )}
                </FormField>
              )}
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}
