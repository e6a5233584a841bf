"use client";

import { useDraggable, useDroppable } from "@dnd-kit/core";
import { GripVertical } from "lucide-react";
import { cx } from "@/components/ui";
import { type Formatters } from "@/components/ui/property-format";
import { addDays, daysBetween } from "@/lib/dates";
import { reservationStatusWords } from "@/lib/words";
import { NIGHT, roomColumn, type Chart, type Row, type Stay } from "./tape-chart-model";

// A row of the room chart (a room, or a type's unassigned stays) with its stay bars, and the legend.

/** Height of one lane, in pixels: the keyboard moves by it. */
const LANE = 40;

const statusTone: Record<string, string> = {
  confirmed: "bg-sky-100 text-sky-950 ring-sky-400",
  checked_in: "bg-teal-100 text-teal-950 ring-teal-500",
  checked_out: "bg-stone-200 text-stone-800 ring-stone-400",
};

/** Stays of a row in lanes, so overlapping ones (unassigned arrivals) sit one above the other. */
function lanesOf(stays: Stay[]) {
  const ends: string[] = [];
  return stays.map((stay) => {
    let lane = ends.findIndex((end) => end <= stay.check_in);
    if (lane === -1) lane = ends.length;
    ends[lane] = stay.check_out;
    return { stay, lane };
  });
}

/** The night columns a span covers within the window. */
function columns(span: { from: string; to: string }, chart: Pick<Chart, "from" | "to">) {
  const start = span.from > chart.from ? span.from : chart.from;
  const end = span.to < chart.to ? span.to : chart.to;
  return { left: daysBetween(chart.from, start) * NIGHT, width: Math.max(daysBetween(start, end), 0) * NIGHT };
}
export function ChartRow({
  row,
  head,
  stays,
  blocks = [],
  chart,
  fmt,
  resizing,
  onOpen,
}: {
  row: Row;
  head: React.ReactNode;
  stays: Stay[];
  blocks?: Chart["blocks"];
  chart: Chart;
  fmt: Formatters;
  resizing: { id: string; nights: number } | null;
  onOpen: (stay: Stay) => void;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: row.id });
  const placed = lanesOf(stays);
  const lanes = Math.max(1, ...placed.map((p) => p.lane + 1));
  return (
    <div className="flex border-b border-stone-100" data-row={row.label}>
      <div className={cx(roomColumn, "z-10 flex flex-col justify-center bg-white leading-tight")}>{head}</div>
      <div
        ref={setNodeRef}
        className={cx("relative shrink-0", isOver && "bg-teal-50 outline outline-2 -outline-offset-2 outline-teal-500")}
        style={{ width: chart.nights.length * NIGHT, height: lanes * LANE + 4 }}
      >
        {chart.nights.map((night, i) => (
          <div
            key={night}
            aria-hidden
            className={cx("absolute inset-y-0 border-r border-stone-100", night === chart.today && "bg-teal-50/60")}
            style={{ left: i * NIGHT, width: NIGHT }}
          />
        ))}
        {blocks.map((b) => {
          const { left, width } = columns(b, chart);
          return (
            <div
              key={b.room_id}
              className="absolute top-0.5 flex items-center overflow-hidden whitespace-nowrap rounded bg-[repeating-linear-gradient(45deg,#e7e5e4,#e7e5e4_6px,#f5f5f4_6px,#f5f5f4_12px)] px-2 text-xs font-medium text-stone-800 ring-1 ring-stone-400"
              style={{ left, width, height: LANE - 6 }}
              title={`Out of order${b.reason ? `: ${b.reason}` : ""}`}
            >
              Out of order{b.reason ? `: ${b.reason}` : ""}
            </div>
          );
        })}
        {placed.map(({ stay, lane }) => (
          <StayBar key={stay.reservation_id} stay={stay} lane={lane} chart={chart} fmt={fmt} resizeBy={resizing?.id === stay.reservation_id ? resizing.nights : 0} onOpen={onOpen} />
        ))}
      </div>
    </div>
  );
}

function StayBar({ stay, lane, chart, fmt, resizeBy, onOpen }: { stay: Stay; lane: number; chart: Chart; fmt: Formatters; resizeBy: number; onOpen: (stay: Stay) => void }) {
  const { setNodeRef: moveRef, attributes: moveAttributes, listeners: moveListeners, transform: moved, isDragging: moving } = useDraggable({
    id: `stay:${stay.reservation_id}`,
    disabled: !stay.can_move,
  });
  const { setNodeRef: endRef, attributes: endAttributes, listeners: endListeners, isDragging: ending } = useDraggable({
    id: `end:${stay.reservation_id}`,
    disabled: !stay.can_resize,
  });
  const checkOut = addDays(stay.check_out, resizeBy);
  const { left, width } = columns({ from: stay.check_in, to: checkOut > stay.check_in ? checkOut : addDays(stay.check_in, 1) }, chart);
  const status = reservationStatusWords[stay.status] ?? stay.status;
  const text = `${stay.guest_name} · ${status}`;
  const dates = `${fmt.day(stay.check_in, "weekday")} to ${fmt.day(stay.check_out, "weekday")}`;
  const transform = moved ? `translate3d(${moved.x}px, ${moved.y}px, 0)` : undefined;
  if (width <= 0) return null;
  return (
    <div
      className={cx("absolute flex rounded-md shadow-sm ring-1", statusTone[stay.status], (moving || ending) && "z-30 opacity-90 shadow-lg")}
      style={{ left: left + 1, width: width - 2, top: 2 + lane * LANE, height: LANE - 6, transform }}
      data-stay={stay.guest_name}
    >
      <button
        ref={moveRef}
        type="button"
        {...moveAttributes}
        {...moveListeners}
        aria-roledescription={stay.can_move ? "movable stay" : "stay"}
        aria-label={`${text}, ${dates}`}
        title={`${text}, ${dates}`}
        onClick={() => onOpen(stay)}
        className="min-w-0 flex-1 touch-manipulation truncate rounded-md px-2 text-left text-xs font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-700"
      >
        {text}
      </button>
      {stay.can_resize ? (
        <button
          ref={endRef}
          type="button"
          {...endAttributes}
          {...endListeners}
          aria-roledescription="stay end"
          aria-label={`Departure of ${stay.guest_name}: ${fmt.day(checkOut, "weekday")}`}
          className="flex w-4 shrink-0 cursor-ew-resize items-center justify-center rounded-r-md border-l border-current/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-700"
        >
          <GripVertical className="h-3 w-3" aria-hidden />
        </button>
      ) : null}
    </div>
  );
}

export function Legend() {
  return (
    <ul className="mt-3 flex flex-wrap gap-3 text-xs text-stone-700" aria-label="Legend">
      {(["confirmed", "checked_in", "checked_out"] as const).map((s) => (
        <li key={s} className="flex items-center gap-1.5">
          <span className={cx("inline-block h-3 w-5 rounded ring-1", statusTone[s])} aria-hidden />
          {reservationStatusWords[s]}
        </li>
      ))}
      <li className="flex items-center gap-1.5">
        <span className="inline-block h-3 w-5 rounded bg-[repeating-linear-gradient(45deg,#e7e5e4,#e7e5e4_3px,#f5f5f4_3px,#f5f5f4_6px)] ring-1 ring-stone-400" aria-hidden />
        Out of order
      </li>
    </ul>
  );
}
