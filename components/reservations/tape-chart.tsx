"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import {
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragMoveEvent,
  type KeyboardCoordinateGetter,
} from "@dnd-kit/core";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { GripVertical } from "lucide-react";
import Link from "next/link";
import { useRef, useState } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, PageHeader, Select, cx } from "@/components/ui";
import { Dialog, DialogClose } from "@/components/ui/dialog";
import { holdingArrows, targetStepper } from "@/components/ui/drag";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { StayPriceBreakdown } from "./stay-price";
import { WindowPicker } from "@/components/ui/window-picker";
import { addDays, daysBetween, weekdayOf } from "@/lib/dates";
import type { StayChange } from "@/server/reservations/tape-chart";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { reservationStatusWords } from "@/lib/words";

type Chart = inferRouterOutputs<AppRouter>["tapeChart"]["window"];
type Stay = Chart["stays"][number];
type Row = { kind: "room"; id: string; typeId: string; label: string } | { kind: "unassigned"; id: string; typeId: string; label: string };

/** Width of one night and height of one lane, in pixels: the keyboard moves by these. */
const NIGHT = 56;
const LANE = 40;
const windowNights = 14;
/** The sticky first column: narrower on a phone, where nights need the room. */
const roomColumn = "sticky left-0 w-20 shrink-0 border-r border-stone-200 px-2 sm:w-28";

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

/**
 * Arrows for the keyboard: up and down go to the previous or next row that takes a drop (rooms
 * and unassigned rows, keeping the stay's nights), left and right move by one night (a stay's end).
 */
const coordinates: KeyboardCoordinateGetter = (event, args) => {
  const { currentCoordinates, context } = args;
  if (event.code === "ArrowRight") return { ...currentCoordinates, x: currentCoordinates.x + NIGHT };
  if (event.code === "ArrowLeft") return { ...currentCoordinates, x: currentCoordinates.x - NIGHT };
  if (String(context.active?.id).startsWith("end:")) return undefined;
  const next = toRow(event, args);
  return next ? { ...next, x: currentCoordinates.x } : undefined;
};
const toRow = targetStepper({ forward: ["ArrowDown"], back: ["ArrowUp"] }).coordinates;

type Pending = { stay: Stay; change: StayChange; what: string };

/**
 * The room tape chart: rooms down (by room type, with floor), nights across, each stay a bar
 * with the guest's name and status; confirmed stays (a room is chosen at check-in) in their
 * type's unassigned row; out-of-order rooms striped. Drag a bar to another row to move the stay,
 * or its end to change the departure; the price change is shown and confirmed before saving.
 */
export function TapeChart({ propertyId }: { propertyId: string }) {
  const today = useBusinessDate();
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const [from, setFrom] = useState(today);
  const chart = useQuery({ ...trpc.tapeChart.window.queryOptions({ property_id: propertyId, from, nights: windowNights }), placeholderData: keepPreviousData });
  const live = useLiveInvalidate(["reservation.*", "inventory.updated", "housekeeping.status_changed", "night_audit.completed"], trpc.tapeChart.window.queryFilter(), trpc.properties.businessDate.queryFilter());
  const data = chart.data;
  return (
    <>
      <PageHeader title="Room chart" description="Rooms down, nights across. Drag a stay to another room, or its end to change the departure." />
      <WindowPicker id="chart-from" from={from} today={today} span={windowNights} unit="nights" onChange={setFrom} />
      {chart.error && !data ? (
        <ErrorState message={callError(chart.error).message} onRetry={() => chart.refetch()} />
      ) : !data ? (
        <LoadingState rows={6} label="Loading the room chart…" />
      ) : !data.room_types.some((t) => t.rooms.length) ? (
        <EmptyState title="No rooms yet">Rooms appear here, by room type and floor, once a manager adds them.</EmptyState>
      ) : (
        <>
          {chart.error ? <ErrorState message={callError(chart.error).message} onRetry={() => chart.refetch()} /> : null}
          <Grid chart={data} fmt={fmt} busy={chart.isFetching} live={live.status} />
        </>
      )}
    </>
  );
}

