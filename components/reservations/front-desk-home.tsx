"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, Card, PageHeader } from "@/components/ui";
import { ErrorState, LoadingState } from "@/components/ui/states";
import { Tabs } from "@/components/ui/tabs";
import { toast } from "@/components/ui/toaster";
import { formatPercent } from "@/components/reports/format";
import { usePropertyFormat } from "@/components/ui/property-format";
import { housekeepingLabels } from "./format";
import { ReservationList, type ReservationRow } from "./reservation-list";

type View = "arrivals" | "in_house" | "departures";

/** A figure of the day: a big number with what it counts and, below, what is still to do. */
function Tile({ label, value, note, testId }: { label: string; value: string | number; note?: string; testId: string }) {
  return (
    <div className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm" data-testid={testId}>
      <p className="text-xs font-medium uppercase tracking-wide text-stone-500">{label}</p>
      <p className="mt-1 text-2xl font-semibold tabular-nums text-stone-900">{value}</p>
      {note ? <p className="mt-0.5 text-xs text-stone-500">{note}</p> : null}
    </div>
  );
}

/** Check-in and check-out in one click from the day's lists; a refusal says why and links to the stay. */
function useStayButtons(onDone: () => Promise<void>) {
  const trpc = useTRPC();
  const [busy, setBusy] = useState<string | null>(null);
  const checkIn = useMutation(trpc.reservations.checkIn.mutationOptions());
  const checkOut = useMutation(trpc.reservations.checkOut.mutationOptions());
  const run = async (row: ReservationRow, action: "in" | "out") => {
    setBusy(row.id);
    try {
      const after = action === "in" ? await checkIn.mutateAsync({ id: row.id }) : await checkOut.mutateAsync({ id: row.id });
      toast.success(action === "in" ? `${after.guest.first_name} ${after.guest.last_name} is checked in` : `${after.guest.first_name} ${after.guest.last_name} is checked out; the room is now dirty`);
      await onDone();
    } catch (error) {
      toast.error(`${row.guest.first_name} ${row.guest.last_name}: ${callError(error).message}`);
    } finally {
      setBusy(null);
    }
  };
  return {
    checkIn: (row: ReservationRow) =>
      row.status === "confirmed" ? (
        <Button className="min-h-10 whitespace-nowrap" disabled={busy === row.id} onClick={() => run(row, "in")} aria-label={`Check in ${row.guest.first_name} ${row.guest.last_name}`}>
          {busy === row.id ? "Checking in…" : "Check in"}
        </Button>
      ) : null,
    checkOut: (row: ReservationRow) =>
      row.status === "checked_in" ? (
        <Button className="min-h-10 whitespace-nowrap" variant="secondary" disabled={busy === row.id} onClick={() => run(row, "out")} aria-label={`Check out ${row.guest.first_name} ${row.guest.last_name}`}>
          {busy === row.id ? "Checking out…" : "Check out"}
        </Button>
      ) : null,
  };
}

/**
 * The front desk's home: today's arrivals, in-house guests and departures with their counts,
 * occupancy tonight, the rooms that keep arriving guests waiting, and check-in or check-out in
 * one click from the lists (check-in takes the room the desk would pick: inspected first).
 */
export function FrontDeskHome({ title, propertyId, propertyName }: { title: string; propertyId: string; propertyName: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const formatDate = (d: string, style: "long") => fmt.day(d, style);
  const queryClient = useQueryClient();
  const day = useQuery(trpc.reservations.deskDay.queryOptions({ property_id: propertyId }));
  const refresh = async () => {
    await Promise.all([queryClient.invalidateQueries(trpc.reservations.deskDay.queryFilter()), queryClient.invalidateQueries(trpc.reservations.search.queryFilter())]);
  };
  // Bookings, check-ins and rooms cleaned elsewhere (another desk, housekeeping, the API) show within seconds.
  useLiveInvalidate(["reservation.*", "housekeeping.status_changed", "night_audit.completed"], trpc.reservations.deskDay.queryFilter(), trpc.reservations.search.queryFilter(), trpc.properties.businessDate.queryFilter());
  const buttons = useStayButtons(refresh);
  const [tab, setTab] = useState<View>("arrivals");

  if (day.error || !day.data) {
    return (
      <>
        <PageHeader title={title} description={`Front desk at ${propertyName}`} />
        {day.error ? <ErrorState message={callError(day.error).message} onRetry={() => day.refetch()} /> : <LoadingState rows={6} label="Loading today…" />}
      </>
    );
  }
  const d = day.data;
  const c = d.counts;
  const list = (view: View, label: string, emptyTitle: string, action?: (row: ReservationRow) => ReactNode) => ({
    value: view,
    label: `${label} (${view === "arrivals" ? c.arrivals : view === "in_house" ? c.in_house : c.departures})`,
    content: <ReservationList label={`${label}, ${formatDate(d.today, "long")}`} input={{ property_id: propertyId, view }} empty={{ title: emptyTitle }} action={action} />,
  });

  return (
    <>
      <PageHeader title={title} description={`Front desk at ${propertyName} · ${formatDate(d.today, "long")}`} />
      <div className="mb-6 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile testId="count-arrivals" label="Arrivals" value={c.arrivals} note={c.arrivals_pending ? `${c.arrivals_pending} still to check in` : "All checked in"} />
        <Tile testId="count-in-house" label="In house" value={c.in_house} />
        <Tile testId="count-departures" label="Departures" value={c.departures} note={c.departures_pending ? `${c.departures_pending} still to check out` : "All checked out"} />
        <Tile
          testId="occupancy-tonight"
          label="Occupancy tonight"
          value={formatPercent(d.tonight.occupancy)}
          note={`${d.tonight.rooms_sold} of ${d.tonight.rooms_available} rooms`}
        />
      </div>
      {d.rooms_not_ready.length ? (
        <Card title="Rooms not ready for arriving guests" className="mb-6" actions={<Link href="/housekeeping" className="text-sm text-teal-800 hover:underline">Housekeeping board</Link>}>
          <ul className="space-y-3 text-sm" data-testid="rooms-not-ready">
            {d.rooms_not_ready.map((t) => (
              <li key={t.room_type.id}>
                <p className="font-medium text-stone-900">
                  {t.room_type.name}: {t.arrivals_pending} arriving, {t.ready} ready
                  <span className="ml-2 text-red-700">{t.arrivals_pending - t.ready} short</span>
                </p>
                {t.rooms.length ? (
                  <p className="mt-1 flex flex-wrap gap-1.5">
                    {t.rooms.map((r) => (
                      <Badge key={r.id} tone={r.housekeeping_status === "dirty" ? "amber" : "red"}>
                        Room {r.number} · {housekeepingLabels[r.housekeeping_status] ?? r.housekeeping_status}
                      </Badge>
                    ))}
                  </p>
                ) : (
                  <p className="mt-1 text-stone-500">Every room of this type is taken: move a guest to another room type.</p>
                )}
              </li>
            ))}
          </ul>
        </Card>
      ) : (
        <p className="mb-6 rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status">
          Every arriving guest has a room ready.
        </p>
      )}
      <Tabs
        label="Today's lists"
        value={tab}
        onValueChange={(v) => setTab(v as View)}
        tabs={[
          list("arrivals", "Arrivals", "No arrivals today", buttons.checkIn),
          list("in_house", "In house", "Nobody is checked in", buttons.checkOut),
          list("departures", "Departures", "No departures today", buttons.checkOut),
        ]}
      />
    </>
  );
}
