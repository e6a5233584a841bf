"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, Select } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { housekeepingLabels } from "./format";
import { GuestPanel } from "./guest-panel";

// The stay's room: checked into one, or moved to another, of the free clean or inspected rooms of its type.

type Desk = inferRouterOutputs<AppRouter>["reservations"]["get"];
type Done = () => Promise<void> | void;

type ReadyRooms = { error: unknown; data?: Array<{ id: string; number: string; floor: number | null; housekeeping_status: keyof typeof housekeepingLabels }> };

/** The free clean or inspected rooms of the stay's type, asked for while `open`; the first is chosen until the clerk picks. */
function useReadyRooms(desk: Desk, open: boolean) {
  const trpc = useTRPC();
  const [roomId, setRoomId] = useState("");
  const ready = useQuery({ ...trpc.reservations.readyRooms.queryOptions({ id: desk.reservation.id }), enabled: open, staleTime: 0 });
  return { ready, chosen: roomId || ready.data?.[0]?.id || "", choose: setRoomId, reset: () => setRoomId("") };
}

/** The choice of one of those rooms, or why there is none (check-in and room moves alike). */
function ReadyRoomPicker({ ready, chosen, choose, id, label, none }: { ready: ReadyRooms; chosen: string; choose: (id: string) => void; id: string; label: string; none: string }) {
  if (ready.error) return <Alert>{callError(ready.error).message}</Alert>;
  if (!ready.data) return <p className="text-sm text-stone-500">Loading rooms…</p>;
  if (ready.data.length === 0) return <Alert>{none}</Alert>;
  return (
    <Field label={label} htmlFor={id}>
      <Select id={id} value={chosen} onChange={(e) => choose(e.target.value)}>
        {ready.data.map((room) => (
          <option key={room.id} value={room.id}>
            Room {room.number}
            {room.floor !== null ? `, floor ${room.floor}` : ""} · {housekeepingLabels[room.housekeeping_status]}
          </option>
        ))}
      </Select>
    </Field>
  );
}

/** Move the guest in house to another free, clean or inspected room of the type; the room left turns dirty. */
export function MoveRoomDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const rooms = useReadyRooms(desk, open);
  const move = useMutation(
    trpc.reservations.moveRoom.mutationOptions({
      onSuccess: async () => {
        toast.success(`Moved; room ${desk.room?.number ?? ""} is now dirty`);
        setOpen(false);
        await onDone();
      },
    }),
  );
  const chosen = rooms.chosen;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), rooms.reset(), setReason(""), move.reset())}
      title="Move to another room"
      description={`${desk.room_type.name}: free rooms that are clean or inspected. Room ${desk.room?.number ?? ""} will be marked dirty.`}
      size="sm"
      trigger={<Button variant="secondary">Move room</Button>}
    >
      <div className="space-y-3">
        <ReadyRoomPicker ready={rooms.ready} chosen={chosen} choose={rooms.choose} id="move-room" label="New room" none="No other room of this type is clean and free." />
        <Field label="Reason (optional)" htmlFor="move-reason">
          <Input id="move-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {move.error ? <Alert>{callError(move.error).message}</Alert> : null}
        <DialogActions
          className="flex justify-end gap-2"
          label="Move guest"
          pendingLabel="Moving…"
          pending={move.isPending}
          disabled={!chosen || move.isPending}
          onClick={() => move.mutate({ id: desk.reservation.id, room_id: chosen, ...(reason.trim() ? { reason: reason.trim() } : {}) })}
        />
      </div>
    </Dialog>
  );
}

/** Check in: the clerk picks one of the free clean or inspected rooms of the type. */
export function CheckInDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const rooms = useReadyRooms(desk, open);
  const checkIn = useMutation(
    trpc.reservations.checkIn.mutationOptions({
      onSuccess: async () => {
        toast.success("Checked in");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const chosen = rooms.chosen;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), rooms.reset(), checkIn.reset())}
      title="Check in"
      description={`${desk.room_type.name}: free rooms that are clean or inspected.`}
      size="sm"
      trigger={<Button>Check in</Button>}
    >
      <div className="space-y-3">
        <section aria-label="About the guest" className="rounded-md border border-stone-200 bg-stone-50 p-3">
          <GuestPanel guestId={desk.reservation.guest.id} compact />
        </section>
        <ReadyRoomPicker
          ready={rooms.ready}
          chosen={chosen}
          choose={rooms.choose}
          id="checkin-room"
          label="Room"
          none="No room of this type is clean and free. Ask housekeeping to clean one, or modify the room type."
        />
        {checkIn.error ? <Alert>{callError(checkIn.error).message}</Alert> : null}
        <p className="text-sm">
          <a href={`/reservations/${desk.reservation.id}/registration-card`} target="_blank" rel="noopener" className="text-teal-800 hover:underline">
            Print the registration card
          </a>{" "}
          <span className="text-stone-500">for the guest to sign.</span>
        </p>
        <DialogActions
          className="flex justify-end gap-2"
          label="Check in"
          pendingLabel="Checking in…"
          pending={checkIn.isPending}
          disabled={!chosen || checkIn.isPending}
          onClick={() => checkIn.mutate({ id: desk.reservation.id, room_id: chosen })}
        />
      </div>
    </Dialog>
  );
}

