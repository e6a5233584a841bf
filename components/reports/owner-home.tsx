"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Card, PageHeader } from "@/components/ui";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { OccupancyChart } from "./charts";
import { usePropertyFormat } from "@/components/ui/property-format";
import { addDays } from "@/lib/dates";
import { formatPercent } from "./format";

function Figure({ label, value, note, testId }: { label: string; value: string; note?: string; testId: string }) {
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-stone-900">{value}</p>
      {note ? <p className="mt-0.5 text-xs text-stone-500">{note}</p> : null}
    </div>
  );
}

/**
 * The owner's home: tonight's flash figures (occupancy, ADR, RevPAR, room revenue, money taken
 * today) and the week ahead, all from the occupancy and revenue reports, so the home and the
 * reports page never disagree; beside them, today's arrivals and departures at the desk.
 */
export function OwnerHome({ title, propertyId, propertyName, currency }: { title: string; propertyId: string; propertyName: string; currency: string }) {
  const today = useBusinessDate();
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const dayLabel = (d: string, style: Parameters<typeof fmt.day>[1] = "weekday") => fmt.day(d, style);
  const week = { property_id: propertyId, from: today, to: addDays(today, 7) };
  const occupancy = useQuery(trpc.reports.occupancy.queryOptions(week));
  const revenue = useQuery(trpc.reports.revenue.queryOptions(week));
  const desk = useQuery(trpc.reservations.deskDay.queryOptions({ property_id: propertyId }));
  useLiveInvalidate(["reservation.*", "payment.*", "inventory.updated", "night_audit.completed"], trpc.reports.occupancy.queryFilter(), trpc.reports.revenue.queryFilter(), trpc.reservations.deskDay.queryFilter(), trpc.properties.businessDate.queryFilter());
  const money = (amount: number) => fmt.money({ amount, currency });
  const error = occupancy.error ?? revenue.error;
  const header = <PageHeader title={title} description={`Tonight at ${propertyName} · ${dayLabel(today, { weekday: "long", day: "numeric", month: "long" })}`} />;
  if (error) {
    return (
      <>
        {header}
        <ErrorState message={callError(error).message} onRetry={() => (occupancy.refetch(), revenue.refetch())} />
      </>
    );
  }
  if (!occupancy.data || !revenue.data) {
    return (
      <>
        {header}
        <LoadingState rows={5} label="Loading tonight's figures…" />
      </>
    );
  }
  const night = occupancy.data.data[0];
  const money0 = revenue.data.data[0];
  const revenueByDate = new Map(revenue.data.data.map((r) => [r.date, r]));
  const c = desk.data?.counts;
  return (
    <>
      {header}
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Figure testId="flash-occupancy" label="Occupancy tonight" value={formatPercent(night.occupancy)} note={`${night.rooms_sold} of ${night.rooms_available} rooms`} />
        <Figure testId="flash-adr" label="ADR tonight" value={money(money0.adr)} note="Room revenue per room sold" />
        <Figure testId="flash-revpar" label="RevPAR tonight" value={money(money0.revpar)} note="Room revenue per room available" />
        <Figure testId="flash-revenue" label="Room revenue tonight" value={money(money0.room_revenue)} />
        <Figure testId="flash-payments" label="Taken today" value={money(money0.payments - money0.refunds)} note={money0.refunds ? `${money(money0.payments)} in, ${money(money0.refunds)} refunded` : "Payments less refunds"} />
      </div>
      {c ? (
        <p className="mt-4 text-sm text-stone-600" data-testid="owner-desk-today">
          At the desk today: {c.arrivals} arriving ({c.arrivals_pending} still to come), {c.in_house} in house, {c.departures} leaving.{" "}
          <Link href="/reservations" className="text-teal-800 underline underline-offset-2">
            Reservations
          </Link>
        </p>
      ) : null}
      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card title="The week ahead">
          <OccupancyChart rows={occupancy.data.data} />
        </Card>
        <Card title="Night by night">
          <table className="w-full text-left text-sm" aria-label="The week ahead, night by night" data-testid="week-ahead">
            <thead className="text-xs uppercase tracking-wide text-stone-500">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Night
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Occupancy
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Revenue
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {occupancy.data.data.map((n) => (
                <tr key={n.date}>
                  <td className="py-1.5">{dayLabel(n.date)}</td>
                  <td className="py-1.5 text-right tabular-nums">
                    {formatPercent(n.occupancy)} <span className="text-stone-500">({n.rooms_sold}/{n.rooms_available})</span>
                  </td>
                  <td className="py-1.5 text-right tabular-nums">{money(revenueByDate.get(n.date)?.room_revenue ?? 0)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot className="border-t border-stone-200 font-medium">
              <tr>
                <td className="py-1.5">Week</td>
                <td className="py-1.5 text-right tabular-nums">{formatPercent(occupancy.data.totals.occupancy)}</td>
                <td className="py-1.5 text-right tabular-nums">{money(revenue.data.totals.room_revenue)}</td>
              </tr>
            </tfoot>
          </table>
          <p className="mt-3 text-xs text-stone-500">
            <Link href="/reports" className="text-teal-800 hover:underline">
              All reports
            </Link>
          </p>
        </Card>
      </div>
    </>
  );
}
