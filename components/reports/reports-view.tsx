"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, FilterField, Input, PageHeader, Select, cx } from "@/components/ui";
import { DataTable, type ColumnDef } from "@/components/ui/data-table";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { Tabs } from "@/components/ui/tabs";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterOutputs } from "@trpc/server";
import { OccupancyChart, ProductionChart, RevenueChart } from "./charts";
import { addDays, daysBetween } from "@/lib/dates";
import { usePropertyFormat } from "@/components/ui/property-format";
import { formatPercent } from "./format";
import { RunNightAudit } from "./run-night-audit";
import { NightAudits } from "./night-audits";
import { Totals, value } from "./report-cells";

export type ReportProperty = { id: string; name: string; currency: string; timezone: string };
type Kind = "occupancy" | "revenue" | "production" | "audit";
type GroupBy = "source" | "channel" | "rate_plan" | "room_type";

const groupLabels: Record<GroupBy, string> = { source: "Source", channel: "Channel", rate_plan: "Rate plan", room_type: "Room type" };

/**
 * Occupancy, revenue and production of the property on screen for a range of nights, each as
 * totals, a chart and a table; the CSV download is built by the server from the same query.
 */
export function ReportsView({ property }: { property: ReportProperty }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const today = useBusinessDate();
  const [from, setFrom] = useState(addDays(today, -14));
  const [through, setThrough] = useState(addDays(today, 15));
  const [kind, setKind] = useState<Kind>("occupancy");
  const [groupBy, setGroupBy] = useState<GroupBy>("source");

  const to = through ? addDays(through, 1) : "";
  const rangeError =
    !from || !through
      ? "Choose both dates."
      : through < from
        ? "The last night must not be before the first."
        : daysBetween(from, to) > 731
          ? "A report covers at most 731 nights."
          : null;
  const query = { property_id: property.id, from, to };
  const enabled = !rangeError;
  const opts = { enabled, placeholderData: keepPreviousData } as const;
  const occupancy = useQuery({ ...trpc.reports.occupancy.queryOptions(query), ...opts, enabled: enabled && kind === "occupancy" });
  const revenue = useQuery({ ...trpc.reports.revenue.queryOptions(query), ...opts, enabled: enabled && kind === "revenue" });
  const production = useQuery({
    ...trpc.reports.production.queryOptions({ ...query, group_by: groupBy }),
    ...opts,
    enabled: enabled && kind === "production",
  });
  const audits = useQuery({ ...trpc.reports.nightAudits.queryOptions({ property_id: property.id }), enabled: kind === "audit" });
  // The flash report of a day the audit closes while the page is open appears without a reload.
  useLiveInvalidate(["night_audit.completed"], trpc.reports.nightAudits.queryFilter(), trpc.reports.nightAuditPlan.queryFilter(), trpc.properties.businessDate.queryFilter());

  // The download names the report on screen (its own range and grouping), not the inputs, which
  // may be ahead of it while the next one loads.
  const shown = { occupancy: occupancy.data, revenue: revenue.data, production: production.data, audit: undefined }[kind];
  const csvHref = shown
    ? `/reports/export?${new URLSearchParams({ type: kind, property_id: shown.property_id, from: shown.from, to: shown.to, ...("group_by" in shown ? { group_by: shown.group_by } : {}) })}`
    : null;
  const money = (amount: number) => fmt.money({ amount, currency: property.currency });

  const preset = (label: string, start: string, end: string) => (
    <button
      type="button"
      onClick={() => {
        setFrom(start);
        setThrough(end);
      }}
      className={cx(
        "rounded-full border px-3 py-1 text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600",
        from === start && through === end ? "border-teal-600 bg-teal-50 text-teal-900" : "border-stone-300 text-stone-600 hover:bg-stone-100",
      )}
    >
      {label}
    </button>
  );
  const monthStart = `${today.slice(0, 8)}01`;
  const nextMonthStart = addDays(`${today.slice(0, 8)}28`, 4).slice(0, 8) + "01";

  const occupancyColumns: ColumnDef<{ date: string; rooms_available: number; rooms_sold: number; occupancy: number }>[] = [
    { id: "date", header: "Night", meta: { primary: true }, cell: ({ row }) => value("date", row.original.date, fmt.day(row.original.date, "long")) },
    {
      id: "rooms_available",
      header: "Rooms available",
      meta: { numeric: true },
      cell: ({ row }) => value("rooms_available", row.original.rooms_available, row.original.rooms_available),
    },
    {
      id: "rooms_sold",
      header: "Rooms sold",
      meta: { numeric: true },
      cell: ({ row }) => value("rooms_sold", row.original.rooms_sold, row.original.rooms_sold),
    },
    {
      id: "occupancy",
      header: "Occupancy",
      meta: { numeric: true },
      cell: ({ row }) => value("occupancy", row.original.occupancy, formatPercent(row.original.occupancy)),
    },
  ];
  const moneyColumn = (id: keyof RevenueRow & string, header: string): ColumnDef<RevenueRow> => ({
    id,
    header,
    meta: { numeric: true },
    cell: ({ row }) => value(id, row.original[id], money(row.original[id] as number)),
  });
  const revenueColumns: ColumnDef<RevenueRow>[] = [
    { id: "date", header: "Night", meta: { primary: true }, cell: ({ row }) => value("date", row.original.date, fmt.day(row.original.date, "long")) },
    moneyColumn("room_revenue", "Room revenue"),
    moneyColumn("net", "Charged net"),
    moneyColumn("tax", "Charged tax"),
    moneyColumn("gross", "Charged gross"),
    moneyColumn("other_net", "Other net"),
    moneyColumn("other_tax", "Other tax"),
    moneyColumn("other_gross", "Other gross"),
    moneyColumn("adr", "ADR"),
    moneyColumn("revpar", "RevPAR"),
    moneyColumn("payments", "Payments"),
    moneyColumn("refunds", "Refunds"),
  ];
  const productionMoney = (id: "net" | "tax" | "gross" | "other_net" | "other_tax" | "other_gross", header: string): ColumnDef<ProductionRow> => ({
    id,
    header,
    meta: { numeric: true },
    cell: ({ row }) => value(id, row.original[id], money(row.original[id])),
  });
  const shownGroup = (production.data?.group_by ?? groupBy) as GroupBy;
  const named = shownGroup === "rate_plan" || shownGroup === "room_type";
  const productionColumns: ColumnDef<ProductionRow>[] = [
    {
      id: "group",
      header: groupLabels[shownGroup],
      meta: { primary: true },
      cell: ({ row }) => value("group", row.original.group, row.original.group_label),
    },
    ...(named
      ? [
          {
            id: "group_name",
            header: "Code",
            cell: ({ row }) => value("group_name", row.original.group_name, row.original.group_name ?? "—"),
          } satisfies ColumnDef<ProductionRow>,
        ]
      : []),
    {
      id: "reservations",
      header: "Reservations",
      meta: { numeric: true },
      cell: ({ row }) => value("reservations", row.original.reservations, row.original.reservations),
    },
    {
      id: "room_nights",
      header: "Room nights",
      meta: { numeric: true },
      cell: ({ row }) => value("room_nights", row.original.room_nights, row.original.room_nights),
    },
    {
      id: "room_revenue",
      header: "Room revenue",
      meta: { numeric: true },
      cell: ({ row }) => value("room_revenue", row.original.room_revenue, money(row.original.room_revenue)),
    },
    productionMoney("net", "Charged net"),
    productionMoney("tax", "Charged tax"),
    productionMoney("gross", "Charged gross"),
    productionMoney("other_net", "Other net"),
    productionMoney("other_tax", "Other tax"),
    productionMoney("other_gross", "Other gross"),
    {
      id: "cancellations",
      header: "Cancellations",
      meta: { numeric: true },
      cell: ({ row }) => value("cancellations", row.original.cancellations, row.original.cancellations),
    },
    {
      id: "no_shows",
      header: "No-shows",
      meta: { numeric: true },
      cell: ({ row }) => value("no_shows", row.original.no_shows, row.original.no_shows),
    },
  ];

  const body = (result: { error: unknown; data: unknown; refetch: () => unknown }, content: () => ReactNode) =>
    rangeError ? null : result.error && !result.data ? (
      <ErrorState message={callError(result.error).message} onRetry={() => result.refetch()} />
    ) : !result.data ? (
      <LoadingState rows={6} label="Loading the report…" />
    ) : (
      content()
    );

  return (
    <>
      <PageHeader
        title="Reports"
        description={`${property.name}: nights from the first to the last date chosen, in ${property.currency}.`}
        actions={
          rangeError || !csvHref ? null : (
            <a
              href={csvHref}
              download
              className="inline-flex items-center gap-1.5 rounded-md border border-stone-300 bg-white px-3 py-1.5 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
            >
              <Download className="h-4 w-4" aria-hidden /> Download CSV
            </a>
          )
        }
      />
      <div className="mb-3 flex flex-wrap items-end gap-3">
        <div className="w-40">
          <FilterField label="First night" htmlFor="report-from">
            <Input id="report-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
          </FilterField>
        </div>
        <div className="w-40">
          <FilterField label="Last night" htmlFor="report-through">
            <Input id="report-through" type="date" value={through} onChange={(e) => setThrough(e.target.value)} />
          </FilterField>
        </div>
        {kind === "production" ? (
          <div className="w-40">
            <FilterField label="Group by" htmlFor="report-group">
              <Select id="report-group" value={groupBy} onChange={(e) => setGroupBy(e.target.value as GroupBy)}>
                {(Object.keys(groupLabels) as GroupBy[]).map((g) => (
                  <option key={g} value={g}>
                    {groupLabels[g]}
                  </option>
                ))}
              </Select>
            </FilterField>
          </div>
        ) : null}
      </div>
      <div className="mb-5 flex flex-wrap gap-2" aria-label="Ranges">
        {preset("Last 30 days", addDays(today, -30), addDays(today, -1))}
        {preset("Next 30 days", today, addDays(today, 29))}
        {preset("This month", monthStart, addDays(nextMonthStart, -1))}
      </div>
      {rangeError ? <Alert>{rangeError}</Alert> : null}

      <Tabs
        label="Report"
        value={kind}
        onValueChange={(v) => setKind(v as Kind)}
        tabs={[
          {
            value: "occupancy",
            label: "Occupancy",
            content: body(occupancy, () => {
              const r = occupancy.data!;
              return (
                <div className="space-y-5">
                  <Totals
                    items={[
                      ["Occupancy", formatPercent(r.totals.occupancy)],
                      ["Rooms sold", String(r.totals.rooms_sold)],
                      ["Rooms available", String(r.totals.rooms_available)],
                    ]}
                  />
                  <OccupancyChart rows={r.data} />
                  <DataTable
                    label="Occupancy by night"
                    fetching={occupancy.isFetching}
                    columns={occupancyColumns}
                    data={r.data}
                    rowKey={(row) => row.date}
                    empty={{ title: "No nights in this range" }}
                  />
                </div>
              );
            }),
          },
          {
            value: "revenue",
            label: "Revenue",
            content: body(revenue, () => {
              const r = revenue.data!;
              return (
                <div className="space-y-5">
                  <Totals
                    items={[
                      ["Room revenue", money(r.totals.room_revenue)],
                      ["Charged net", money(r.totals.net)],
                      ["Charged tax", money(r.totals.tax)],
                      ["Charged gross", money(r.totals.gross)],
                      ["Other revenue net", money(r.totals.other_net)],
                      ["Other revenue tax", money(r.totals.other_tax)],
                      ["Other revenue gross", money(r.totals.other_gross)],
                      ["ADR", money(r.totals.adr)],
                      ["RevPAR", money(r.totals.revpar)],
                      ["Payments", money(r.totals.payments)],
                      ["Refunds", money(r.totals.refunds)],
                    ]}
                  />
                  <RevenueChart rows={r.data} currency={property.currency} />
                  <DataTable
                    label="Revenue by night"
                    fetching={revenue.isFetching}
                    columns={revenueColumns}
                    data={r.data}
                    rowKey={(row) => row.date}
                    empty={{ title: "No nights in this range" }}
                  />
                </div>
              );
            }),
          },
          {
            value: "production",
            label: "Production",
            content: body(production, () => {
              const r = production.data!;
              return (
                <div className="space-y-5">
                  <p className="text-xs text-stone-500">
                    Stays arriving in the range, grouped by {groupLabels[shownGroup].toLowerCase()}. Room nights and revenue count booked stays only; room revenue is the nightly rates, charged net, tax and gross what their folios charge for those nights with their taxes. Other revenue is the rest of their folios: extras, fees, and what cancelled and no-show stays are charged.
                  </p>
                  <Totals
                    items={[
                      ["Reservations", String(r.totals.reservations)],
                      ["Room nights", String(r.totals.room_nights)],
                      ["Room revenue", money(r.totals.room_revenue)],
                      ["Charged net", money(r.totals.net)],
                      ["Charged tax", money(r.totals.tax)],
                      ["Charged gross", money(r.totals.gross)],
                      ["Other revenue net", money(r.totals.other_net)],
                      ["Other revenue tax", money(r.totals.other_tax)],
                      ["Other revenue gross", money(r.totals.other_gross)],
                      ["Cancellations", String(r.totals.cancellations)],
                      ["No-shows", String(r.totals.no_shows)],
                    ]}
                  />
                  {r.data.length ? <ProductionChart rows={r.data} currency={property.currency} /> : null}
                  <DataTable
                    label={`Production by ${groupLabels[shownGroup].toLowerCase()}`}
                    fetching={production.isFetching}
                    columns={productionColumns}
                    data={r.data}
                    rowKey={(row) => row.group ?? "(none)"}
                    empty={{ title: "No arrivals in this range", children: "Choose other dates: production counts stays by their arrival night." }}
                  />
                </div>
              );
            }),
          },
          {
            value: "audit",
            label: "Night audit",
            content: (
              <div className="space-y-5">
                <RunNightAudit propertyId={property.id} />
                {audits.error && !audits.data ? (
                  <ErrorState message={callError(audits.error).message} onRetry={() => audits.refetch()} />
                ) : !audits.data ? (
                  <LoadingState rows={4} label="Loading the night audits…" />
                ) : (
                  <NightAudits audits={audits.data} money={money} />
                )}
              </div>
            ),
          },
        ]}
      />
    </>
  );
}

type Reports = inferRouterOutputs<AppRouter>["reports"];
type RevenueRow = Reports["revenue"]["data"][number];
type ProductionRow = Reports["production"]["data"][number];

