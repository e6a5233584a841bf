"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { Fragment, useState } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, PageHeader, cx } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import { WindowPicker } from "@/components/ui/window-picker";
import { addDays, weekdayOf } from "@/lib/dates";
import { planNightWords, restrictionSummary } from "./restrictions";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { plural } from "@/lib/words";

type Calendar = inferRouterOutputs<AppRouter>["inventory"]["calendar"];
type Cell = Calendar["data"][number];
const days = 30;

/** Grey when no plan sells the night, red when no room is free, amber when few are. */
const cellTone = (c: Cell, closed: boolean) =>
  closed
    ? "bg-stone-100 text-stone-500"
    : c.available <= 0
      ? "bg-red-50 text-red-900"
      : c.available <= Math.max(1, Math.floor(c.total / 5))
        ? "bg-amber-50 text-amber-900"
        : "bg-white text-stone-900";

const describe = (fmt: Formatters, typeName: string, c: Cell, restrictions: string[]) =>
  `${typeName}, ${fmt.day(c.date, "weekday")}: ${c.available} available of ${c.total}, ${c.sold} sold, ${c.held} held, ${c.out_of_order} out of order${restrictions.length ? `; ${restrictions.join("; ")}` : ""}`;

/**
 * Room types × 30 nights from a chosen day: available in each cell, with sold / held / out of
 * order beneath; a cell opens that night's bookings. The grid scrolls inside its own box.
 */
