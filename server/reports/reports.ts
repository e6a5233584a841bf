import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";
import { inventoryNights, payments, properties, ratePlans, refunds, reservations, roomTypes } from "@/db/schema";
import { type IsoDate } from "@/server/dates";
import { assertDateRange } from "@/server/date-ranges";
import { ApiError } from "@/server/errors";
import { capturedStatuses } from "@/server/folios/folios";
import { ensureNights } from "@/server/inventory/nights";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { occupancyRows, occupancyTotals, revenueRows, revenueTotals, type MoneyByDate, type NightFigures } from "./build";

export type ReportQuery = { property_id: string; from: IsoDate; to: IsoDate; group_by?: "source" | "channel" | "rate_plan" | "room_type" };
export const maxReportDays = 731;

/** Stays that count as sold: booked, in house or departed (not cancelled, not no-show). */
const soldStatuses = ["confirmed", "checked_in", "checked_out"] as const;

async function reportProperty(ctx: Ctx, query: ReportQuery) {
  const property = await findOwned(ctx.db, properties, ctx.tenant, query.property_id, "property", { param: "property_id" });
  assertDateRange(query.from, query.to, maxReportDays, "query", "report");
  return property;
}

/**
 * Per night: rooms in service (total less out of order) and the nights sold with their revenue.
 * A stay checked out early counts only the nights before its departure day (at least the
 * arrival night), as check-out puts the others back on sale: counting them too sold a resold
 * night twice and took occupancy above 1.
 */
async function nightFigures(db: Executor, property: { id: string; timezone: string }, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, NightFigures>> {
  const propertyId = property.id;
  const types = await db.select({ id: roomTypes.id }).from(roomTypes).where(eq(roomTypes.propertyId, propertyId));
  await ensureNights(db, types.map((t) => t.id), from, to);
  const [capacity, sold] = await Promise.all([
    db
      .select({ date: inventoryNights.date, available: sql<number>`sum(${inventoryNights.total} - ${inventoryNights.outOfOrder})`.mapWith(Number) })
      .from(inventoryNights)
      .where(and(eq(inventoryNights.propertyId, propertyId), gte(inventoryNights.date, from), lt(inventoryNights.date, to)))
      .groupBy(inventoryNights.date),
    db.execute<{ date: string; sold: string; revenue: string }>(sql`
      select n->>'date' as date, count(*) as sold, sum((n->>'amount')::bigint) as revenue
      from ${reservations} r cross join lateral jsonb_array_elements(r.nightly) as n
      where r.property_id = ${propertyId}
        and r.status in (${sql.join(soldStatuses.map((s) => sql`${s}`), sql`, `)})
        and r.check_in < ${to} and r.check_out > ${from}
        and n->>'date' >= ${from} and n->>'date' < ${to}
        and (r.status <> 'checked_out'
          or (n->>'date')::date < greatest(coalesce((r.checked_out_at at time zone ${property.timezone})::date, r.check_out), r.check_in + 1))
      group by 1`),
  ]);
  const figures = new Map<IsoDate, NightFigures>();
  for (const c of capacity) figures.set(c.date, { date: c.date, roomsAvailable: c.available, roomsSold: 0, roomRevenue: 0 });
  for (const s of rowsOf<{ date: string; sold: string; revenue: string }>(sold)) {
    const f = figures.get(s.date) ?? { date: s.date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
    figures.set(s.date, { ...f, roomsSold: Number(s.sold), roomRevenue: Number(s.revenue) });
  }
  return figures;
}


/** Money per local date of the property: captured payments by capture time, refunds by creation. */
async function moneyByDate(db: Executor, propertyId: string, timezone: string, from: IsoDate, to: IsoDate) {
  const localDate = (column: unknown) => sql<string>`to_char((${column} at time zone ${timezone})::date, 'YYYY-MM-DD')`;
  const [paid, refunded] = await Promise.all([
    db
      .select({ date: localDate(payments.capturedAt), total: sql<number>`sum(${payments.amount})`.mapWith(Number) })
      .from(payments)
      .where(and(eq(payments.propertyId, propertyId), inArray(payments.status, [...capturedStatuses]), sql`(${payments.capturedAt} at time zone ${timezone})::date >= ${from}::date`, sql`(${payments.capturedAt} at time zone ${timezone})::date < ${to}::date`))
      .groupBy(sql`1`),
    db
      .select({ date: localDate(refunds.createdAt), total: sql<number>`sum(${refunds.amount})`.mapWith(Number) })
      .from(refunds)
      .where(and(eq(refunds.propertyId, propertyId), sql`(${refunds.createdAt} at time zone ${timezone})::date >= ${from}::date`, sql`(${refunds.createdAt} at time zone ${timezone})::date < ${to}::date`))
      .groupBy(sql`1`),
  ]);
  const toMap = (rows: { date: string; total: number }[]): MoneyByDate => new Map(rows.map((r) => [r.date, r.total]));
  return { payments: toMap(paid), refunds: toMap(refunded) };
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
 * room nights and room revenue (sold stays only), cancellations.
 */
export async function productionReport(ctx: Ctx & { query: ReportQuery }) {
  const { query, db, tenant } = ctx;
  const property = await reportProperty(ctx, query);
  const groupBy = query.group_by ?? "source";
  const key = { source: reservations.source, channel: reservations.channel, rate_plan: reservations.ratePlanId, room_type: reservations.roomTypeId }[groupBy];
  const sold = sql`${reservations.status} in (${sql.join(soldStatuses.map((s) => sql`${s}`), sql`, `)})`;
  const rows = await db
    .select({
      group: key,
      reservations: sql<number>`count(*) filter (where ${reservations.status} <> 'cancelled')`.mapWith(Number),
      roomNights: sql<number>`coalesce(sum(${reservations.checkOut} - ${reservations.checkIn}) filter (where ${sold}), 0)`.mapWith(Number),
      roomRevenue: sql<number>`coalesce(sum(${reservations.totalAmount}) filter (where ${sold}), 0)`.mapWith(Number),
      cancellations: sql<number>`count(*) filter (where ${reservations.status} = 'cancelled')`.mapWith(Number),
    })
    .from(reservations)
    .where(ownedBy(reservations, tenant, eq(reservations.propertyId, property.id), gte(reservations.checkIn, query.from), lt(reservations.checkIn, query.to)))
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
