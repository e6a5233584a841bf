import { formatGuestDay, formatGuestMoment, formatGuestTimeOfDay, type IsoDate } from "@/lib/dates";
import { formatMoney, type Money } from "@/lib/money";

/**
 * How the guest pages write money, days and times in the guest's language: the property's
 * currency in the guest's number format (lib/money), dates as calendar dates (lib/dates).
 */
export const guestMoney = (m: Money, locale: string) => formatMoney(m, locale);
export const guestDay = (date: IsoDate, locale: string) => formatGuestDay(date, locale, "long");
/** A wall-clock moment at the hotel ("2026-12-23T00:00"), written as read there. */
export const guestMoment = (wallClock: string, locale: string) => formatGuestMoment(wallClock, locale);
/** "15:00" as the guest's language writes a time of day. */
export const guestClock = (time: string, locale: string) => formatGuestTimeOfDay(time, locale);

/** The query string of a guest page, keeping what the guest chose and the language. */
export function guestQuery(values: Record<string, string | number | null | undefined>) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== "") params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : "";
}
