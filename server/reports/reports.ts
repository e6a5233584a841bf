import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { folioCharges, folios, properties, ratePlans, reservations, roomTypes, salesNights } from "@/db/schema";
import { type IsoDate } from "@/lib/dates";
import { assertDateRange } from "@/server/date-ranges";
import { channelWords, sourceWords, wordFor } from "@/lib/words";
import { ApiError } from "@/server/errors";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { occupancyRows, occupancyTotals, revenueRows, revenueTotals } from "./build";
import { dayRevenue, moneyByDate, nightFigures } from "./figures";

export type ReportQuery = { property_id: string; from: IsoDate; to: IsoDate; group_by?: "source" | "channel" | "rate_plan" | "room_type" };
export const maxReportDays = 731;

async function reportProperty(ctx: Ctx, query: ReportQuery) {
  const property = await findOwned(ctx.db, properties, ctx.tenant, query.property_id, "property", { param: "property_id" });
  assertDateRange(query.from, query.to, maxReportDays, "query", "report");
  return property;
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
  if (query.group_by)
    throw new ApiError("parameter_invalid", "group_by applies to the production report only.", { param: "group_by", location: "query" });
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
  const [nights, money, charged] = await Promise.all([
    nightFigures(ctx.db, property, query.from, query.to),
    moneyByDate(ctx.db, property.id, query.from, query.to),
    dayRevenue(ctx.db, property.id, query.from, query.to),
  ]);
  const rows = revenueRows(query.from, query.to, nights, charged, money.payments, money.refunds);
  return { ...header("revenue", property, query), data: rows, totals: revenueTotals(rows, nights) };
}

/**
 * Production of the stays arriving in [from, to), grouped: reservations (all but cancelled),
 * room nights and room revenue (sold stays, every night booked), cancellations. Read from the
 * per-night sales rows, which carry each stay's arrival, status and grouping keys.
 */
export async function productionReport(ctx: Ctx & { query: ReportQuery }) {
  const { query, db } = ctx;
  const property = await reportProperty(ctx, query);
  const groupBy = query.group_by ?? "source";
  const key = { source: salesNights.source, channel: salesNights.channel, rate_plan: salesNights.ratePlanId, room_type: salesNights.roomTypeId }[
    groupBy
  ];
  const charged = chargedByGroup(ctx, property.id, groupBy);
  charged.catch(() => {});
  // By room type a stay upgraded in house is in two rows (its nights in each type): the total counts it once.
  const stays = groupBy === "room_type" ? distinctStays(ctx, property.id) : undefined;
  stays?.catch(() => {});
  const rows = await db
    .select({
      group: key,
      reservations: sql<number>`count(distinct ${salesNights.reservationId}) filter (where ${salesNights.status} <> 'cancelled')`.mapWith(Number),
      roomNights: sql<number>`count(*) filter (where ${salesNights.booked})`.mapWith(Number),
      roomRevenue: sql<number>`coalesce(sum(${salesNights.amount}) filter (where ${salesNights.booked}), 0)`.mapWith(Number),
      cancellations: sql<number>`count(distinct ${salesNights.reservationId}) filter (where ${salesNights.status} = 'cancelled')`.mapWith(Number),
      noShows: sql<number>`count(distinct ${salesNights.reservationId}) filter (where ${salesNights.status} = 'no_show')`.mapWith(Number),
    })
    .from(salesNights)
    .where(arriving(ctx, property.id))
    .groupBy(key)
    .orderBy(key);
  const [names, others] = await Promise.all([groupNames(db, ctx, groupBy, property.id), otherByGroup(ctx, property.id, groupBy)]);
  const byGroup = new Map((await charged).map((c) => [c.group, c]));
  const otherOf = new Map(others.map((o) => [o.group, o]));
  const data = rows.map((r) => {
    const c = byGroup.get(r.group) ?? { net: 0, tax: 0 };
    const o = otherOf.get(r.group) ?? { gross: 0, tax: 0 };
    return {
      group: r.group,
      ...(names ? { group_name: names.get(r.group ?? "") ?? null } : {}),
      reservations: r.reservations,
      room_nights: r.roomNights,
      room_revenue: r.roomRevenue,
      net: c.net,
      tax: c.tax,
      gross: c.net + c.tax,
      other_net: o.gross - o.tax,
      other_tax: o.tax,
      other_gross: o.gross,
      cancellations: r.cancellations,
      no_shows: r.noShows,
    };
  });
  const total = (k: Exclude<keyof (typeof data)[number], "group" | "group_name">) => data.reduce((s, r) => s + (r[k] as number), 0);
  const totals = {
    reservations: stays ? await stays : total("reservations"),
    room_nights: total("room_nights"),
    room_revenue: total("room_revenue"),
    net: total("net"),
    tax: total("tax"),
    gross: total("gross"),
    other_net: total("other_net"),
    other_tax: total("other_tax"),
    other_gross: total("other_gross"),
    cancellations: total("cancellations"),
    no_shows: total("no_shows"),
  };
  return { ...header("production", property, query), group_by: groupBy, data, totals };
}

