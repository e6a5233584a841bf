import { and, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { inventoryNights, payments, properties, ratePlans, refunds, roomTypes, salesDays, salesNights } from "@/db/schema";
import { type IsoDate } from "@/server/dates";
import { assertDateRange } from "@/server/date-ranges";
import { ApiError } from "@/server/errors";
import { capturedStatuses } from "@/server/folios/folios";
import { ensureNights, hasEveryNight } from "@/server/inventory/nights";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { occupancyRows, occupancyTotals, revenueRows, revenueTotals, type MoneyByDate, type NightFigures } from "./build";

export type ReportQuery = { property_id: string; from: IsoDate; to: IsoDate; group_by?: "source" | "channel" | "rate_plan" | "room_type" };
export const maxReportDays = 731;

async function reportProperty(ctx: Ctx, query: ReportQuery) {
  const property = await findOwned(ctx.db, properties, ctx.tenant, query.property_id, "property", { param: "property_id" });
  assertDateRange(query.from, query.to, maxReportDays, "query", "report");
  return property;
}

/**
 * Per night: rooms in service (total less out of order) and the nights sold with their revenue,
 * read from the sums of sold nights per room type and date (db/schema/reports.ts), kept as each
 * stay is written: the work grows with the nights in the range, not the stays ever booked.
 */
async function nightFigures(db: Executor, property: { id: string }, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, NightFigures>> {
  const propertyId = property.id;
  const readCapacity = () =>
    db
      .select({
        date: inventoryNights.date,
        available: sql<number>`sum(${inventoryNights.total} - ${inventoryNights.outOfOrder})`.mapWith(Number),
        rows: sql<number>`count(*)`.mapWith(Number),
      })
      .from(inventoryNights)
      .where(and(eq(inventoryNights.propertyId, propertyId), gte(inventoryNights.date, from), lt(inventoryNights.date, to)))
      .groupBy(inventoryNights.date);
  const [types, capacityRead, sold] = await Promise.all([
    db.select({ id: roomTypes.id }).from(roomTypes).where(eq(roomTypes.propertyId, propertyId)),
    readCapacity(),
    db
      .select({ date: salesDays.date, sold: sql<number>`sum(${salesDays.roomsSold})`.mapWith(Number), revenue: sql<number>`sum(${salesDays.roomRevenue})`.mapWith(Number) })
      .from(salesDays)
      .where(and(eq(salesDays.propertyId, propertyId), gte(salesDays.date, from), lt(salesDays.date, to)))
      .groupBy(salesDays.date),
  ]);
  // The capacity read counts the night rows it summed: only a range with missing rows (nights
  // nobody has looked at yet) makes them and reads again.
  let capacity = capacityRead;
  if (!hasEveryNight(capacity.reduce((n, c) => n + c.rows, 0), types.length, from, to)) {
    await ensureNights(db, types.map((t) => t.id), from, to);
    capacity = await readCapacity();
  }
  const figures = new Map<IsoDate, NightFigures>();
  for (const c of capacity) figures.set(c.date, { date: c.date, roomsAvailable: c.available, roomsSold: 0, roomRevenue: 0 });
  for (const s of sold) {
    const f = figures.get(s.date) ?? { date: s.date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
    figures.set(s.date, { ...f, roomsSold: s.sold, roomRevenue: s.revenue });
  }
  return figures;
}

/**
 * Money per local date of the property: captured payments by capture time, refunds by creation.
 * The local dates [from, to) are one range of instants (local midnight to local midnight, DST
 * included), which the index on (property, time) reads directly; each row is then converted once.
 */
async function moneyByDate(db: Executor, propertyId: string, timezone: string, from: IsoDate, to: IsoDate) {
  const sum = async (table: typeof payments | typeof refunds, at: typeof payments.capturedAt | typeof refunds.createdAt, only?: SQL) => {
    // Grouped by the local date itself (the drivers hand dates over as `YYYY-MM-DD`): cheaper per
    // row than formatting each instant with to_char.
    const rows = await db
      .select({ date: sql<string>`(${at} at time zone ${timezone})::date`, total: sql<number>`sum(${table.amount})`.mapWith(Number) })
      .from(table)
      .where(
        and(
          eq(table.propertyId, propertyId),
          only,
          sql`${at} >= (${from}::date::timestamp at time zone ${timezone})`,
          sql`${at} < (${to}::date::timestamp at time zone ${timezone})`,
        ),
      )
      .groupBy(sql`1`);
    return new Map(rows.map((r) => [r.date, r.total])) as MoneyByDate;
  };
  const [paid, refunded] = await Promise.all([sum(payments, payments.capturedAt, inArray(payments.status, [...capturedStatuses])), sum(refunds, refunds.createdAt)]);
  return { payments: paid, refunds: refunded };
}

const header = (kind: string, property: typeof properties.$inferSelect, query: ReportQuery) => ({
  object: "report" as const,
  type: kind,
  livemode: property.livemode,
  property_id: property.id,
  currency: property.currency,
  from: query.from,
  to: query.to,
});

function noGrouping(query: ReportQuery) {
  if (query.group_by) throw new ApiError("parameter_invalid", "group_by applies to the production report only.", { param: "group_by", location: "query" });
}

export async function occupancyReport(ctx: Ctx & { query: ReportQuery }) {
  const property = await reportProperty(ctx, ctx.query);
  noGrouping(ctx.query);
  const rows = occupancyRows(ctx.query.from, ctx.query.to, await nightFigures(ctx.db, property, ctx.query.from, ctx.query.to));
  return { ...header("occupancy", property, ctx.query), data: rows, totals: occupancyTotals(rows) };
}

export async function revenueReport(ctx: Ctx & { query: ReportQuery }) {
  const { query } = ctx;
  const property = await reportProperty(ctx, query);
  noGrouping(query);
  const [nights, money] = await Promise.all([nightFigures(ctx.db, property, query.from, query.to), moneyByDate(ctx.db, property.id, property.timezone, query.from, query.to)]);
  const rows = revenueRows(query.from, query.to, nights, money.payments, money.refunds);
  return { ...header("revenue", property, query), data: rows, totals: revenueTotals(rows, nights) };
}

/**
 * Production of the stays arriving in [from, to), grouped: reservations (all but cancelled),
 * room nights and room revenue (sold stays, every night booked), cancellations. Read from the
 * per-night sales rows, which carry each stay's arrival, status and grouping keys.
 */
export async function productionReport(ctx: Ctx & { query: ReportQuery }) {
  const { query, db, tenant } = ctx;
  const property = await reportProperty(ctx, query);
  const groupBy = query.group_by ?? "source";
  const key = { source: salesNights.source, channel: salesNights.channel, rate_plan: salesNights.ratePlanId, room_type: salesNights.roomTypeId }[groupBy];
  const rows = await db
    .select({
      group: key,
      reservations: sql<number>`count(distinct ${salesNights.reservationId}) filter (where ${salesNights.status} <> 'cancelled')`.mapWith(Number),
      roomNights: sql<number>`count(*) filter (where ${salesNights.booked})`.mapWith(Number),
      roomRevenue: sql<number>`coalesce(sum(${salesNights.amount}) filter (where ${salesNights.booked}), 0)`.mapWith(Number),
      cancellations: sql<number>`count(distinct ${salesNights.reservationId}) filter (where ${salesNights.status} = 'cancelled')`.mapWith(Number),
    })
    .from(salesNights)
    .where(
      and(
        eq(salesNights.accountId, tenant.accountId),
        eq(salesNights.livemode, tenant.livemode),
        eq(salesNights.propertyId, property.id),
        gte(salesNights.checkIn, query.from),
        lt(salesNights.checkIn, query.to),
      ),
    )
    .groupBy(key)
    .orderBy(key);
  const names = await groupNames(db, ctx, groupBy, property.id);
  const data = rows.map((r) => ({
    group: r.group,
    ...(names ? { group_name: names.get(r.group ?? "") ?? null } : {}),
    reservations: r.reservations,
    room_nights: r.roomNights,
    room_revenue: r.roomRevenue,
    cancellations: r.cancellations,
  }));
  const totals = {
    reservations: data.reduce((s, r) => s + r.reservations, 0),
    room_nights: data.reduce((s, r) => s + r.room_nights, 0),
    room_revenue: data.reduce((s, r) => s + r.room_revenue, 0),
    cancellations: data.reduce((s, r) => s + r.cancellations, 0),
  };
  return { ...header("production", property, query), group_by: groupBy, data, totals };
}

/** Codes for rate plan and room type groups, so a report reads without a second lookup. */
async function groupNames(db: Executor, ctx: Ctx, groupBy: string, propertyId: string) {
  if (groupBy === "rate_plan") {
    const rows = await db.select({ id: ratePlans.id, code: ratePlans.code }).from(ratePlans).where(ownedBy(ratePlans, ctx.tenant, eq(ratePlans.propertyId, propertyId)));
    return new Map(rows.map((r) => [r.id, r.code]));
  }
  if (groupBy === "room_type") {
    const rows = await db.select({ id: roomTypes.id, code: roomTypes.code }).from(roomTypes).where(ownedBy(roomTypes, ctx.tenant, eq(roomTypes.propertyId, propertyId)));
    return new Map(rows.map((r) => [r.id, r.code]));
  }
  return null;
}
