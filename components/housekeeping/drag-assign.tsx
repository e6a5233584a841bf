"use client";

import {
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useDraggable,
  useDroppable,
  useSensor,
  useSensors,
  type DragEndEvent,
} from "@dnd-kit/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Card, cx } from "@/components/ui";
import { holdingArrows, targetStepper } from "@/components/ui/drag";
import { toast } from "@/components/ui/toaster";
import { statusLabel, type Board } from "./status";

type Person = { email: string; name: string | null };
type Room = Board["rooms"][number];

/** Arrows go from one housekeeper to the next (in reading order); the room card follows. */
const toPeople = targetStepper({ forward: ["ArrowDown", "ArrowRight"], back: ["ArrowUp", "ArrowLeft"] });

/**
 * Assign a room by dragging its card onto a housekeeper (mouse, a long press on a touch screen,
 * or the keyboard: space, arrows, space). The same assignment the form below makes.
 */
export function DragAssign({ board, date, rooms, people }: { board: Board; date: string; rooms: Room[]; people: Person[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.housekeeping.assignments.create.mutationOptions());
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 300, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: holdingArrows(toPeople.coordinates), scrollBehavior: "auto" }),
  );
  if (!rooms.length || !people.length) return null;
  const numberOf = (id: string | number) => rooms.find((r) => `room:${r.id}` === String(id))?.number ?? "";
  const personOf = (id: string | number | undefined) => people.find((p) => `person:${p.email}` === String(id));
  const nameOf = (p: Person) => p.name ?? p.email;
  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    const room = rooms.find((r) => `room:${r.id}` === String(active.id));
    const person = personOf(over?.id);
    if (!room || !person) return;
    try {
      await create.mutateAsync({ property_id: board.property.id, date, room_id: room.id, assignee: person.email });
      toast.success(`Room ${room.number} assigned to ${nameOf(person)}.`);
    } catch (error) {
      toast.error(`Room ${room.number}: ${callError(error).message}`);
    }
    await Promise.all([
      queryClient.invalidateQueries(trpc.housekeeping.assignments.list.queryFilter()),
      queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
    ]);
  };
  return (
    <Card title="Drag rooms to a housekeeper">
      <DndContext
        sensors={sensors}
        collisionDetection={toPeople.collision}
        onDragStart={toPeople.reset}
        onDragEnd={onDragEnd}
        accessibility={{
          screenReaderInstructions: {
            draggable: "Press space to pick the room up, the arrow keys to choose a housekeeper, and space or enter to assign it. Escape cancels.",
          },
          announcements: {
            onDragStart: ({ active }) => `Picked up room ${numberOf(active.id)}.`,
            onDragOver: ({ active, over }) => (over ? `Room ${numberOf(active.id)} over ${nameOf(personOf(over.id)!)}.` : undefined),
            onDragEnd: ({ active, over }) => (over ? `Room ${numberOf(active.id)} assigned to ${nameOf(personOf(over.id)!)}.` : `Room ${numberOf(active.id)} dropped; not assigned.`),
            onDragCancel: ({ active }) => `Cancelled: room ${numberOf(active.id)} is not assigned.`,
          },
        }}
      >
        <div className="grid gap-4 md:grid-cols-[1fr_16rem]">
          <ul className="flex flex-wrap content-start gap-2" aria-label="Rooms without an assignment">
            {rooms.map((r) => (
              <RoomCard key={r.id} room={r} />
            ))}
          </ul>
          <ul className="space-y-2" aria-label="Housekeepers">
            {people.map((p) => (
              <PersonTarget key={p.email} person={p} />
            ))}
          </ul>
        </div>
      </DndContext>
    </Card>
  );
}

function RoomCard({ room }: { room: Room }) {
  const { setNodeRef, attributes, listeners, transform, isDragging } = useDraggable({ id: `room:${room.id}` });
  return (
    <li>
      <button
        ref={setNodeRef}
        type="button"
        {...attributes}
        {...listeners}
        aria-roledescription="room to assign"
        data-room-card={room.number}
        style={transform ? { transform: `translate3d(${transform.x}px, ${transform.y}px, 0)` } : undefined}
        className={cx(
          "relative flex min-h-11 touch-manipulation items-center gap-2 rounded-md border border-stone-300 bg-white px-3 py-2 text-sm text-stone-900 shadow-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600",
          isDragging && "z-30 shadow-lg ring-2 ring-teal-600",
        )}
      >
        <span className="font-semibold">Room {room.number}</span>
        <span className="text-xs text-stone-600">{statusLabel[room.housekeeping_status]}</span>
      </button>
    </li>
  );
}

function PersonTarget({ person }: { person: Person }) {
  const { setNodeRef, isOver } = useDroppable({ id: `person:${person.email}` });
  return (
    <li
      ref={setNodeRef}
      data-housekeeper={person.email}
      className={cx("rounded-md border-2 border-dashed px-3 py-3 text-sm", isOver ? "border-teal-600 bg-teal-50 text-teal-950" : "border-stone-300 bg-stone-50 text-stone-800")}
    >
      <span className="font-medium">{person.name ?? person.email}</span>
      {person.name ? <span className="block text-xs text-stone-600">{person.email}</span> : null}
    </li>
  );
}