function Grid({ chart, fmt, busy, live }: { chart: Chart; fmt: Formatters; busy: boolean; live: string }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [opened, setOpened] = useState<Stay | null>(null);
  const [resizing, setResizing] = useState<{ id: string; nights: number } | null>(null);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    // On a touch screen a long press picks a stay up; a tap opens its menu.
    useSensor(TouchSensor, { activationConstraint: { delay: 300, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: holdingArrows(coordinates) }),
  );
  const rows: Row[] = chart.room_types.flatMap((t) => [
    { kind: "unassigned" as const, id: `unassigned:${t.id}`, typeId: t.id, label: `${t.name}, not yet in a room` },
    ...t.rooms.map((r) => ({ kind: "room" as const, id: `room:${r.id}`, typeId: t.id, label: `Room ${r.number}` })),
  ]);
  const rowById = new Map(rows.map((r) => [r.id, r]));
  const roomNumber = new Map(chart.room_types.flatMap((t) => t.rooms.map((r) => [r.id, r.number] as const)));
  const typeName = new Map(chart.room_types.map((t) => [t.id, t.name]));
  const stayById = new Map(chart.stays.map((s) => [s.reservation_id, s]));
  const name = (id: string | number) => stayById.get(String(id).replace(/^(stay|end):/, ""))?.guest_name ?? "the stay";
  const homeRow = (id: string | number) => {
    const stay = stayById.get(String(id).replace(/^(stay|end):/, ""));
    return stay ? (stay.room_id ? `room:${stay.room_id}` : `unassigned:${stay.room_type_id}`) : null;
  };
  const place = (s: Stay) => (s.room_id ? `room ${roomNumber.get(s.room_id)}` : `${typeName.get(s.room_type_id)}, no room yet`);

  /** What dropping `stay` on `row` means, or why it means nothing. */
  const dropChange = (stay: Stay, row: Row | undefined): Pending | string | null => {
    if (!row) return null;
    if (stay.status === "checked_in") {
      if (row.kind !== "room") return "A guest in house moves to a room, not to the unassigned row.";
      const roomId = row.id.slice("room:".length);
      if (roomId === stay.room_id) return null;
      return { stay, change: { reservation_id: stay.reservation_id, room_id: roomId }, what: `Move ${stay.guest_name} from ${place(stay)} to room ${roomNumber.get(roomId)}` };
    }
    if (row.typeId === stay.room_type_id) return row.kind === "room" ? "A confirmed stay gets its room at check-in; move it to another room type to change its type." : null;
    return {
      stay,
      change: { reservation_id: stay.reservation_id, room_type_id: row.typeId },
      what: `Change ${stay.guest_name}'s room type from ${typeName.get(stay.room_type_id)} to ${typeName.get(row.typeId)}`,
    };
  };
  const endChange = (stay: Stay, nights: number): Pending | null => {
    if (!nights) return null;
    const checkOut = addDays(stay.check_out, nights);
    if (checkOut <= stay.check_in) return null;
    return {
      stay,
      change: { reservation_id: stay.reservation_id, check_out: checkOut },
      what: `${nights > 0 ? "Extend" : "Shorten"} ${stay.guest_name}'s stay to leave on ${fmt.day(checkOut, "weekday")} (${nightsChange(nights)})`,
    };
  };

  // What is held now: dnd-kit can report the last move of a quick drag (a finger lifted right after
  // moving) after its end, which would leave the bar drawn a night off the departure just saved.
  const held = useRef<string | null>(null);
  const onDragMove = ({ active, delta }: DragMoveEvent) => {
    const id = String(active.id);
    if (held.current === id && id.startsWith("end:")) setResizing({ id: id.slice(4), nights: Math.round(delta.x / NIGHT) });
  };
  const onDragEnd = ({ active, over, delta }: DragEndEvent) => {
    held.current = null;
    setResizing(null);
    const id = String(active.id);
    const stay = stayById.get(id.replace(/^(stay|end):/, ""));
    if (!stay) return;
    const next = id.startsWith("end:") ? endChange(stay, Math.round(delta.x / NIGHT)) : dropChange(stay, over ? rowById.get(String(over.id)) : undefined);
    if (typeof next === "string") toast.error(next);
    else if (next) setPending(next);
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      String(active.id).startsWith("end:") ? `Changing the departure of ${name(active.id)}. Left and right move it by a night.` : `Picked up the stay of ${name(active.id)}.`,
    // Not the row the stay starts in: picking it up already said where it is.
    onDragOver: ({ active, over }) =>
      over && !String(active.id).startsWith("end:") && over.id !== homeRow(active.id) ? `Over ${rowById.get(String(over.id))?.label}.` : undefined,
    onDragEnd: ({ active, over }) =>
      String(active.id).startsWith("end:") ? `Let go of the departure of ${name(active.id)}.` : over ? `Dropped ${name(active.id)} on ${rowById.get(String(over.id))?.label}.` : `Dropped ${name(active.id)}.`,
    onDragCancel: ({ active }) => `Cancelled: ${name(active.id)} stays where it was.`,
  };
  return (
    <DndContext
      sensors={sensors}
      // Scroll the chart only when a drag comes close to its edge: a stay's end dragged a night
      // or two on a phone should not run the chart (and the nights counted) along with it.
      autoScroll={{ threshold: { x: 0.1, y: 0.1 } }}
      onDragStart={({ active }) => (held.current = String(active.id))}
      onDragMove={onDragMove}
      onDragEnd={onDragEnd}
      onDragCancel={() => {
        held.current = null;
        setResizing(null);
      }}
      accessibility={{
        announcements,
        screenReaderInstructions: {
          draggable:
            "Press space to pick the stay up, the up and down arrows to choose a room, and space or enter to drop it; on a stay's end, left and right change the departure. Escape cancels.",
        },
      }}
    >
      <div className="max-w-full overflow-x-auto rounded-lg border border-stone-200 bg-white shadow-sm" data-testid="tape-chart" data-live={live} aria-busy={busy}>
        <div className="w-max text-sm">
          <div className="sticky top-0 z-20 flex border-b border-stone-200 bg-stone-50">
            <div className={cx(roomColumn, "z-20 bg-stone-50 py-1.5 text-xs font-medium text-stone-700")}>Room</div>
            {chart.nights.map((night) => (
              <div
                key={night}
                className={cx(
                  "shrink-0 border-r border-stone-100 px-1 py-1.5 text-center text-xs",
                  night === chart.today ? "bg-teal-50 font-semibold text-teal-900" : ["sat", "sun"].includes(weekdayOf(night)) ? "bg-stone-100 text-stone-700" : "text-stone-700",
                )}
                style={{ width: NIGHT }}
              >
                {fmt.day(night, { weekday: "short" })}
                <br />
                {fmt.day(night, { day: "numeric", month: "short" })}
              </div>
            ))}
          </div>
          {chart.room_types.map((type) => (
            <section key={type.id} aria-label={type.name}>
              <h2 className="sticky left-0 w-fit bg-white px-2 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-stone-700">{type.name}</h2>
              <ChartRow
                row={rows.find((r) => r.id === `unassigned:${type.id}`)!}
                head={<span className="text-xs italic text-stone-600">No room yet</span>}
                stays={chart.stays.filter((s) => s.room_type_id === type.id && !s.room_id)}
                chart={chart}
                fmt={fmt}
                resizing={resizing}
                onOpen={setOpened}
              />
              {type.rooms.map((room) => (
                <ChartRow
                  key={room.id}
                  row={rows.find((r) => r.id === `room:${room.id}`)!}
                  head={
                    <>
                      <span className="truncate font-semibold text-stone-900" title={`Room ${room.number}`}>
                        {room.number}
                      </span>
                      {room.floor !== null ? <span className="text-xs text-stone-600">Floor {room.floor}</span> : null}
                    </>
                  }
                  stays={chart.stays.filter((s) => s.room_id === room.id)}
                  blocks={chart.blocks.filter((b) => b.room_id === room.id)}
                  chart={chart}
                  fmt={fmt}
                  resizing={resizing}
                  onOpen={setOpened}
                />
              ))}
            </section>
          ))}
        </div>
      </div>
      <Legend />
      {/* While a stay's end is held, where it would now end, for those who cannot see the bar grow. */}
      <p className="sr-only" aria-live="polite" data-testid="departure-status">
        {resizing ? departureStatus(stayById.get(resizing.id), resizing.nights, fmt) : ""}
      </p>
      {opened ? (
        <StayMenu
          stay={opened}
          chart={chart}
          fmt={fmt}
          onClose={() => setOpened(null)}
          onChoose={(next) => {
            setOpened(null);
            if (typeof next === "string") toast.error(next);
            else if (next) setPending(next);
          }}
          dropChange={dropChange}
          endChange={endChange}
          place={place}
        />
      ) : null}
      {pending ? <ConfirmChange pending={pending} fmt={fmt} onClose={() => setPending(null)} /> : null}
    </DndContext>
  );
}

