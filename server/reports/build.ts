import { stringify } from "csv-stringify/sync";
import { nightsOf, type IsoDate } from "@/lib/dates";

/** Per-night inputs, as the queries return them. */
export type NightFigures = { date: IsoDate; roomsAvailable: number; roomsSold: number; roomRevenue: number };
export type MoneyByDate = Map<IsoDate, number>;

const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
/** Averages of money stay in whole minor units, rounded half up. */
const perUnit = (amount: number, units: number) => (units > 0 ? Math.round(amount / units) : 0);

export function occupancyRows(from: IsoDate, to: IsoDate, nights: Map<IsoDate, NightFigures>) {
  return nightsOf(from, to).map((date) => {
    const n = nights.get(date) ?? { date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
    return {
      date,
      rooms_available: n.roomsAvailable,
      rooms_sold: n.roomsSold,
      occupancy: Math.round(ratio(n.roomsSold, n.roomsAvailable) * 10_000) / 10_000,
    };
  });
}

export function occupancyTotals(rows: ReturnType<typeof occupancyRows>) {
  const available = rows.reduce((s, r) => s + r.rooms_available, 0);
  const sold = rows.reduce((s, r) => s + r.rooms_sold, 0);
  return { rooms_available: available, rooms_sold: sold, occupancy: Math.round(ratio(sold, available) * 10_000) / 10_000 };
}

/** What the folios charge for a night's sold rooms: their room nights and per-night taxes. */
export type ChargedNight = { net: number; tax: number; gross: number };

/** ADR = room revenue / rooms sold; RevPAR = room revenue / rooms available. */
export function revenueRows(
  from: IsoDate,
  to: IsoDate,
  nights: Map<IsoDate, NightFigures>,
  charged: Map<IsoDate, ChargedNight>,
  payments: MoneyByDate,
  refunds: MoneyByDate,
  credited: Map<IsoDate, ChargedNight> = new Map(),
) {
  return nightsOf(from, to).map((date) => {
    const n = nights.get(date) ?? { date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
    const c = charged.get(date) ?? { net: 0, tax: 0, gross: 0 };
    const k = credited.get(date) ?? { net: 0, tax: 0, gross: 0 };
    return {
      date,
      room_revenue: n.roomRevenue,
      net: c.net,
      tax: c.tax,
      gross: c.gross,
      adr: perUnit(n.roomRevenue, n.roomsSold),
      revpar: perUnit(n.roomRevenue, n.roomsAvailable),
      payments: payments.get(date) ?? 0,
      refunds: refunds.get(date) ?? 0,
      credited_net: k.net,
      credited_tax: k.tax,
      credited_gross: k.gross,
    };
  });
}

export function revenueTotals(rows: ReturnType<typeof revenueRows>, nights: Map<IsoDate, NightFigures>) {
  const revenue = rows.reduce((s, r) => s + r.room_revenue, 0);
  const sold = [...nights.values()].reduce((s, n) => s + n.roomsSold, 0);
  const available = [...nights.values()].reduce((s, n) => s + n.roomsAvailable, 0);
  return {
    room_revenue: revenue,
    net: rows.reduce((s, r) => s + r.net, 0),
    tax: rows.reduce((s, r) => s + r.tax, 0),
    gross: rows.reduce((s, r) => s + r.gross, 0),
    adr: perUnit(revenue, sold),
    revpar: perUnit(revenue, available),
    payments: rows.reduce((s, r) => s + r.payments, 0),
    refunds: rows.reduce((s, r) => s + r.refunds, 0),
    credited_net: rows.reduce((s, r) => s + r.credited_net, 0),
    credited_tax: rows.reduce((s, r) => s + r.credited_tax, 0),
    credited_gross: rows.reduce((s, r) => s + r.credited_gross, 0),
  };
}

/**
 * RFC 4180 CSV through csv-stringify: a header of the columns, CRLF line ends, fields quoted when
 * they hold a comma, quote or line break. A text cell starting with `=`, `+`, `-`, `@`, a tab or
 * a carriage return is prefixed with `'` so no spreadsheet runs it as a formula (a negative
 * number stays a number).
 */
export function toCsv(rows: Record<string, unknown>[], columns: (string | { key: string; header: string })[]): string {
  return stringify(rows, { header: true, columns, record_delimiter: "\r\n", escape_formulas: true, quoted_match: /[\r\n]/ });
}
