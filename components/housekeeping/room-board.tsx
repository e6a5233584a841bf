"use client";

import { BedDouble, LogIn, LogOut } from "lucide-react";
import { useState } from "react";
import { AuditTrail } from "@/components/audit/audit-trail";
import { Badge, cx } from "@/components/ui";
import { Dialog } from "@/components/ui/dialog";
import { DayText } from "@/components/ui/property-format";
import { EmptyState } from "@/components/ui/states";
import { RoomActions } from "./room-actions";
import { roomStatuses, statusLabel, statusTone, type Board, type BoardRoom } from "./status";

const columnAccent: Record<BoardRoom["housekeeping_status"], string> = {
  dirty: "border-t-amber-400",
  clean: "border-t-sky-400",
  inspected: "border-t-teal-500",
  "out-of-order": "border-t-red-500",
};

/** What today means for the room, as badges: occupied or vacant, arriving, leaving. */
export function RoomMarks({ room }: { room: BoardRoom }) {
  return (
    <div className="flex flex-wrap gap-1">
      {room.occupied ? <Badge tone="violet">Occupied</Badge> : <Badge>Vacant</Badge>}
      {room.arrival ? (
        <Badge tone="blue">
          <LogIn className="mr-1 h-3 w-3" aria-hidden />
          Arrived today
        </Badge>
      ) : null}
      {room.departure === "due" ? (
        <Badge tone="amber">
          <LogOut className="mr-1 h-3 w-3" aria-hidden />
          Due out today
        </Badge>
      ) : room.departure === "departed" ? (
        <Badge tone="amber">
          <LogOut className="mr-1 h-3 w-3" aria-hidden />
          Departed today
        </Badge>
      ) : null}
    </div>
  );
}

/**
 * An assignment is the housekeeper's work; the room's status is its own (a done assignment does
 * not clean the room). When the work is done and the room is still dirty, say so plainly.
 */
export function DoneButDirty({ assignment, room }: { assignment: { status: string }; room: Pick<BoardRoom, "housekeeping_status"> }) {
  if (assignment.status !== "done" || room.housekeeping_status !== "dirty") return null;
  return (
    <p className="text-sm font-medium text-amber-800" data-testid="done-but-dirty">
      Done, but the room is still dirty: mark it clean once it is ready for a guest.
    </p>
  );
}