/** The stays the production report counts as sold: booked, in house or departed. */
const soldStatuses = ["confirmed", "checked_in", "checked_out"] as const;

/**
 * Net and tax of the sold stays arriving in the report's range, per group: each stay's price as
 * its folio charges its room nights and per-night taxes (kept on the reservation with every change
 * of its nights, server/folios/folios.ts), so the sums are those of the folios' lines.
 */
function chargedByGroup({ db, tenant, query }: Ctx & { query: ReportQuery }, propertyId: string, groupBy: NonNullable<ReportQuery["group_by"]>) {
  if (groupBy === "room_type") return chargedByRoomType({ db, tenant, query }, propertyId);
  const key = { source: reservations.source, channel: reservations.channel, rate_plan: reservations.ratePlanId, room_type: reservations.roomTypeId }[groupBy];
  return db
    .select({
      group: key,
      net: sql<number>`coalesce(sum(${reservations.netAmount}), 0)`.mapWith(Number),
      tax: sql<number>`coalesce(sum(${reservations.taxAmount}), 0)`.mapWith(Number),
    })
    .from(reservations)
    .where(
      ownedBy(
        reservations,
        tenant,
        and(eq(reservations.propertyId, propertyId), gte(reservations.checkIn, query.from), lt(reservations.checkIn, query.to), inArray(reservations.status, [...soldStatuses])),
      ),
    )
    .groupBy(key);
}

/**
 * Net and tax per room type of the nights sold, as the folios charge each night (`sales_nights`):
 * a guest upgraded in house has nights in two types, each where it was sold. The nights' lines are
 * the stay's room-night and per-night tax lines, so the sums are the stays' prices as above.
 */
function chargedByRoomType(ctx: Ctx & { query: ReportQuery }, propertyId: string) {
  return ctx.db
    .select({
      group: salesNights.roomTypeId,
      net: sql<number>`coalesce(sum(${salesNights.chargedGross} - ${salesNights.chargedTax}), 0)`.mapWith(Number),
      tax: sql<number>`coalesce(sum(${salesNights.chargedTax}), 0)`.mapWith(Number),
    })
    .from(salesNights)
    .where(and(arriving(ctx, propertyId), eq(salesNights.sold, true)))
    .groupBy(salesNights.roomTypeId);
}

/**
 * Other revenue of the stays arriving in the report's range, per group (the same split as
 * `dayRevenue`): every line of their folios but the room nights and per-night taxes of a stay
 * sold (booked, in house or departed), so extras, fees and the retained charges of cancelled and
 * no-show stays. A line posted on a folio without naming its stay (an extra) is its folio's stay's.
 */
