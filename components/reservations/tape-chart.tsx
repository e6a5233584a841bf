"use client";

import { useBusinessDate } from "@/components/shell/business-date";
import {
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type DragMoveEvent,
  type KeyboardCoordinateGetter,
} from "@dnd-kit/core";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { PageHeader, cx } from "@/components/ui";
import { holdingArrows, targetStepper } from "@/components/ui/drag";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { WindowPicker } from "@/components/ui/window-picker";
import { addDays, weekdayOf } from "@/lib/dates";
import { NIGHT, roomColumn, type Chart, type Pending, type Row, type Stay } from "./tape-chart-model";
import { ChartRow, Legend } from "./tape-chart-rows";
import { ConfirmChange, StayMenu } from "./tape-chart-dialogs";

const windowNights = 14;

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