/** Rooms grouped by housekeeping status, one column each; every card carries its allowed moves. */
export function RoomBoard({ board, canWrite }: { board: Board; canWrite: boolean }) {
  const [openRoom, setOpenRoom] = useState<string | null>(null);
  // On a phone the four columns stack; showing one status saves a housekeeper long scrolling.
  const [only, setOnly] = useState<BoardRoom["housekeeping_status"] | null>(null);
  const detail = board.rooms.find((r) => r.id === openRoom) ?? null;
  if (!board.rooms.length)
    return <EmptyState title="No rooms yet">Rooms added to this property (in the API or by a manager) appear here.</EmptyState>;
  return (
    <>
      <ArrivalsSummary board={board} />
      <div role="group" aria-label="Show rooms" className="mb-3 flex flex-wrap gap-1.5">
        {[null, ...roomStatuses].map((status) => (
          <button
            key={status ?? "all"}
            type="button"
            aria-pressed={only === status}
            onClick={() => setOnly(status)}
            className={cx(
              "rounded-full border px-3 py-1 text-xs font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600",
              only === status ? "border-teal-700 bg-teal-700 text-white" : "border-stone-300 bg-white text-stone-700 hover:bg-stone-50",
            )}
          >
            {status
              ? `${statusLabel[status]} (${board.rooms.filter((r) => r.housekeeping_status === status).length})`
              : `All (${board.rooms.length})`}
          </button>
        ))}
      </div>
      <div className={cx("grid gap-4", !only && "md:grid-cols-2 xl:grid-cols-4")}>
        {roomStatuses
          .filter((status) => !only || status === only)
          .map((status) => {
            const rooms = board.rooms.filter((r) => r.housekeeping_status === status);
            return (
              <section
                key={status}
                aria-labelledby={`col-${status}`}
                data-testid={`column-${status}`}
                className={cx("min-w-0 rounded-lg border border-t-4 border-stone-200 bg-stone-50", columnAccent[status])}
              >
                <h2 id={`col-${status}`} className="flex items-center justify-between px-3 py-2 text-sm font-semibold text-stone-800">
                  {statusLabel[status]}
                  <span className="rounded-full bg-white px-2 text-xs font-medium text-stone-600 ring-1 ring-stone-200">{rooms.length}</span>
                </h2>
                {rooms.length ? (
                  <ul className="space-y-2 px-2 pb-2">
                    {rooms.map((room) => (
                      <li key={room.id} data-testid={`room-${room.number}`} className="rounded-md border border-stone-200 bg-white p-2.5 shadow-sm">
                        <div className="flex items-start justify-between gap-2">
                          <div className="min-w-0">
                            {/* Named by what it shows, the number, with the words a screen reader needs around it. */}
                            <button
                              type="button"
                              onClick={() => setOpenRoom(room.id)}
                              className="block text-left text-base font-semibold text-teal-800 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600"
                            >
                              <span className="sr-only">Room </span>
                              {room.number}
                              <span className="sr-only"> details</span>
                            </button>
                            <span className="block break-words text-xs text-stone-500">
                              {room.room_type_name}
                              {room.floor !== null ? ` · floor ${room.floor}` : ""}
                            </span>
                          </div>
                          <RoomMarks room={room} />
                        </div>
                        {room.stay ? (
                          <p className="mt-1.5 flex items-start gap-1 break-words text-xs text-stone-600" data-testid="room-stay">
                            {room.stay.status === "checked_out" ? (
                              <>
                                <LogOut className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
                                <span className="min-w-0">{room.stay.guest_name} · left today</span>
                              </>
                            ) : (
                              <>
                                <BedDouble className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden />
                                <span className="min-w-0">
                                  {room.stay.guest_name} · until <DayText date={room.stay.check_out} style="weekday" />
                                </span>
                              </>
                            )}
                          </p>
                        ) : null}
                        {room.housekeeping_status === "out-of-order" ? (
                          <p className="mt-1.5 text-xs text-red-800">
                            {room.out_of_order_reason ?? "No reason given"} ·{" "}
                            {room.out_of_order_until ? (
                              <>
                                back <DayText date={room.out_of_order_until} style="weekday" />
                              </>
                            ) : (
                              "until further notice"
                            )}
                          </p>
                        ) : null}
                        {canWrite ? (
                          <div className="mt-2">
                            <RoomActions room={room} today={board.today} />
                          </div>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="px-3 pb-3 text-xs text-stone-500">No {statusLabel[status].toLowerCase()} rooms.</p>
                )}
              </section>
            );
          })}
      </div>
      <RoomDetailDialog room={detail} today={board.today} canWrite={canWrite} onClose={() => setOpenRoom(null)} />
    </>
  );
}

/** Per room type: guests still to arrive today against vacant rooms ready for them. */
function ArrivalsSummary({ board }: { board: Board }) {
  const types = board.room_types.filter((t) => t.arrivals_pending > 0);
  if (!types.length) return null;
  return (
    <ul aria-label="Arrivals still to come today" className="mb-4 flex flex-wrap gap-2">
      {types.map((t) => {
        const short = t.ready < t.arrivals_pending;
        return (
          <li
            key={t.id}
            className={cx(
              "rounded-md border px-3 py-1.5 text-sm",
              short ? "border-amber-300 bg-amber-50 text-amber-900" : "border-stone-200 bg-white text-stone-700",
            )}
          >
            <span className="font-medium">{t.name}</span>: {t.arrivals_pending} arriving, {t.ready} ready{short ? " — clean more" : ""}
          </li>
        );
      })}
    </ul>
  );
}

/** One room: its state, today's stay, the moves it allows, and who changed it when. */
function RoomDetailDialog({ room, today, canWrite, onClose }: { room: BoardRoom | null; today: string; canWrite: boolean; onClose: () => void }) {
  return (
    <Dialog
      open={room !== null}
      onOpenChange={(open) => (open ? null : onClose())}
      title={room ? `Room ${room.number}` : "Room"}
      description={room?.room_type_name}
      size="md"
    >
      {room ? (
        <div className="space-y-4">
          <dl className="grid grid-cols-[8rem_1fr] gap-y-2 text-sm">
            <dt className="text-stone-500">Status</dt>
            <dd>
              <Badge tone={statusTone[room.housekeeping_status]}>{statusLabel[room.housekeeping_status]}</Badge>
            </dd>
            <dt className="text-stone-500">Today</dt>
            <dd>
              <RoomMarks room={room} />
            </dd>
            <dt className="text-stone-500">Floor</dt>
            <dd>{room.floor ?? "—"}</dd>
            {room.stay ? (
              <>
                <dt className="text-stone-500">Guest</dt>
                <dd>
                  {room.stay.guest_name}, <DayText date={room.stay.check_in} style="weekday" /> –{" "}
                  <DayText date={room.stay.check_out} style="weekday" />
                </dd>
              </>
            ) : null}
            {room.housekeeping_status === "out-of-order" ? (
              <>
                <dt className="text-stone-500">Out of order</dt>
                <dd>
                  {room.out_of_order_reason ?? "—"} ·{" "}
                  {room.out_of_order_until ? (
                    <>
                      back in service <DayText date={room.out_of_order_until} style="weekday" />
                    </>
                  ) : (
                    "until further notice"
                  )}
                </dd>
              </>
            ) : null}
          </dl>
          {canWrite ? <RoomActions room={room} today={today} size="md" /> : null}
          <AuditTrail objectType="room" objectId={room.id} />
        </div>
      ) : null}
    </Dialog>
  );
}
