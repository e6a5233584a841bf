"use client";

import { useState, type KeyboardEvent, type MouseEvent } from "react";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import { addDays, daysBetween, weekdayOf } from "@/lib/dates";
import { cx } from "@/components/ui";

/** Room types × a half-open range of nights, as the set-rates form takes it. */
export type Selection = { roomTypeIds: string[]; from: string; to: string; nights: number };

type Night = {
  date: string;
  room_type_id: string;
  amount: number | null;
  min_stay: number;
  closed_to_arrival: boolean;
  closed_to_departure: boolean;
  stop_sell: boolean;
  /** The type's rooms that night, and those still to sell (total less out of order, held and sold). */
  rooms: number;
  available: number;
};
type Cell = { row: number; date: string };

/**
 * The grid: a row per room type, a column per night; each cell a button showing the amount and
 * its restrictions, in words, and how many rooms are left to sell that night, so a price is set
 * against demand. Click picks a night, Shift-click (or Shift+Enter) stretches the selection to a
 * rectangle of room types × nights; in range mode (`extend`, for touch) every tap after the first
 * stretches it the same way. Wide grids scroll inside their own box, never the page.
 */
export function RateGrid({
  currency,
  roomTypes,
  from,
  days,
  today,
  nights,
  selection,
  onSelect,
  extend = false,
  busy,
}: {
  currency: string;
  roomTypes: { id: string; code: string; name: string }[];
  from: string;
  days: number;
  today: string;
  nights: Night[];
  selection: Selection | null;
  onSelect: (selection: Selection | null) => void;
  /** Range mode: a tap stretches the selection from its first night instead of starting anew. */
  extend?: boolean;
  busy?: boolean;
}) {
  const fmt = usePropertyFormat();
  const [anchor, setAnchor] = useState<Cell | null>(null);
  const dates = Array.from({ length: days }, (_, i) => addDays(from, i));
  const byKey = new Map(nights.map((n) => [`${n.room_type_id}:${n.date}`, n]));

  const choose = (cell: Cell, stretch: boolean) => {
    // A cleared selection starts anew, whatever the mode.
    const from = stretch && selection ? anchor : null;
    const start = from ?? cell;
    if (!from) setAnchor(cell);
    const [r0, r1] = [Math.min(start.row, cell.row), Math.max(start.row, cell.row)];
    const [d0, d1] = start.date <= cell.date ? [start.date, cell.date] : [cell.date, start.date];
    const to = addDays(d1, 1);
    onSelect({ roomTypeIds: roomTypes.slice(r0, r1 + 1).map((t) => t.id), from: d0, to, nights: daysBetween(d0, to) });
  };
  const selected = (row: number, date: string) =>
    !!selection && selection.roomTypeIds.includes(roomTypes[row].id) && date >= selection.from && date < selection.to;

  return (
    <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm" aria-busy={busy || undefined} data-testid="rate-grid-box">
      <table className="border-separate border-spacing-0 text-sm" aria-label="Rates by room type and night">
        <thead>
          <tr>
            <th
              scope="col"
              className="sticky left-0 z-10 min-w-24 border-b border-r border-stone-200 bg-stone-50 px-3 py-2 text-left text-xs font-medium uppercase tracking-wide text-stone-500"
            >
              Room type
            </th>
            {dates.map((date) => {
              const weekend = ["fri", "sat"].includes(weekdayOf(date));
              return (
                <th
                  key={date}
                  scope="col"
                  className={cx(
                    "min-w-[7.5rem] border-b border-stone-200 px-1 py-1.5 text-center text-xs font-medium",
                    weekend ? "bg-stone-100 text-stone-700" : "bg-stone-50 text-stone-500",
                    date === today && "text-teal-800",
                  )}
                >
                  <span className="block">{fmt.day(date, { weekday: "short" })}</span>
                  <span className="block whitespace-nowrap">{fmt.day(date, { day: "numeric", month: "short" })}</span>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {roomTypes.map((type, row) => (
            <tr key={type.id}>
              <th scope="row" className="sticky left-0 z-10 border-b border-r border-stone-200 bg-white px-3 py-2 text-left align-top">
                <span className="block font-medium text-stone-900">{type.code}</span>
                <span className="block max-w-32 truncate text-xs font-normal text-stone-500">{type.name}</span>
              </th>
              {dates.map((date) => {
                const night = byKey.get(`${type.id}:${date}`);
                const isSelected = selected(row, date);
                const label = describe(fmt, type.name, date, night, currency);
                const pick = (e: MouseEvent | KeyboardEvent) => choose({ row, date }, e.shiftKey || extend);
                return (
                  <td key={date} className="border-b border-stone-100 p-0.5">
                    <button
                      type="button"
                      aria-pressed={isSelected}
                      data-date={date}
                      data-room-type={type.code}
                      data-stop-sell={night?.stop_sell ? "true" : "false"}
                      onClick={pick}
                      onKeyDown={(e) => {
                        if (e.key === "Enter" && e.shiftKey) {
                          e.preventDefault();
                          pick(e);
                        }
                      }}
                      className={cx(
                        "relative flex min-h-[5.5rem] w-full flex-col items-center justify-start gap-0.5 rounded px-1 py-1.5 text-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600",
                        isSelected ? "bg-teal-100 ring-1 ring-teal-600" : night?.stop_sell ? "bg-red-50 hover:bg-red-100" : "hover:bg-stone-100",
                      )}
                    >
                      {/* The name is the whole sentence; what is drawn is its short form. */}
                      <span className="sr-only">{label}</span>
                      <span
                        aria-hidden
                        className={cx(
                          "font-medium tabular-nums",
                          night?.amount == null ? "text-stone-500" : night.stop_sell ? "text-red-800 line-through" : "text-stone-900",
                        )}
                      >
                        {night?.amount == null ? "—" : fmt.short({ amount: night.amount, currency })}
                      </span>
                      {night ? (
                        <span aria-hidden data-testid="rooms-left" className={cx("text-[11px] font-medium leading-tight", night.available === 0 ? "text-red-800" : night.available <= 2 ? "text-amber-900" : "text-stone-600")}>
                          {roomsLeft(night)}
                        </span>
                      ) : null}
                      <span aria-hidden className="flex flex-col items-center gap-0.5 text-[11px] font-medium leading-tight">
                        {restrictionWords(night).map((words) => (
                          <span key={words} className={cx("rounded px-1", words === "Stop-sell" ? "bg-red-700 text-white" : "bg-stone-100 text-stone-800")}>
                            {words}
                          </span>
                        ))}
                      </span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Rooms left to sell that night, as the desk says it. */
export function roomsLeft(night: Pick<Night, "rooms" | "available">) {
  if (night.rooms === 0) return "No rooms";
  return night.available === 0 ? "Sold out" : `${night.available} left`;
}

/** A night's restrictions in words, in the order a booking meets them. */
export function restrictionWords(night: Night | undefined): string[] {
  if (!night) return [];
  return [
    night.stop_sell ? "Stop-sell" : null,
    night.closed_to_arrival ? "Closed to arrival" : null,
    night.closed_to_departure ? "Closed to departure" : null,
    night.min_stay > 1 ? `Min. ${night.min_stay} nights` : null,
  ].filter((w): w is string => !!w);
}

/** What a screen reader hears for a cell: the room type, the night, the price, the rooms left and every restriction. */
function describe(fmt: Formatters, name: string, date: string, night: Night | undefined, currency: string) {
  const parts = [`${name}, ${fmt.day(date, { weekday: "long", day: "numeric", month: "long" })}`];
  parts.push(night?.amount == null ? "no rate" : fmt.money({ amount: night.amount, currency }));
  if (night) parts.push(roomsLeft(night).toLowerCase());
  if (night?.stop_sell) parts.push("stop-sell");
  if (night?.closed_to_arrival) parts.push("closed to arrival");
  if (night?.closed_to_departure) parts.push("closed to departure");
  if (night && night.min_stay > 1) parts.push(`minimum stay ${night.min_stay} nights`);
  return parts.join(", ");
}
