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
