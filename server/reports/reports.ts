import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { creditNotes, inventoryNights, moneyDays, properties, ratePlans, reservations, roomTypes, salesDays, salesNights } from "@/db/schema";
import { type IsoDate } from "@/lib/dates";
import { assertDateRange } from "@/server/date-ranges";
import { channelWords, sourceWords, wordFor } from "@/lib/words";
import { ApiError } from "@/server/errors";
import { ensureNights, hasEveryNight } from "@/server/inventory/nights";
import { preparedQuery } from "@/db/prepared";
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
export async function nightFigures(db: Executor, property: { id: string }, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, NightFigures>> {
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
  const [types, capacityRead, sold] = await Promise.all([
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
  for (const c of capacity) figures.set(c.date, { date: c.date, roomsAvailable: c.available, roomsSold: 0, roomRevenue: 0 });
  for (const s of sold) {
    const f = figures.get(s.date) ?? { date: s.date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
    figures.set(s.date, { ...f, roomsSold: s.sold, roomRevenue: s.revenue });
  }
  return figures;
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
 * Per business date, what the credit notes issued that day take off (negative net, tax and gross):
 * their lines are posted on the day the note is issued, never into the nights they correct, so a
 * closed day's figures stay as its audit left them.
 */
export async function creditedByDate(db: Executor, propertyId: string, from: IsoDate, to: IsoDate): Promise<Map<IsoDate, { net: number; tax: number; gross: number }>> {
  const rows = await db
    .select({
      date: creditNotes.issueDate,
      net: sql<number>`sum(${creditNotes.net})`.mapWith(Number),
      tax: sql<number>`sum(${creditNotes.tax})`.mapWith(Number),
      gross: sql<number>`sum(${creditNotes.total})`.mapWith(Number),
    })
    .from(creditNotes)
    .where(and(eq(creditNotes.propertyId, propertyId), gte(creditNotes.issueDate, from), lt(creditNotes.issueDate, to)))
    .groupBy(creditNotes.issueDate);
  return new Map(rows.map((r) => [r.date, { net: r.net, tax: r.tax, gross: r.gross }]));
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
  const [nights, money, charged, credited] = await Promise.all([
    nightFigures(ctx.db, property, query.from, query.to),
    moneyByDate(ctx.db, property.id, query.from, query.to),
    chargedByNight(ctx.db, property.id, query.from, query.to),
    creditedByDate(ctx.db, property.id, query.from, query.to),
  ]);
  const rows = revenueRows(query.from, query.to, nights, charged, money.payments, money.refunds, credited);
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
    })
    .from(salesNights)
    .where(arriving(ctx, property.id))
    .groupBy(key)
    .orderBy(key);
  const names = await groupNames(db, ctx, groupBy, property.id);
  const byGroup = new Map((await charged).map((c) => [c.group, c]));
  const data = rows.map((r) => {
    const c = byGroup.get(r.group) ?? { net: 0, tax: 0 };
    return {
      group: r.group,
      ...(names ? { group_name: names.get(r.group ?? "") ?? null } : {}),
      reservations: r.reservations,
      room_nights: r.roomNights,
      room_revenue: r.roomRevenue,
      net: c.net,
      tax: c.tax,
      gross: c.net + c.tax,
      cancellations: r.cancellations,
    };
  });
  const total = (k: "reservations" | "room_nights" | "room_revenue" | "net" | "tax" | "gross" | "cancellations") => data.reduce((s, r) => s + r[k], 0);
  const totals = {
    reservations: stays ? await stays : total("reservations"),
    room_nights: total("room_nights"),
    room_revenue: total("room_revenue"),
    net: total("net"),
    tax: total("tax"),
    gross: total("gross"),
    cancellations: total("cancellations"),
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