/** "Leaves on Fri, 27 Nov, 1 night more": the departure a held end points at. */
function departureStatus(stay: Stay | undefined, nights: number, fmt: Formatters) {
  if (!stay) return "";
  const checkOut = addDays(stay.check_out, nights);
  if (checkOut <= stay.check_in) return `${stay.guest_name} stays at least one night.`;
  return `${stay.guest_name} leaves on ${fmt.day(checkOut, "weekday")}, ${nights === 0 ? "as booked" : nightsChange(nights)}.`;
}

/** "1 night more", "2 nights fewer". */
const nightsChange = (nights: number) => `${Math.abs(nights)} night${Math.abs(nights) === 1 ? "" : "s"} ${nights > 0 ? "more" : "fewer"}`;

function ChartRow({
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

function Legend() {
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

/** A tap on a stay (the touch way, and a mouse click): move it or change its departure from a form. */
function StayMenu({
  stay,
  chart,
  fmt,
  onClose,
  onChoose,
  dropChange,
  endChange,
  place,
}: {
  stay: Stay;
  chart: Chart;
  fmt: Formatters;
  onClose: () => void;
  onChoose: (next: Pending | string | null) => void;
  dropChange: (stay: Stay, row: Row | undefined) => Pending | string | null;
  endChange: (stay: Stay, nights: number) => Pending | null;
  place: (stay: Stay) => string;
}) {
  const type = chart.room_types.find((t) => t.id === stay.room_type_id);
  const targets: Row[] =
    stay.status === "checked_in"
      ? (type?.rooms ?? []).filter((r) => r.id !== stay.room_id).map((r) => ({ kind: "room", id: `room:${r.id}`, typeId: type!.id, label: `Room ${r.number}` }))
      : stay.status === "confirmed"
        ? chart.room_types.filter((t) => t.id !== stay.room_type_id).map((t) => ({ kind: "unassigned", id: `unassigned:${t.id}`, typeId: t.id, label: t.name }))
        : [];
  const [target, setTarget] = useState(targets[0]?.id ?? "");
  const [checkOut, setCheckOut] = useState(stay.check_out);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={stay.guest_name} description={`${reservationStatusWords[stay.status]} · ${place(stay)} · ${fmt.day(stay.check_in, "weekday")} to ${fmt.day(stay.check_out, "weekday")}`}>
      <div className="space-y-4">
        {targets.length ? (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              onChoose(dropChange(stay, targets.find((t) => t.id === target)));
            }}
          >
            <Field label={stay.status === "checked_in" ? "Move to room" : "Change room type to"} htmlFor="stay-target">
              <Select id="stay-target" value={target} onChange={(e) => setTarget(e.target.value)}>
                {targets.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.label}
                  </option>
                ))}
              </Select>
            </Field>
            <Button type="submit" variant="secondary">
              Move…
            </Button>
          </form>
        ) : null}
        {stay.can_resize ? (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              onChoose(endChange(stay, daysBetween(stay.check_out, checkOut)));
            }}
          >
            <Field label="Departure" htmlFor="stay-departure">
              <Input id="stay-departure" type="date" value={checkOut} min={addDays(stay.check_in, 1)} onChange={(e) => e.target.value && setCheckOut(e.target.value)} className="w-44" />
            </Field>
            <Button type="submit" variant="secondary" disabled={checkOut === stay.check_out}>
              Change departure…
            </Button>
          </form>
        ) : (
          <p className="text-sm text-stone-600">A stay that has checked out no longer changes here.</p>
        )}
        <div className="flex justify-between gap-2">
          <Link href={`/reservations/${stay.reservation_id}`} className="self-center text-sm font-medium text-teal-800 underline-offset-2 hover:underline">
            Open the reservation
          </Link>
          <DialogClose asChild>
            <Button variant="ghost">Close</Button>
          </DialogClose>
        </div>
      </div>
    </Dialog>
  );
}

