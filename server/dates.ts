/** Calendar dates as `YYYY-MM-DD` strings; arithmetic in UTC so no time zone or DST can shift a day. */
export type IsoDate = string;

const dayMs = 86_400_000;

// Quotes, calendars and reports walk the same few hundred dates on every request: parsing and
// formatting each through Date was a few percent of the API's CPU, a map lookup is not. Bounded,
// because dates can come from anyone's query string.
const cacheLimit = 20_000;
const parsed = new Map<IsoDate, number>();
const formatted = new Map<number, IsoDate>();

function toUtc(d: IsoDate): number {
  let ms = parsed.get(d);
  if (ms === undefined) {
    if (parsed.size >= cacheLimit) parsed.clear();
    parsed.set(d, (ms = Date.parse(`${d}T00:00:00Z`)));
  }
  return ms;
}

function fromUtc(ms: number): IsoDate {
  let d = formatted.get(ms);
  if (d === undefined) {
    if (formatted.size >= cacheLimit) formatted.clear();
    formatted.set(ms, (d = new Date(ms).toISOString().slice(0, 10)));
  }
  return d;
}

export const addDays = (d: IsoDate, n: number): IsoDate => fromUtc(toUtc(d) + n * dayMs);
export const daysBetween = (from: IsoDate, to: IsoDate): number => Math.round((toUtc(to) - toUtc(from)) / dayMs);

/** Each night of a half-open range [from, to). */
export function nightsOf(from: IsoDate, to: IsoDate): IsoDate[] {
  const n = daysBetween(from, to);
  return Array.from({ length: Math.max(0, n) }, (_, i) => addDays(from, i));
}

export const weekdays = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type Weekday = (typeof weekdays)[number];
export const weekdayOf = (d: IsoDate): Weekday => weekdays[new Date(toUtc(d)).getUTCDay()];

/** Today's date where the property is: its local date decides "today" (contract §6). */
export function todayIn(timezone: string, now = new Date()): IsoDate {
  return dateFormat(timezone).format(now);
}

/** Building a formatter costs ~30× formatting with one, so each zone's is kept. */
const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit" });
    formats.set(timezone, format);
  }
  return format;
}
