import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { folioCharges, folios, inventoryNights, moneyDays, roomTypes, salesDays } from "@/db/schema";
import { todayIn, type IsoDate } from "@/lib/dates";
import { ensureNights, hasEveryNight } from "@/server/inventory/nights";
import { preparedQuery } from "@/db/prepared";
import type { ChargedNight, MoneyByDate, NightFigures } from "./build";

// The figures of each night and business day that the reports and the night audit's flash read:
// rooms sold and available, the money taken, what the folios charge.

/**
 * Per night: rooms in service (total less out of order) and the nights sold with their revenue,
 * read from the sums of sold nights per room type and date (db/schema/reports.ts), kept as each
 * stay is written: the work grows with the nights in the range, not the stays ever booked.
 */
export async function nightFigures(
  db: Executor,
  property: { id: string; createdAt: Date; timezone: string },
  from: IsoDate,
  to: IsoDate,
): Promise<Map<IsoDate, NightFigures>> {
  // Statements built once (a report's rows are many, and drizzle's per-row mapping of computed
  // columns was a fifth of the report's time in the server): everything that varies is a placeholder.
  const range = { property: property.id, from, to };
  const readCapacity = () =>
    preparedQuery(db, "report_capacity", range, (p) =>
      db
        .select({
          date: inventoryNights.date,
          available: sql<number>`sum(${inventoryNights.total} - ${inventoryNights.outOfOrder})`.mapWith(Number),
          rows: sql<number>`count(*)`.mapWith(Number),
        })
        .from(inventoryNights)
        .where(and(eq(inventoryNights.propertyId, p("property")), gte(inventoryNights.date, p("from")), lt(inventoryNights.date, p("to"))))
        .groupBy(inventoryNights.date),
    );
  const [types, capacityRead, sold, opened] = await Promise.all([
    preparedQuery(db, "report_room_types", range, (p) =>
      db
        .select({ id: roomTypes.id })
        .from(roomTypes)
        .where(eq(roomTypes.propertyId, p("property"))),
    ),
    readCapacity(),
    preparedQuery(db, "report_sold", range, (p) =>
      db
        .select({
          date: salesDays.date,
          sold: sql<number>`sum(${salesDays.roomsSold})`.mapWith(Number),
          revenue: sql<number>`sum(${salesDays.roomRevenue})`.mapWith(Number),
        })
        .from(salesDays)
        .where(and(eq(salesDays.propertyId, p("property")), gte(salesDays.date, p("from")), lt(salesDays.date, p("to"))))
        .groupBy(salesDays.date),
    ),
    openedOn(db, property, from),
  ]);
  // The capacity read counts the night rows it summed: only a range with missing rows (nights
  // nobody has looked at yet) makes them and reads again.
  let capacity = capacityRead;
  if (
    !hasEveryNight(
      capacity.reduce((n, c) => n + c.rows, 0),
      types.length,
      from,
      to,
    )
  ) {
    await ensureNights(
      db,
      types.map((t) => t.id),
      from,
      to,
    );
    capacity = await readCapacity();
  }
  const figures = new Map<IsoDate, NightFigures>();
  // No room was for sale on a night before the hotel opened: its rows count none available.
  for (const c of capacity) figures.set(c.date, { date: c.date, roomsAvailable: c.date < opened ? 0 : c.available, roomsSold: 0, roomRevenue: 0 });
  for (const s of sold) {
    const f = figures.get(s.date) ?? { date: s.date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
    figures.set(s.date, { ...f, roomsSold: s.sold, roomRevenue: s.revenue });
  }
  return figures;
}

/**
 * The first night the hotel sold rooms on: the day it was created (its local date), or the first
 * night sold before it (stays imported or seeded from its past). Read only for a range that
 * starts before the creation day.
 */
async function openedOn(db: Executor, property: { id: string; createdAt: Date; timezone: string }, from: IsoDate): Promise<IsoDate> {
  const created = todayIn(property.timezone, property.createdAt);
  if (from >= created) return created;
  const [first] = await preparedQuery(db, "report_first_sale", { property: property.id, before: created }, (p) =>
    db
      .select({ date: sql<string | null>`min(${salesDays.date})::text` })
      .from(salesDays)
      .where(and(eq(salesDays.propertyId, p("property")), lt(salesDays.date, p("before")), sql`${salesDays.roomsSold} > 0`)),
  );
  return first?.date && first.date < created ? first.date : created;
}

/**
 * Money per business date of the property: captured payments by the day they were captured on, refunds by the day they were made on,
 * as kept per night in `money_days` (db/schema/reports.ts) by the writes of payments and refunds.
 */
export async function moneyByDate(db: Executor, propertyId: string, from: IsoDate, to: IsoDate) {
  const rows = await preparedQuery(db, "report_money", { property: propertyId, from, to }, (p) =>
    db
      .select({ date: moneyDays.date, payments: moneyDays.payments, refunds: moneyDays.refunds })
      .from(moneyDays)
      .where(and(eq(moneyDays.propertyId, p("property")), gte(moneyDays.date, p("from")), lt(moneyDays.date, p("to")))),
  );
  const paid: MoneyByDate = new Map();
  const refunded: MoneyByDate = new Map();
  for (const r of rows) {
    paid.set(r.date, r.payments);
    refunded.set(r.date, r.refunds);
  }
  return { payments: paid, refunds: refunded };
}

/**
 * Per night, what the folios charge for the nights sold (their room nights and per-night taxes,
 * as posted): gross and tax, so that the revenue report's net, tax and gross are the sums of
 * those folio lines. The nights are the sold ones of `sales_nights`, the same the report counts,
 * read as their sums per room type and date (`sales_days`, kept as stays and lines are written).
 */
export async function chargedByNight(db: Executor, propertyId: string, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, { net: number; tax: number; gross: number }>> {
  const rows = await preparedQuery(db, "report_charged", { property: propertyId, from, to }, (p) =>
    db
      .select({
        date: salesDays.date,
        gross: sql<number>`sum(${salesDays.chargedGross})`.mapWith(Number),
        tax: sql<number>`sum(${salesDays.chargedTax})`.mapWith(Number),
      })
      .from(salesDays)
      .where(and(eq(salesDays.propertyId, p("property")), gte(salesDays.date, p("from")), lt(salesDays.date, p("to"))))
      .groupBy(salesDays.date),
  );
  return new Map(rows.map((r) => [r.date, { net: r.gross - r.tax, tax: r.tax, gross: r.gross }]));
}

/**
 * Per day, what every folio line of the property charged on it (gross and the tax in it): a line
 * for a night (a room night, its per-night taxes, a fee dated a night) on that night, any other
 * (an extra, a correction) on the business date it was posted on. The whole of a day's charges,
 * which `dayRevenue` splits into room and other revenue.
 */
export async function chargedByDay(db: Executor, propertyId: string, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, { tax: number; gross: number }>> {
  const day = sql<IsoDate>`coalesce(${folioCharges.date}, ${folioCharges.postedOn})`;
  const rows = await db
    .select({ date: day, gross: sql<number>`sum(${folioCharges.amount})`.mapWith(Number), tax: sql<number>`sum(${folioCharges.taxAmount})`.mapWith(Number) })
    .from(folioCharges)
    .innerJoin(folios, eq(folios.id, folioCharges.folioId))
    .where(and(eq(folios.propertyId, propertyId), sql`${day} >= ${from}`, sql`${day} < ${to}`))
    .groupBy(day);
  return new Map(rows.map((r) => [r.date, { tax: r.tax, gross: r.gross }]));
}

/**
 * The one split of a day's revenue that the flash, the revenue report and (per stay) the
 * production report share (docs/decisions.md, "Room revenue, other revenue and taxes"): room
 * revenue is what the folios charge for the nights sold (room nights and their per-night taxes of
 * stays booked, in house or departed); other revenue is every other line of the day (extras,
 * fees, the retained charges of cancelled and no-show stays, corrections), each with its taxes.
 */
export async function dayRevenue(db: Executor, propertyId: string, from: IsoDate, to: IsoDate) {
  const [room, all] = await Promise.all([chargedByNight(db, propertyId, from, to), chargedByDay(db, propertyId, from, to)]);
  const zero = { net: 0, tax: 0, gross: 0 };
  const days = new Map<IsoDate, { room: ChargedNight; other: ChargedNight }>();
  for (const date of new Set([...room.keys(), ...all.keys()])) {
    const r = room.get(date) ?? zero;
    const a = all.get(date) ?? { tax: 0, gross: 0 };
    days.set(date, { room: r, other: { net: a.gross - a.tax - r.net, tax: a.tax - r.tax, gross: a.gross - r.gross } });
  }
  return days;
}