export function AvailabilityCalendar({
  propertyId,
  currency,
  canOpenReservations,
}: {
  propertyId: string;
  currency: string;
  canOpenReservations: boolean;
}) {
  const today = useBusinessDate();
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const [from, setFrom] = useState(today);
  const [open, setOpen] = useState<{ typeName: string; cell: Cell } | null>(null);
  const calendar = useQuery({ ...trpc.inventory.calendar.queryOptions({ property_id: propertyId, from, days }), placeholderData: keepPreviousData });
  // Bookings, holds, rooms out of order and rate changes made elsewhere change the grid without a reload.
  useLiveInvalidate(
    ["reservation.*", "inventory.updated", "rate.updated", "night_audit.completed"],
    trpc.inventory.calendar.queryFilter(),
    trpc.inventory.night.queryFilter(),
    trpc.properties.businessDate.queryFilter(),
  );
  const data = calendar.data;
  const dates = Array.from({ length: days }, (_, i) => addDays(from, i));
  const cells = new Map((data?.data ?? []).map((c) => [`${c.room_type_id}|${c.date}`, c]));
  const planCodes = new Map((data?.rate_plans ?? []).map((p) => [p.id, p.code]));
  const codeOf = (id: string) => planCodes.get(id) ?? id;

  return (
    <>
      <PageHeader title="Calendar" description="Rooms available per room type and night. Select a night to see its bookings." />
      <WindowPicker id="calendar-from" from={from} today={today} span={days} unit="days" onChange={setFrom} />
      <Legend />
      {calendar.error && !data ? (
        <ErrorState message={callError(calendar.error).message} onRetry={() => calendar.refetch()} />
      ) : !data ? (
        <LoadingState rows={5} label="Loading the calendar…" />
      ) : !data.room_types.length ? (
        <EmptyState title="No room types yet">Room types and their rooms appear here once a manager creates them.</EmptyState>
      ) : (
        <>
          {calendar.error ? <ErrorState message={callError(calendar.error).message} onRetry={() => calendar.refetch()} /> : null}
          <div
            className="max-w-full overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm"
            data-testid="calendar-grid"
            aria-busy={calendar.isFetching}
          >
            <table className="border-collapse text-sm" aria-label={`Availability from ${fmt.day(from, "weekday")}`}>
              <thead>
                <tr>
                  <th
                    scope="col"
                    className="sticky left-0 z-10 min-w-28 border-b border-r border-stone-200 bg-stone-50 px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-stone-500"
                  >
                    Room type
                  </th>
                  {dates.map((d) => {
                    const weekend = ["sat", "sun"].includes(weekdayOf(d));
                    return (
                      <th
                        key={d}
                        scope="col"
                        className={cx(
                          "min-w-14 border-b border-stone-200 px-1 py-1.5 text-center text-xs font-medium",
                          weekend ? "bg-stone-100 text-stone-700" : "bg-stone-50 text-stone-500",
                          d === today && "text-teal-800",
                        )}
                      >
                        <span className="block">{fmt.day(d, { weekday: "short" })}</span>
                        <span className="block text-sm text-stone-800">{fmt.day(d, { day: "numeric" })}</span>
                        <span className="block">{fmt.day(d, { month: "short" })}</span>
                      </th>
                    );
                  })}
                </tr>
              </thead>
              <tbody>
                {data.room_types.map((t) => (
                  <tr key={t.id} data-testid={`calendar-row-${t.code}`}>
                    <th
                      scope="row"
                      className="sticky left-0 z-10 max-w-36 border-b border-r border-stone-200 bg-white px-3 py-2 text-left font-medium text-stone-800"
                    >
                      <span className="block truncate">{t.name}</span>
                      <span className="block text-xs font-normal text-stone-500">{t.code}</span>
                    </th>
                    {dates.map((d) => {
                      const c = cells.get(`${t.id}|${d}`);
                      const restrictions = c ? restrictionSummary(c.rates, codeOf) : null;
                      return (
                        <td key={d} className="border-b border-l border-stone-100 p-0">
                          {c && restrictions ? (
                            <button
                              type="button"
                              data-testid={`cell-${t.code}-${d}`}
                              onClick={() => setOpen({ typeName: t.name, cell: c })}
                              className={cx(
                                "relative flex h-full w-full flex-col items-center px-1 py-1.5 hover:ring-2 hover:ring-inset hover:ring-teal-300 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-teal-600",
                                cellTone(c, restrictions.closed),
                              )}
                            >
                              {/* The name is the whole sentence; the figures drawn below are its short form, so a screen reader hears it once. */}
                              <span className="sr-only">{describe(fmt, t.name, c, restrictions.words)}</span>
                              <span aria-hidden className="contents">
                                <span
                                  className={cx("text-base font-semibold tabular-nums", restrictions.closed && "line-through decoration-stone-400")}
                                >
                                  {c.available}
                                </span>
                                <span className="flex gap-1 text-[10px] leading-tight tabular-nums text-stone-700">
                                  {c.sold ? <span title="sold">S{c.sold}</span> : null}
                                  {c.held ? <span title="held">H{c.held}</span> : null}
                                  {c.out_of_order ? <span title="out of order">O{c.out_of_order}</span> : null}
                                </span>
                                {restrictions.marks.length ? (
                                  <span
                                    className="mt-0.5 flex flex-col items-center text-[10px] font-medium leading-tight text-rose-800"
                                    data-testid="cell-restrictions"
                                  >
                                    {restrictions.marks.map((m) => (
                                      <span key={m} className="whitespace-nowrap">
                                        {m}
                                      </span>
                                    ))}
                                  </span>
                                ) : null}
                              </span>
                            </button>
                          ) : (
                            <span className="block px-1 py-2 text-center text-xs text-stone-300">—</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      <NightDialog
        propertyId={propertyId}
        currency={currency}
        codeOf={codeOf}
        open={open}
        canOpenReservations={canOpenReservations}
        onClose={() => setOpen(null)}
      />
    </>
  );
}

function Legend() {
  return (
    <p className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-stone-600">
      <span>
        Big number: <strong>available</strong>
      </span>
      <span>S: sold</span>
      <span>H: held back</span>
      <span>O: out of order</span>
      <span>SS: stop-sell on some rate plans (Stop-sell: on all)</span>
      <span>No arrival / No departure: closed to arrival / departure on a rate plan</span>
      <span>Min: minimum stay</span>
      <span className="flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-sm bg-amber-100 ring-1 ring-amber-300" aria-hidden /> few left
      </span>
      <span className="flex items-center gap-1">
        <span className="inline-block h-3 w-3 rounded-sm bg-red-100 ring-1 ring-red-300" aria-hidden /> none left
      </span>
    </p>
  );
}

const reservationTone = { confirmed: "blue", checked_in: "violet", checked_out: "neutral", cancelled: "red", no_show: "red" } as const;

/** One night of one room type: its counts and the bookings staying that night. */
function NightDialog({
  propertyId,
  currency,
  codeOf,
  open,
  canOpenReservations,
  onClose,
}: {
  propertyId: string;
  currency: string;
  codeOf: (planId: string) => string;
  open: { typeName: string; cell: Cell } | null;
  canOpenReservations: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const cell = open?.cell;
  const night = useQuery({
    ...trpc.inventory.night.queryOptions({ property_id: propertyId, room_type_id: cell?.room_type_id ?? "", date: cell?.date ?? "2000-01-01" }),
    enabled: Boolean(cell),
  });
  return (
    <Dialog
      open={Boolean(open)}
      onOpenChange={(o) => (o ? null : onClose())}
      title={open ? `${open.typeName} · ${fmt.day(open.cell.date, { weekday: "long", day: "numeric", month: "long" })}` : "Night"}
      size="md"
    >
      {cell ? (
        <div className="space-y-4">
          <dl className="grid grid-cols-5 gap-2 text-center text-sm" aria-label="This night">
            {(
              [
                ["Total", cell.total],
                ["Sold", cell.sold],
                ["Held", cell.held],
                ["Out of order", cell.out_of_order],
                ["Available", cell.available],
              ] as const
            ).map(([label, value]) => (
              <Fragment key={label}>
                <div className="rounded-md bg-stone-50 px-1 py-2">
                  <dt className="text-[11px] text-stone-500">{label}</dt>
                  <dd className="text-lg font-semibold tabular-nums text-stone-900">{value}</dd>
                </div>
              </Fragment>
            ))}
          </dl>
          <h3 className="text-sm font-semibold text-stone-800">Rate plans this night</h3>
          {cell.rates.length === 0 ? (
            <p className="text-sm text-stone-500">No active rate plan covers this room type.</p>
          ) : (
            <ul className="divide-y divide-stone-100 text-sm" aria-label="Rate plans this night">
              {cell.rates.map((r) => (
                <li key={r.rate_plan_id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5">
                  <span className="font-medium text-stone-800">{codeOf(r.rate_plan_id)}</span>
                  <span className="tabular-nums text-stone-700">{r.amount === null ? "no rate" : fmt.money({ amount: r.amount, currency })}</span>
                  <span className={cx("basis-full text-xs", r.stop_sell ? "font-medium text-rose-800" : "text-stone-500")}>
                    Restrictions: {planNightWords(r)}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <h3 className="text-sm font-semibold text-stone-800">Bookings this night</h3>
          {night.error ? (
            <ErrorState message={callError(night.error).message} onRetry={() => night.refetch()} />
          ) : !night.data ? (
            <LoadingState rows={2} />
          ) : night.data.data.length === 0 ? (
            <EmptyState title="No bookings this night" />
          ) : (
            <ul className="divide-y divide-stone-100" aria-label="Bookings this night">
              {night.data.data.map((r) => (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                  <div className="min-w-0">
                    {canOpenReservations ? (
                      <Link href={`/reservations/${r.id}`} className="font-medium text-teal-800 hover:underline">
                        {r.guest.first_name} {r.guest.last_name}
                      </Link>
                    ) : (
                      <span className="font-medium">
                        {r.guest.first_name} {r.guest.last_name}
                      </span>
                    )}
                    <p className="text-xs text-stone-500">
                      {fmt.day(r.check_in, "weekday")} – {fmt.day(r.check_out, "weekday")} · {plural(r.nights, "night")} ·{" "}
                      {plural(r.adults + r.children, "guest")}
                    </p>
                  </div>
                  <Badge tone={reservationTone[r.status]}>{r.status.replace("_", " ")}</Badge>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
    </Dialog>
  );
}
