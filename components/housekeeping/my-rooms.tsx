"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useLiveInvalidate } from "@/components/live/use-live-events";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Badge, Button, PageHeader, cx } from "@/components/ui";
import { EmptyState, ErrorState, LoadingState } from "@/components/ui/states";
import { toast } from "@/components/ui/toaster";
import { RoomActions, useChangeStatus } from "./room-actions";
import { DoneButDirty } from "./room-board";
import { usePropertyFormat } from "@/components/ui/property-format";
import { walkingOrder, assignmentLabel, assignmentNext, assignmentTone, moveLabel, statusLabel, statusTone, type Assignment, type BoardRoom } from "./status";

/** One assigned room as a large card: where it stands today and one big button per next status. */
function RoomCard({ room, assignment, today }: { room: BoardRoom; assignment: Assignment; today: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const change = useChangeStatus();
  const work = useMutation(
    trpc.housekeeping.assignments.update.mutationOptions({
      onSuccess: async () => queryClient.invalidateQueries(trpc.housekeeping.assignments.list.queryFilter()),
      onError: (e) => toast.error(`Room ${room.number}: ${callError(e).message}`),
    }),
  );
  // Out of order needs a reason, which is the board's dialog; here each tap is one status. A room
  // out of order says why and until when, with what fits it: return to service, or extend.
  const blocked = room.housekeeping_status === "out-of-order";
  const moves = blocked ? [] : room.next_statuses.filter((s) => s !== "out-of-order");
  return (
    <li className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm" data-testid={`my-room-${room.number}`}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-2xl font-semibold text-stone-900">Room {room.number}</p>
          <p className="text-sm text-stone-500">
            {room.room_type_name}
            {room.floor !== null ? ` · floor ${room.floor}` : ""}
          </p>
        </div>
        <div className="flex flex-col items-end gap-1">
          <Badge tone={statusTone[room.housekeeping_status]}>{statusLabel[room.housekeeping_status]}</Badge>
          <Badge tone={assignmentTone[assignment.status]}>{assignmentLabel[assignment.status]}</Badge>
        </div>
      </div>
      {room.departure === "due" ? <p className="mt-2 text-sm font-medium text-amber-800">Guest leaves today</p> : null}
      {room.departure === "departed" ? <p className="mt-2 text-sm font-medium text-amber-800">Guest left today</p> : null}
      {room.occupied && !room.departure ? <p className="mt-2 text-sm text-stone-600">Guest in the room: knock first</p> : null}
      {blocked ? (
        <p className="mt-2 text-sm font-medium text-red-800" data-testid="out-of-order">
          Out of order: {room.out_of_order_reason ?? "no reason given"} ·{" "}
          {room.out_of_order_until ? <>back in service {fmt.day(room.out_of_order_until, "weekday")}</> : "until further notice"}
        </p>
      ) : null}
      {assignment.notes ? <p className="mt-2 whitespace-pre-wrap break-words text-sm text-stone-700">{assignment.notes}</p> : null}
      <div className="mt-2">
        <DoneButDirty assignment={assignment} room={room} />
      </div>
      <div className="mt-3 grid grid-cols-1 gap-2 sm:grid-cols-2">
        {blocked ? <RoomActions room={room} today={today} size="lg" className="contents" /> : null}
        {moves.map((status) => (
          <Button
            key={status}
            variant={status === "dirty" ? "secondary" : "primary"}
            className="min-h-12 text-base"
            disabled={change.isPending}
            aria-label={`Room ${room.number}: ${moveLabel[status].toLowerCase()}`}
            onClick={() => change.mutate({ room_id: room.id, status }, { onError: (e) => toast.error(`Room ${room.number}: ${callError(e).message}`) })}
          >
            {moveLabel[status]}
          </Button>
        ))}
        {assignmentNext[assignment.status].map((next) => (
          <Button
            key={next.status}
            variant="secondary"
            className={cx("min-h-12 text-base")}
            disabled={work.isPending}
            // The name holds the words on the button (WCAG 2.5.3), with the room they are about.
            aria-label={`Room ${room.number}: ${next.status === "done" ? "done with this room" : "start this room"}`}
            onClick={() => work.mutate({ id: assignment.id, status: next.status })}
          >
            {next.status === "done" ? "Done with this room" : "Start this room"}
          </Button>
        ))}
      </div>
    </li>
  );
}

/**
 * A housekeeper's home: the rooms assigned to them today, in floor and number order, each with
 * big buttons (one tap per status) that work on a phone held in one hand.
 */
export function MyRooms({ title, propertyId }: { title: string; propertyId: string }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const board = useQuery(trpc.housekeeping.board.queryOptions({ property_id: propertyId }));
  const today = board.data?.today;
  const mine = useQuery({ ...trpc.housekeeping.assignments.list.queryOptions({ property_id: propertyId, date: today ?? "", limit: 100 }), enabled: Boolean(today) });
  useLiveInvalidate(["housekeeping.status_changed", "reservation.*", "night_audit.completed"], trpc.housekeeping.board.queryFilter(), trpc.properties.businessDate.queryFilter());
  const error = board.error ?? mine.error;
  if (error || !board.data || !mine.data) {
    return (
      <>
        <PageHeader title={title} description="Your rooms today" />
        {error ? <ErrorState message={callError(error).message} onRetry={() => (board.refetch(), mine.refetch())} /> : <LoadingState rows={4} label="Loading your rooms…" />}
      </>
    );
  }
  const byRoom = new Map(mine.data.data.map((a) => [a.room_id, a]));
  // The walking order: the board's, by floor and number (the board's assignments list the same).
  const rooms = walkingOrder(board.data.rooms, mine.data.data).map((a) => board.data.rooms.find((r) => r.id === a.room_id)!);
  const left = mine.data.data.filter((a) => a.status !== "done").length;
  return (
    <>
      <PageHeader
        title={title}
        description={`Your rooms at ${board.data.property.name} · ${fmt.day(board.data.today, { weekday: "long", day: "numeric", month: "long" })}${rooms.length ? ` · ${left} of ${rooms.length} to do` : ""}`}
      />
      {rooms.length === 0 ? (
        <EmptyState title="No rooms assigned to you today" action={<Link href="/housekeeping" className="text-sm text-teal-800 hover:underline">See the whole board</Link>}>
          Your manager assigns rooms on the housekeeping board.
        </EmptyState>
      ) : (
        <ul className="space-y-3" aria-label="My rooms today">
          {rooms.map((room) => (
            <RoomCard key={room.id} room={room} assignment={byRoom.get(room.id)!} today={board.data.today} />
          ))}
        </ul>
      )}
    </>
  );
}