/** The change, its price before and after (the server's preview), and Confirm. */
function ConfirmChange({ pending, fmt, onClose }: { pending: Pending; fmt: Formatters; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useQuery({ ...trpc.tapeChart.preview.queryOptions(pending.change), retry: false, staleTime: 0, gcTime: 0 });
  const save = useMutation(
    trpc.tapeChart.save.mutationOptions({
      onSuccess: async () => {
        toast.success(`${pending.what}: saved.`);
        onClose();
        await queryClient.invalidateQueries(trpc.tapeChart.window.queryFilter());
      },
    }),
  );
  const p = preview.data;
  const diff = p?.difference.amount ?? 0;
  return (
    <Dialog open onOpenChange={(open) => !open && !save.isPending && onClose()} title="Confirm the change" description={pending.what}>
      <div className="space-y-3" data-testid="change-preview">
        {preview.isLoading ? (
          <LoadingState rows={2} label="Pricing the change…" />
        ) : preview.error ? (
          <Alert>{fmt.words(callError(preview.error).message)}</Alert>
        ) : p ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-stone-600">Price before</dt>
            <dd className="text-stone-900" data-testid="price-before">
              {fmt.money(p.before.price.gross)} · {p.before.nights} night{p.before.nights === 1 ? "" : "s"}
              <StayPriceBreakdown price={p.before.price} />
            </dd>
            <dt className="text-stone-600">Price after</dt>
            <dd className="text-stone-900" data-testid="price-after">
              {fmt.money(p.after.price.gross)} · {p.after.nights} night{p.after.nights === 1 ? "" : "s"}
              <StayPriceBreakdown price={p.after.price} />
            </dd>
            {p.fee.amount ? (
              <>
                <dt className="text-stone-600">Early departure fee</dt>
                <dd className="text-stone-900">{fmt.money(p.fee)}</dd>
              </>
            ) : null}
            <dt className="font-medium text-stone-800">Price change</dt>
            <dd className="font-semibold text-stone-900" data-testid="price-change">
              {diff === 0 ? "No change in price" : diff > 0 ? `${fmt.money(p.difference)} more` : `${fmt.money({ ...p.difference, amount: -diff })} less`}
            </dd>
          </dl>
        ) : null}
        {save.error ? <Alert>{fmt.words(callError(save.error).message)}</Alert> : null}
        <div className="flex flex-wrap justify-end gap-2 pt-2">
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button disabled={!p || save.isPending} onClick={() => save.mutate(pending.change)}>
            {save.isPending ? "Saving…" : "Confirm"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
