import { and, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { folioCharges, folios, payments, type properties } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { capturedStatuses } from "@/server/folios/folios";
import { dayRevenue, moneyByDate, nightFigures } from "@/server/reports/figures";

/**
 * The day's flash report, written by the night audit that closes business date `date`: rooms
 * sold and available, occupancy, ADR and RevPAR (the same figures as the occupancy and revenue
 * reports for that night), what the folios charged for the day by kind, and the money taken by
 * payment method. Amounts are minor units of the property's currency.
 */
export async function flashReport(tx: Executor, property: typeof properties.$inferSelect, date: IsoDate) {
  const next = addDays(date, 1);
  // Room nights and their per-night taxes by the night they are for; fees by the date they carry; extras by the business date they were posted on.
  const ofTheDay = sql`(${folioCharges.date} = ${date} or (${folioCharges.date} is null and ${folioCharges.postedOn} = ${date}))`;
  const [nights, revenue, money, charged, paid, taxed] = await Promise.all([
    nightFigures(tx, property, date, next),
    dayRevenue(tx, property.id, date, next),
    moneyByDate(tx, property.id, date, next),
    tx
      .select({ kind: folioCharges.kind, amount: sql<number>`sum(${folioCharges.amount})`.mapWith(Number), tax: sql<number>`sum(${folioCharges.taxAmount})`.mapWith(Number) })
      .from(folioCharges)
      .innerJoin(folios, eq(folios.id, folioCharges.folioId))
      .where(and(eq(folios.propertyId, property.id), ofTheDay))
      .groupBy(folioCharges.kind),
    tx
      .select({ method: payments.methodType, amount: sql<number>`sum(${payments.amount})`.mapWith(Number), count: sql<number>`count(*)`.mapWith(Number) })
      .from(payments)
      .where(and(eq(payments.propertyId, property.id), inArray(payments.status, [...capturedStatuses]), eq(payments.businessDate, date)))
      .groupBy(payments.methodType),
    // Each tax's share of those lines, from the taxes each line was posted with.
    tx
      .select({ taxId: sql<string>`t->>'tax_id'`, name: sql<string>`min(t->>'name')`, amount: sql<number>`sum((t->>'amount')::integer)`.mapWith(Number) })
      .from(folioCharges)
      .innerJoin(folios, eq(folios.id, folioCharges.folioId))
      .innerJoin(sql`jsonb_array_elements(${folioCharges.taxes}) as t`, sql`true`)
      .where(and(eq(folios.propertyId, property.id), ofTheDay))
      .groupBy(sql`t->>'tax_id'`)
      .orderBy(sql`t->>'tax_id'`),
  ]);
  const n = nights.get(date) ?? { roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
  const perUnit = (amount: number, units: number) => (units > 0 ? Math.round(amount / units) : 0);
  const byKind = Object.fromEntries(charged.map((c) => [c.kind, c.amount]));
  const gross = charged.reduce((s, c) => s + c.amount, 0);
  const tax = charged.reduce((s, c) => s + c.tax, 0);
  return {
    business_date: date,
    currency: property.currency,
    rooms_available: n.roomsAvailable,
    rooms_sold: n.roomsSold,
    occupancy: n.roomsAvailable > 0 ? Math.round((n.roomsSold / n.roomsAvailable) * 10_000) / 10_000 : 0,
    room_revenue: n.roomRevenue,
    adr: perUnit(n.roomRevenue, n.roomsSold),
    revpar: perUnit(n.roomRevenue, n.roomsAvailable),
    revenue_by_kind: {
      room_night: byKind.room_night ?? 0,
      extra: byKind.extra ?? 0,
      early_departure_fee: byKind.early_departure_fee ?? 0,
      no_show_fee: byKind.no_show_fee ?? 0,
      late_check_out_fee: byKind.late_check_out_fee ?? 0,
      tax: byKind.tax ?? 0,
    },
    charged: { net: gross - tax, tax, gross },
    other: revenue.get(date)?.other ?? { net: 0, tax: 0, gross: 0 },
    payments_by_method: Object.fromEntries(paid.map((p) => [p.method, { amount: p.amount, count: p.count }])),
    payments: money.payments.get(date) ?? 0,
    refunds: money.refunds.get(date) ?? 0,
    taxes: { total: tax, by_tax: taxed.map((t) => ({ tax_id: t.taxId, name: t.name, amount: t.amount })) },
  };
}

export type FlashReport = Awaited<ReturnType<typeof flashReport>>;
