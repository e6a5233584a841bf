import type { BadgeTone } from "@/components/ui";
import type { Money } from "@/lib/money";
import { channelWords, housekeepingWords, reservationStatusWords, sourceWords } from "@/lib/words";
import { plural } from "@/lib/words";

export const nightsLabel = (n: number) => plural(n, "night");

const statusTones: Record<string, BadgeTone> = { confirmed: "blue", checked_in: "teal", checked_out: "neutral", cancelled: "red", no_show: "amber" };
export const statusLabels: Record<string, { label: string; tone: BadgeTone }> = Object.fromEntries(
  Object.entries(reservationStatusWords).map(([status, label]) => [status, { label, tone: statusTones[status] }]),
);

export const sourceLabels = sourceWords;
export const channelLabels = channelWords;
/** Why a room type × rate plan cannot be booked, in a clerk's words (the quote's `reason`). */
export const unbookableLabels: Record<string, string> = {
  no_rate: "No rate loaded for every night",
  stop_sell: "Sales stopped (stop-sell) on a night of the stay",
  closed_to_arrival: "Closed to arrival on this date",
  closed_to_departure: "Closed to departure on this date",
  min_stay: "Shorter than the minimum stay",
  max_occupancy: "Too many guests for this room type",
  no_availability: "Sold out: no room free on every night",
};

export const housekeepingLabels = housekeepingWords;

/** How a payment was made, in words: "Card •••• 4242", "Cash", "Bank transfer (INV-12)". */
export const paymentMethodWords = (m: { type: string; last4?: string | null; reference?: string | null }) =>
  m.type === "card" ? `Card •••• ${m.last4 ?? ""}` : m.type === "cash" ? "Cash" : `Bank transfer${m.reference ? ` (${m.reference})` : ""}`;

/** What a folio's balance means for the guest, in words: owes, holds to refund, or settled. */
export const balanceWords = (balance: Money, formatMoney: (m: Money) => string) =>
  balance.amount > 0 ? `owes ${formatMoney(balance)}` : balance.amount < 0 ? `holds ${formatMoney({ ...balance, amount: -balance.amount })} to refund` : "is settled";

const brands: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express", discover: "Discover", diners: "Diners Club", jcb: "JCB", unionpay: "UnionPay" };

/** "Visa •••• 4242, expires 12/2031", or why the card on file cannot be charged yet. */
export const guaranteeWords = (g: { status: string; card: { brand: string; last4: string; exp_month: number | null; exp_year: number | null } | null }) => {
  const card = g.card ? `${brands[g.card.brand] ?? "Card"} •••• ${g.card.last4}${g.card.exp_month && g.card.exp_year ? `, expires ${String(g.card.exp_month).padStart(2, "0")}/${g.card.exp_year}` : ""}` : "A card";
  return g.status === "active" ? card : `${card}: waiting for the guest to confirm it with their bank; it cannot be charged until then`;
};

/** The card on file a payment may be charged to, in words; null when there is none, or it still awaits the guest's bank. */
export const chargeableCard = (g: Parameters<typeof guaranteeWords>[0] | null | undefined) => (g && g.status === "active" ? guaranteeWords(g) : null);

/** Stripe's reasons for a dispute, in the words of a front desk (others: no reason given). */
const disputeReasons: Record<string, string> = {
  fraudulent: "the cardholder says they did not make it",
  duplicate: "the cardholder says it was charged twice",
  product_not_received: "the cardholder says the stay was not provided",
  product_unacceptable: "the cardholder says the stay was not as described",
  credit_not_processed: "the cardholder says a refund was not given",
  unrecognized: "the cardholder does not recognise it",
  subscription_canceled: "the cardholder says it was cancelled",
};

/**
 * A payment's dispute at the guest's bank, in words: taken back (with the amount, and the day it
 * was, `takenBackOn`: the business date of the withdrawal), an inquiry that moved no money, won
 * (given back) or lost; on the payment that gives a won dispute's money back, what it is.
 */
export function disputeWords(
  d: { status: string; reason: string | null; amount: Money; reinstates_payment_id: string | null },
  takenBackOn: string | null,
  fmt: { money: (m: Money) => string; day: (d: string, style?: "long") => string },
) {
  if (d.reinstates_payment_id) return `Given back by the guest's bank: the hotel won the dispute over ${fmt.money(d.amount)}`;
  const why = d.reason && disputeReasons[d.reason] ? ` (${disputeReasons[d.reason]})` : "";
  const taken = `${fmt.money(d.amount)}${takenBackOn ? ` taken back on ${fmt.day(takenBackOn, "long")}` : " taken back"}`;
  if (d.status.startsWith("warning_")) return `The guest's bank asks about this payment${why}; no money was taken back${d.status === "warning_closed" ? ", and the question is closed" : ""}`;
  if (d.status === "won") return `Disputed by the guest's bank${why}: the hotel won, and the money came back`;
  if (d.status === "lost") return `Disputed by the guest's bank${why}: the hotel lost, ${taken}`;
  return `Disputed by the guest's bank${why}: ${taken}; answer it in Stripe's dashboard`;
}

/** A stay's late check-out as the desk says it beside the departure: "Late check-out at 2:00 PM", or null when none was granted. */
export function lateCheckOutWords(r: { late_check_out?: { until: string | null } | null }, timeOfDay: (time: string) => string): string | null {
  if (!r.late_check_out) return null;
  return r.late_check_out.until ? `Late check-out at ${timeOfDay(r.late_check_out.until)}` : "Late check-out";
}