function otherByGroup({ db, tenant, query }: Ctx & { query: ReportQuery }, propertyId: string, groupBy: NonNullable<ReportQuery["group_by"]>) {
  const key = { source: reservations.source, channel: reservations.channel, rate_plan: reservations.ratePlanId, room_type: reservations.roomTypeId }[groupBy];
  return db
    .select({
      group: key,
      gross: sql<number>`coalesce(sum(${folioCharges.amount}), 0)`.mapWith(Number),
      tax: sql<number>`coalesce(sum(${folioCharges.taxAmount}), 0)`.mapWith(Number),
    })
    .from(folioCharges)
    .innerJoin(folios, eq(folios.id, folioCharges.folioId))
    .innerJoin(reservations, eq(reservations.id, sql`coalesce(${folioCharges.reservationId}, ${folios.reservationId})`))
    .where(
      ownedBy(
        reservations,
        tenant,
        and(
          eq(reservations.propertyId, propertyId),
          gte(reservations.checkIn, query.from),
          lt(reservations.checkIn, query.to),
          sql`not (${folioCharges.kind} in ('room_night', 'tax') and ${inArray(reservations.status, [...soldStatuses])})`,
        ),
      ),
    )
    .groupBy(key);
}

/** The per-night sales rows of the stays arriving in the report's range. */
function arriving({ tenant, query }: Ctx & { query: ReportQuery }, propertyId: string) {
  return and(
    eq(salesNights.accountId, tenant.accountId),
    eq(salesNights.livemode, tenant.livemode),
    eq(salesNights.propertyId, propertyId),
    gte(salesNights.checkIn, query.from),
    lt(salesNights.checkIn, query.to),
  );
}

/** The stays arriving in the range, but cancelled ones, each once. */
async function distinctStays(ctx: Ctx & { query: ReportQuery }, propertyId: string) {
  const [row] = await ctx.db
    .select({ n: sql<number>`count(distinct ${salesNights.reservationId})`.mapWith(Number) })
    .from(salesNights)
    .where(and(arriving(ctx, propertyId), sql`${salesNights.status} <> 'cancelled'`));
  return row?.n ?? 0;
}

/** Codes for rate plan and room type groups, so a report reads without a second lookup. */
async function groupNames(db: Executor, ctx: Ctx, groupBy: string, propertyId: string, field: "code" | "name" = "code") {
  if (groupBy === "rate_plan") {
    const rows = await db
      .select({ id: ratePlans.id, code: ratePlans[field] })
      .from(ratePlans)
      .where(ownedBy(ratePlans, ctx.tenant, eq(ratePlans.propertyId, propertyId)));
    return new Map(rows.map((r) => [r.id, r.code]));
  }
  if (groupBy === "room_type") {
    const rows = await db
      .select({ id: roomTypes.id, code: roomTypes[field] })
      .from(roomTypes)
      .where(ownedBy(roomTypes, ctx.tenant, eq(roomTypes.propertyId, propertyId)));
    return new Map(rows.map((r) => [r.id, r.code]));
  }
  return null;
}

/**
 * A production report as staff read it: each row's group in words ("Walk-in", "Booking.com",
 * the room type's or rate plan's name) as `group_label`, beside the API's codes.
 */
export async function labelProduction<R extends { property_id: string; group_by: string; data: { group: string | null }[] }>(
  ctx: Ctx,
  report: R,
): Promise<Omit<R, "data"> & { data: (R["data"][number] & { group_label: string })[] }> {
  const names = await groupNames(ctx.db, ctx, report.group_by, report.property_id, "name");
  const label = (group: string | null) =>
    names
      ? (names.get(group ?? "") ?? "No longer listed")
      : report.group_by === "channel"
        ? wordFor(channelWords, group, "No channel")
        : wordFor(sourceWords, group, "No source");
  return { ...report, data: report.data.map((row) => ({ ...row, group_label: label(row.group) })) };
}
