import type { BadgeTone } from "@/components/ui";

export type Money = { amount: number; currency: string };

/** Minor units per major unit of a currency (100 for USD, 1 for JPY). */
export function minorPerMajor(currency: string): number {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return 10 ** digits;
}

/** "$129.00" from `{ amount: 12900, currency: "USD" }`. */
export function formatMoney({ amount, currency }: Money): string {
  return new Intl.NumberFormat(undefined, { style: "currency", currency }).format(amount / minorPerMajor(currency));
}

/** What a clerk typed ("12.50", "12,50") as minor units, or null when it is not an amount. */
export function parseAmount(text: string, currency: string): number | null {
  const clean = text.trim().replace(",", ".");
  if (!/^-?\d+(\.\d+)?$/.test(clean)) return null;
  return Math.round(Number(clean) * minorPerMajor(currency));
}

/** The amount in major units as a form's initial text ("129.00"). */
export const amountText = ({ amount, currency }: Money) => {
  const per = minorPerMajor(currency);
  return (amount / per).toFixed(Math.round(Math.log10(per)));
};

/** "Mon, 24 Nov 2026" for a `YYYY-MM-DD` date, read as the calendar date it is (no time zone shift). */
export function formatDate(date: string, style: "short" | "long" = "short"): string {
  const d = new Date(`${date}T12:00:00Z`);
  return d.toLocaleDateString(undefined, style === "long" ? { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" } : { day: "numeric", month: "short", timeZone: "UTC" });
}

export const formatTimestamp = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

export const nightsLabel = (n: number) => `${n} night${n === 1 ? "" : "s"}`;

export const statusLabels: Record<string, { label: string; tone: BadgeTone }> = {
  confirmed: { label: "Confirmed", tone: "blue" },
  checked_in: { label: "In house", tone: "teal" },
  checked_out: { label: "Checked out", tone: "neutral" },
  cancelled: { label: "Cancelled", tone: "red" },
  no_show: { label: "No-show", tone: "amber" },
};

export const sourceLabels: Record<string, string> = {
  direct: "Direct",
  api: "API",
  phone: "Phone",
  email: "E-mail",
  walk_in: "Walk-in",
  channel: "Channel",
};

export const channelLabels: Record<string, string> = {
  booking_com: "Booking.com",
  expedia: "Expedia",
  airbnb: "Airbnb",
  agoda: "Agoda",
  hotelbeds: "Hotelbeds",
  other: "Other channel",
};

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

export const housekeepingLabels: Record<string, string> = { clean: "Clean", inspected: "Inspected", dirty: "Dirty", "out-of-order": "Out of order" };
