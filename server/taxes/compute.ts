import type { LineTax, TaxKind, TaxTarget } from "@/db/schema";

/** What the arithmetic needs of a tax (a row of `taxes`). */
export type TaxRule = {
  id: string;
  name: string;
  kind: TaxKind;
  percentThousandths: number | null;
  amount: number | null;
  inclusive: boolean;
  appliesTo: TaxTarget;
};

/** A percentage as stored: thousandths of a percent, so 100 % is this many. */
const wholeThousandths = 100_000;

/** n / d rounded to a whole number, halves away from zero, in integers (no floating point). */
function divideRounded(n: number, d: number): number {
  const sign = Math.sign(n) * Math.sign(d);
  const an = Math.abs(n);
  const ad = Math.abs(d);
  const q = Math.floor(an / ad);
  const r = an - q * ad;
  return sign * (2 * r >= ad ? q + 1 : q);
}

export type TaxedLine = { amount: number; taxAmount: number; taxes: LineTax[] };

/**
 * The taxes of one folio line priced `price` (minor units, as the rate or the clerk gives it),
 * rounded per line, halves away from zero:
 * - inclusive percentages are inside the price: net = round(price ÷ (1 + their rates together)),
 *   and they come to price − net, shared among them by rate (each round(net × rate), the last
 *   taking what rounding leaves so that they add up exactly);
 * - exclusive percentages are added: each round(net × rate), on the net, never on another tax.
 * `amount` is what the guest pays (price + exclusive taxes), `taxAmount` all the tax in it.
 */
export function taxLine(price: number, rules: TaxRule[], target: TaxTarget): TaxedLine {
  const applicable = rules.filter((t) => t.kind === "percentage" && t.appliesTo === target);
  const inclusive = applicable.filter((t) => t.inclusive);
  const exclusive = applicable.filter((t) => !t.inclusive);
  const insideRate = inclusive.reduce((s, t) => s + (t.percentThousandths ?? 0), 0);
  const net = inclusive.length ? divideRounded(price * wholeThousandths, wholeThousandths + insideRate) : price;
  const taxes: LineTax[] = [];
  let inside = price - net;
  inclusive.forEach((t, i) => {
    const amount = i === inclusive.length - 1 ? inside : divideRounded(net * (t.percentThousandths ?? 0), wholeThousandths);
    inside -= amount;
    taxes.push({ tax_id: t.id, name: t.name, amount, inclusive: true });
  });
  for (const t of exclusive) taxes.push({ tax_id: t.id, name: t.name, amount: divideRounded(net * (t.percentThousandths ?? 0), wholeThousandths), inclusive: false });
  const added = taxes.filter((t) => !t.inclusive).reduce((s, t) => s + t.amount, 0);
  return { amount: price + added, taxAmount: price + added - net, taxes: taxes.filter((t) => t.amount !== 0) };
}

/** The per-night fees of one room night for `guests` people: each its own line, wholly tax. */
function nightFees(rules: TaxRule[], guests: number): { rule: TaxRule; amount: number; detail: string }[] {
  return rules
    .filter((t) => t.kind !== "percentage" && t.appliesTo === "room_nights" && (t.amount ?? 0) > 0)
    .map((rule) =>
      rule.kind === "per_night"
        ? { rule, amount: rule.amount!, detail: "" }
        : { rule, amount: rule.amount! * guests, detail: `${guests} ${guests === 1 ? "guest" : "guests"}` },
    );
}

/** A folio line as the arithmetic sees it: what it charges and the taxes in it. */
export type PricedLine = { amount: number; taxAmount: number; taxes: LineTax[] };

/**
 * One room night's folio lines, as posted: the night with its percentage taxes on room nights,
 * then each per-night fee (per night, or per person per night for `guests` people), wholly tax.
 */
export function nightLines(price: number, rules: TaxRule[], guests: number) {
  return {
    night: taxLine(price, rules, "room_nights"),
    fees: nightFees(rules, guests).map((f) => ({
      ...f,
      line: { amount: f.amount, taxAmount: f.amount, taxes: [{ tax_id: f.rule.id, name: f.rule.name, amount: f.amount, inclusive: false }] } satisfies PricedLine,
    })),
  };
}

/** A stay's price: its lines' sums (gross = net + tax) and each tax's share, in order of first appearance. */
export type StayPrice = { net: number; tax: number; gross: number; taxes: LineTax[] };

/** The sums of folio lines: what a quote states and a reservation keeps are the sums of the very lines the folio carries. */
export function sumLines(lines: PricedLine[]): StayPrice {
  const byTax = new Map<string, LineTax>();
  let gross = 0;
  let tax = 0;
  for (const l of lines) {
    gross += l.amount;
    tax += l.taxAmount;
    for (const t of l.taxes) {
      const s = byTax.get(t.tax_id);
      if (s) s.amount += t.amount;
      else byTax.set(t.tax_id, { ...t });
    }
  }
  return { net: gross - tax, tax, gross, taxes: [...byTax.values()] };
}

/** What a stay's room nights will charge on its folio: the sums of `nightLines` over its nights. */
export function priceStay(nightly: { amount: number }[], rules: TaxRule[], guests: number): StayPrice {
  return sumLines(
    nightly.flatMap((n) => {
      const { night, fees } = nightLines(n.amount, rules, guests);
      return [night, ...fees.map((f) => f.line)];
    }),
  );
}

/** A percentage for people: 7500 → "7.5". */
export const percentText = (thousandths: number) => String(thousandths / 1000);
