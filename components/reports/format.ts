/** Display helpers for amounts in minor units and dates as `YYYY-MM-DD`, shared by rates and reports. */

const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string) {
  let f = moneyFormats.get(currency);
  if (!f) {
    f = new Intl.NumberFormat("en-US", { style: "currency", currency });
    moneyFormats.set(currency, f);
  }
  return f;
}

/** Digits after the point in the currency's minor unit (2 for USD, 0 for JPY). */
export const minorDigits = (currency: string) => moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;

/** 12900 USD → "$129.00". */
export const formatMoney = (amount: number, currency: string) => moneyFormat(currency).format(amount / 10 ** minorDigits(currency));

/** 12900 USD → "129" (whole units, for tight grid cells) or "129.50". */
export const shortMoney = (amount: number, currency: string) => {
  const value = amount / 10 ** minorDigits(currency);
  return Number.isInteger(value) ? String(value) : value.toFixed(minorDigits(currency));
};

/** "129.50" in the currency's major unit → 12950, or null when it is not an amount. */
export function parseMoney(text: string, currency: string): number | null {
  const clean = text.trim().replace(/,/g, "");
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  return Math.round(Number(clean) * 10 ** minorDigits(currency));
}

export const formatPercent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;

const utc = (d: string) => new Date(`${d}T00:00:00Z`);
export const addDays = (d: string, n: number) => new Date(utc(d).getTime() + n * 86_400_000).toISOString().slice(0, 10);
export const daysBetween = (a: string, b: string) => Math.round((utc(b).getTime() - utc(a).getTime()) / 86_400_000);
export const weekdayIndex = (d: string) => utc(d).getUTCDay();

/** "Mon 1 Dec" style labels, in UTC so a date never shifts with the browser's zone. */
export const dayLabel = (d: string, options: Intl.DateTimeFormatOptions = { weekday: "short", day: "numeric", month: "short" }) =>
  utc(d).toLocaleDateString("en-GB", { ...options, timeZone: "UTC" });

/** Today's date where the property is. */
export const todayIn = (timezone: string) => new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
