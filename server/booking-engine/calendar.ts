import type { Db } from "@/db/client";
import { addDays, daysBetween, type IsoDate } from "@/lib/dates";
import type { Money } from "@/lib/money";
import { ApiError } from "@/server/errors";
import { quoteSale, readSale } from "@/server/inventory/availability";
import { asNightRate } from "@/server/rates/daily-rates";
import { engineBySlug, sweepAbandoned } from "./guest";
import type { EngineCalendarQuery } from "./schemas";

/** The longest minimum stay the calendar looks ahead for: an arrival needing more is shown closed. */
const longestMinimumStay = 14;

/**
 * Why a day of the calendar cannot be an arrival, for the guest's words: before the hotel's
 * today, no room of a type that sleeps the party is free, arrival closed that day, no room sleeps
 * the party, or not on sale (stop-sell, no rate, departure closed, a minimum stay too long).
 */
export type ClosedReason = "past" | "sold_out" | "no_arrival" | "too_many_guests" | "closed";

export type CalendarDay =
  | { date: IsoDate; open: true; price: Money; nights: number }
  | { date: IsoDate; open: false; reason: ClosedReason };

/** How far ahead a guest may page the calendar, in months (each month read creates its nights' inventory rows). */
const furthestMonths = 24;
const monthsAhead = (today: IsoDate, months: number) => {
  let month = today.slice(0, 7);
  for (let i = 0; i < months; i++) month = shiftMonth(month, 1);
  return month;
};

/** The days of a month `YYYY-MM`, first to last. */
export function daysOfMonth(month: string): IsoDate[] {
  const days: IsoDate[] = [];
  for (let d = `${month}-01`; d.startsWith(month); d = addDays(d, 1)) days.push(d);
  return days;
}

/** The month before or after `YYYY-MM`. */
export const shiftMonth = (month: string, by: 1 | -1): string => (by === 1 ? addDays(`${month}-01`, 31) : addDays(`${month}-01`, -1)).slice(0, 7);

/**
 * A month of the booking engine's prices: for each day, the lowest price of a stay arriving that
 * day on the plans the engine sells, for the party, as the search would quote it (the same
 * availability quotes: the inventory, the rate restrictions, the taxes) and the nights it is for
 * (one, or the arrival's minimum stay), or why no stay can start that day. Everything is read in
 * one pass for the month (two round trips in all, as one search), and each day quoted from it.
 */
export async function priceCalendar({ db, slug, query, now = new Date() }: { db: Db; slug: string; query: EngineCalendarQuery; now?: Date }) {
  const { engine, property, tenant } = await engineBySlug(db, slug);
  await sweepAbandoned(db, property.id, now);
  const days = daysOfMonth(query.month);
  const last = days[days.length - 1];
  const sale = await readSale({ db, tenant }, { property_id: property.id }, (today) => {
    if (query.month > monthsAhead(today, furthestMonths)) throw new ApiError("parameter_invalid", `The calendar reaches ${furthestMonths} months ahead.`, { param: "month", location: "query" });
    const from = days[0] < today ? (today <= last ? today : last) : days[0];
    return { from, to: addDays(last, 1 + longestMinimumStay) };
  });
  const sold = sale.plans.filter((p) => engine.ratePlanIds.includes(p.id));
  const party = { adults: query.adults, children: query.children };
  const guests = party.adults + party.children;
  const fitting = sale.types.filter((t) => t.maxOccupancy >= guests);

  const dayOf = (date: IsoDate): CalendarDay => {
    if (date < sale.today) return { date, open: false, reason: "past" };
    if (!fitting.length) return { date, open: false, reason: "too_many_guests" };
    // The shortest stay the plans sold allow from this day (its arrival's minimum stay), within the look-ahead.
    const minimums = sold.flatMap((plan) =>
      fitting.filter((t) => plan.roomTypeIds.includes(t.id)).map((t) => asNightRate(sale.ratesByPlan.get(plan.id)?.get(`${t.id}:${date}`))?.minStay ?? 1),
    );
    const nights = Math.min(Math.max(1, Math.min(...minimums, longestMinimumStay + 1)), longestMinimumStay);
    const quotes = quoteSale(sale, { check_in: date, check_out: addDays(date, nights), ...party }).flatMap((type) =>
      type.quotes.filter((q) => engine.ratePlanIds.includes(q.rate_plan_id)),
    );
    const bookable = quotes.filter((q) => q.bookable);
    if (bookable.length) {
      const cheapest = bookable.reduce((low, q) => (q.price.gross.amount < low.price.gross.amount ? q : low));
      return { date, open: true, price: cheapest.price.gross, nights: daysBetween(date, addDays(date, nights)) };
    }
    const reasons = new Set(quotes.map((q) => q.reason));
    // A room is refused for want of a free one only once the rates allowed the stay: the rates are open, the rooms are full.
    if (reasons.has("no_availability")) return { date, open: false, reason: "sold_out" };
    if (reasons.has("closed_to_arrival")) return { date, open: false, reason: "no_arrival" };
    return { date, open: false, reason: "closed" };
  };

  return {
    object: "booking_calendar" as const,
    month: query.month,
    today: sale.today,
    currency: property.currency,
    previous: shiftMonth(query.month, -1) >= sale.today.slice(0, 7) ? shiftMonth(query.month, -1) : null,
    next: shiftMonth(query.month, 1) <= monthsAhead(sale.today, furthestMonths) ? shiftMonth(query.month, 1) : null,
    days: days.map(dayOf),
  };
}
