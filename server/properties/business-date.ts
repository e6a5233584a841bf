import { addDays, todayIn, wallClockIn, type IsoDate } from "@/lib/dates";

type Clocked = { timezone: string; businessDate: IsoDate | null; auditHour: number };

/**
 * The property's "today", the open business date: the business date its last night audit (or the
 * sandbox's advance_day) opened, whatever the calendar says, until the next audit closes it. So
 * between midnight and the audit hour the day before is still open, and every posting, payment,
 * check-out and desk rule belongs to it; after an evening audit (or advance_day) the next one.
 * Only a property that has never been audited trades on its local calendar date. The database
 * reads the same rule (`innkeep_posting_day`, migration 0028) to date what it posts.
 */
export function businessToday(property: Pick<Clocked, "timezone" | "businessDate">, now = new Date()): IsoDate {
  return property.businessDate ?? todayIn(property.timezone, now);
}

/**
 * The property's clock as its policies read it (cancellation deadlines, no-shows, late
 * check-outs): the local wall time, on the open business date when that is ahead of the calendar
 * (the sandbox after advance_day, an evening audit), so 23:30 is 23:30 of the business day. While
 * the open day is behind the calendar (after midnight, before the audit) the hours still run on:
 * 01:30 is 01:30 of the calendar's day, a day and a half hour after the open day began.
 * An ISO local date-time ("YYYY-MM-DDTHH:MM:SS").
 */
export function businessClock(property: Pick<Clocked, "timezone" | "businessDate">, now = new Date()): string {
  const local = wallClockIn(property.timezone, now);
  const calendar = local.slice(0, 10);
  return property.businessDate && property.businessDate > calendar ? `${property.businessDate}${local.slice(10)}` : local;
}

/** Whether business date `date` is closed: the business date has moved past it (its audit ran, or advance_day or a later audit skipped it). */
export const isClosedDay = (property: Pick<Clocked, "businessDate">, date: IsoDate) => property.businessDate !== null && date < property.businessDate;

/** The instant a wall-clock time of the zone names (the earlier one in a DST overlap, shifted forward in a gap). */
export function zonedInstant(date: IsoDate, hour: number, timezone: string): Date {
  const wall = Date.parse(`${date}T${String(hour).padStart(2, "0")}:00:00Z`);
  let guess = wall;
  for (let i = 0; i < 2; i++) guess = wall - offsetOf(timezone, new Date(guess));
  return new Date(guess);
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetOf(timezone: string, at: Date): number {
  return Date.parse(`${wallClockIn(timezone, at)}Z`) - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * When the night audit closing business date `date` is due: at the audit hour of the next
 * morning for an hour before noon (03:00 by default), at that hour of the same evening otherwise.
 */
export function auditDueAt(date: IsoDate, property: Pick<Clocked, "timezone" | "auditHour">): Date {
  return zonedInstant(property.auditHour < 12 ? addDays(date, 1) : date, property.auditHour, property.timezone);
}

/** Whether the day `date` is closed: its audit ran (the business date moved past it) or its audit hour has come. */
export function dayClosed(date: IsoDate, property: Clocked, now = new Date()): boolean {
  return (property.businessDate !== null && property.businessDate > date) || now.getTime() >= auditDueAt(date, property).getTime();
}

/**
 * From when staff may close business date `date` by hand (the night audit run from the reports
 * page): once that date is over on the property's clock (midnight), or at its audit hour when that
 * comes first (an evening hour). Never during the day itself, so this evening's late arrivals are
 * never no-shows at 4 p.m.; and once it is closed, staff may record its no-shows too (`dayClosed`).
 */
export function handCloseAt(date: IsoDate, property: Pick<Clocked, "timezone" | "auditHour">): Date {
  const due = auditDueAt(date, property);
  const midnight = zonedInstant(addDays(date, 1), 0, property.timezone);
  return due.getTime() < midnight.getTime() ? due : midnight;
}

/**
 * The business date a night audit run by hand now would close: the latest date that may be closed
 * by hand (`handCloseAt`), or, when that one is closed already, the open business date (not yet
 * closable; `opensAt` says from when).
 */
export function handCloseDay(property: Clocked, now = new Date()): { date: IsoDate; opensAt: Date; open: boolean } {
  const calendar = todayIn(property.timezone, now);
  const latest = now.getTime() >= handCloseAt(calendar, property).getTime() ? calendar : addDays(calendar, -1);
  const date = property.businessDate && property.businessDate > latest ? property.businessDate : latest;
  const opensAt = handCloseAt(date, property);
  return { date, opensAt, open: now.getTime() >= opensAt.getTime() };
}
