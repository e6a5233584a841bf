import { daysBetween, nightsOf, type IsoDate } from "@/lib/dates";

export type NightRate = { amount: number; minStay: number; closedToArrival: boolean; closedToDeparture: boolean; stopSell: boolean };

export const unbookableReasons = [
  "no_rate",
  "stop_sell",
  "closed_to_arrival",
  "closed_to_departure",
  "min_stay",
  "max_occupancy",
  "no_availability",
] as const;
export type UnbookableReason = (typeof unbookableReasons)[number];

export type Quote = {
  nightly: { date: IsoDate; amount: number }[];
  total: number;
  bookable: boolean;
  reason?: UnbookableReason;
  /** Human words for `reason`, used as the 409 message. */
  explanation?: string;
};

/**
 * Prices a stay from its nights' rates and checks the rate restrictions: every night needs a
 * rate and must not be stop-sell; arrival must not be closed to arrival, departure not closed to
 * departure (the departure day's rate row); the stay must meet the arrival night's minimum stay.
 */
export function quoteStay(checkIn: IsoDate, checkOut: IsoDate, rateOn: (date: IsoDate) => NightRate | undefined): Quote {
  const nights = nightsOf(checkIn, checkOut);
  const nightly: Quote["nightly"] = [];
  let missing: IsoDate | undefined;
  let stopped: IsoDate | undefined;
  for (const date of nights) {
    const rate = rateOn(date);
    if (!rate) missing ??= date;
    else {
      nightly.push({ date, amount: rate.amount });
      if (rate.stopSell) stopped ??= date;
    }
  }
  const total = nightly.reduce((sum, n) => sum + n.amount, 0);
  const refuse = (reason: UnbookableReason, explanation: string): Quote => ({ nightly, total, bookable: false, reason, explanation });
  if (missing) return refuse("no_rate", `No rate is loaded for the night of ${missing}.`);
  if (stopped) return refuse("stop_sell", `Sales are stopped for the night of ${stopped}.`);
  const arrival = rateOn(checkIn)!;
  if (arrival.closedToArrival) return refuse("closed_to_arrival", `Arrival on ${checkIn} is closed.`);
  if (rateOn(checkOut)?.closedToDeparture) return refuse("closed_to_departure", `Departure on ${checkOut} is closed.`);
  const length = daysBetween(checkIn, checkOut);
  if (length < arrival.minStay) return refuse("min_stay", `Arrivals on ${checkIn} require a stay of at least ${arrival.minStay} nights.`);
  return { nightly, total, bookable: true };
}
