"use client";

import { createContext, useContext, useEffect, useMemo, type ReactNode } from "react";
import { datesInWords, formatClock, formatDay, formatMoment, formatTimeOfDay, type DayStyle, type IsoDate } from "@/lib/dates";
import { amountText, defaultLocale, formatMoney, parseMoney, sampleAmount, shortAmount, type Money } from "@/lib/money";

/** The property on screen as staff read it: its currency, number format and time zone. */
export type PropertyFormat = { currency: string; locale: string; timezone: string };

const fallback: PropertyFormat = { currency: "USD", locale: defaultLocale, timezone: "UTC" };
const Context = createContext<PropertyFormat>(fallback);

// The property on screen for code outside React's tree (an error's words in `callError`); set in
// the browser only, where those errors are read, so no server render shares it across requests.
const shown: { current: PropertyFormat } = { current: fallback };
export const shownFormat = () => shown.current;

/** Set once by the dashboard's layout from the property on screen. */
export function PropertyFormatProvider({ value, children }: { value: PropertyFormat | null; children: ReactNode }) {
  useEffect(() => {
    shown.current = value ?? fallback;
  }, [value]);
  return <Context.Provider value={value ?? fallback}>{children}</Context.Provider>;
}

/**
 * Formatters bound to the property on screen (server/money.ts and server/dates.ts do the work):
 * `f.money({amount, currency})`, `f.parse("1,250")`, `f.moment(iso)`, `f.day("2026-11-25")`.
 */
export function usePropertyFormat() {
  const place = useContext(Context);
  return useMemo(() => {
    const { currency, locale } = place;
    return {
      ...place,
      /** "$1,250.50"; a bare amount is in the property's currency. */
      money: (value: Money | number) => formatMoney(typeof value === "number" ? { amount: value, currency } : value, locale),
      /** "1250.50" for a form field (`grouping`: "1,250.50"). */
      amountText: (value: Money | number, options?: { grouping?: boolean }) =>
        amountText(typeof value === "number" ? { amount: value, currency } : value, locale, options),
      /** "1,250" or "1,250.50" for a tight grid cell. */
      short: (value: Money | number) => shortAmount(typeof value === "number" ? { amount: value, currency } : value, locale),
      /** What was typed as minor units, or null. */
      parse: (text: string, inCurrency = currency) => parseMoney(text, inCurrency, locale),
      /** "129.00": an example amount for a hint. */
      sample: (inCurrency = currency) => sampleAmount(inCurrency, locale),
      moment: (at: string | Date) => formatMoment(at, place),
      momentOrNever: (at: string | Date | null | undefined, never = "Never") => (at ? formatMoment(at, place) : never),
      clock: (at: string | Date) => formatClock(at, place),
      day: (date: IsoDate, style?: DayStyle | Intl.DateTimeFormatOptions) => formatDay(date, locale, style),
      /** A server's sentence with its `YYYY-MM-DD` dates in words ("night of Dec 8, 2026"). */
      words: (text: string) => datesInWords(text, locale),
      /** A time of day the hotel set ("15:00", the audit's hour 3) in the country's form: "3:00 PM". */
      timeOfDay: (time: string | number) => formatTimeOfDay(time, locale),
    };
  }, [place]);
}

export type Formatters = ReturnType<typeof usePropertyFormat>;

/** An amount in the property's format, where a hook cannot be called (a table column's cell). */
export function MoneyText({ value }: { value: Money }) {
  return <>{usePropertyFormat().money(value)}</>;
}

/** A calendar date in words. */
export function DayText({ date, style }: { date: IsoDate; style?: DayStyle | Intl.DateTimeFormatOptions }) {
  return <time dateTime={date}>{usePropertyFormat().day(date, style)}</time>;
}

/** A moment in the property's zone, as a `<time>` element. */
export function MomentText({ at }: { at: string }) {
  return <time dateTime={at}>{usePropertyFormat().moment(at)}</time>;
}
