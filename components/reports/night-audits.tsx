"use client";

import type { inferRouterOutputs } from "@trpc/server";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { usePropertyFormat } from "@/components/ui/property-format";
import { formatPercent } from "./format";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { Totals, value } from "./report-cells";

type Audit = inferRouterOutputs<AppRouter>["reports"]["nightAudits"][number];

/**
 * The flash report of each business day the night audit closed, newest first: the latest as
 * tiles, every day as a row. The dates chosen above do not apply: the audit closes one day at a time.
 */
export function NightAudits({ audits, money }: { audits: Audit[]; money: (amount: number) => string }) {
  const fmt = usePropertyFormat();
  const dayLabel = (d: string, style: Parameters<typeof fmt.day>[1]) => fmt.day(d, style);
  if (!audits.length) {
    return (
      <p className="rounded-lg border border-dashed border-stone-300 px-4 py-6 text-center text-sm text-stone-500" data-testid="flash-empty">
        No night audit has run yet. It closes each business day at the property&apos;s audit hour and writes the day&apos;s flash report here.
      </p>
    );
  }
  const latest = audits[0].flash;
  const fees = (f: Audit["flash"]) => f.revenue_by_kind.early_departure_fee + f.revenue_by_kind.no_show_fee + f.revenue_by_kind.late_check_out_fee;
  const paidBy = (f: Audit["flash"]) =>
    (Object.entries(f.payments_by_method) as [string, { amount: number } | undefined][])
      .filter(([, v]) => v)
      .map(([method, v]) => `${methodLabels[method] ?? method} ${money(v!.amount)}`)
      .join(", ") || "None";
  const columns: ColumnDef<Audit>[] = [
    { id: "business_date", header: "Business day", meta: { primary: true }, cell: ({ row }) => value("business_date", row.original.business_date, dayLabel(row.original.business_date, { weekday: "short", day: "numeric", month: "short", year: "numeric" })) },
    { id: "rooms_sold", header: "Rooms sold", meta: { numeric: true }, cell: ({ row }) => value("rooms_sold", row.original.flash.rooms_sold, `${row.original.flash.rooms_sold} of ${row.original.flash.rooms_available}`) },
    { id: "occupancy", header: "Occupancy", meta: { numeric: true }, cell: ({ row }) => value("occupancy", row.original.flash.occupancy, formatPercent(row.original.flash.occupancy)) },
    { id: "adr", header: "ADR", meta: { numeric: true }, cell: ({ row }) => value("adr", row.original.flash.adr, money(row.original.flash.adr)) },
    { id: "revpar", header: "RevPAR", meta: { numeric: true }, cell: ({ row }) => value("revpar", row.original.flash.revpar, money(row.original.flash.revpar)) },
    { id: "room_revenue", header: "Room revenue", meta: { numeric: true }, cell: ({ row }) => value("room_revenue", row.original.flash.room_revenue, money(row.original.flash.room_revenue)) },
    { id: "fees", header: "Fees", meta: { numeric: true }, cell: ({ row }) => value("fees", fees(row.original.flash), money(fees(row.original.flash))) },
    { id: "payments", header: "Payments", cell: ({ row }) => value("payments", row.original.flash.payments, paidBy(row.original.flash)) },
    { id: "no_shows", header: "No-shows", meta: { numeric: true }, cell: ({ row }) => value("no_shows", row.original.no_shows.length, row.original.no_shows.length) },
    { id: "in_house", header: "Due out, still in", meta: { numeric: true }, cell: ({ row }) => value("in_house", row.original.departures_in_house.length, row.original.departures_in_house.length) },
  ];
  return (
    <div className="space-y-5" data-testid="flash-report">
      <p className="text-xs text-stone-500">
        Flash report of {dayLabel(latest.business_date, { weekday: "long", day: "numeric", month: "long", year: "numeric" })}, written by its night audit. Amounts include taxes; Taxes is the tax in them.
      </p>
      <Totals
        items={[
          ["Occupancy", formatPercent(latest.occupancy)],
          ["Rooms sold", `${latest.rooms_sold} of ${latest.rooms_available}`],
          ["ADR", money(latest.adr)],
          ["RevPAR", money(latest.revpar)],
          ["Room revenue", money(latest.room_revenue)],
          ["Extras", money(latest.revenue_by_kind.extra)],
          ["Fees", money(fees(latest))],
          ["Taxes", latest.taxes ? money(latest.taxes.total) : "—"],
          ["Payments", money(latest.payments)],
          ["Refunds", money(latest.refunds)],
          ["No-shows", String(audits[0].no_shows.length)],
        ]}
      />
      <p className="text-sm text-stone-700">Payments by method: {paidBy(latest)}.</p>
      <DataTable label="Night audits" columns={columns} data={audits} rowKey={(row) => row.id} empty={{ title: "No night audit yet" }} />
    </div>
  );
}

const methodLabels: Record<string, string> = { card: "Card", cash: "Cash", bank_transfer: "Bank transfer" };
