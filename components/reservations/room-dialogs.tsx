"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { z } from "zod";
import { Alert, Button, Input, Select } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { housekeepingLabels } from "./format";
import { GuestPanel } from "./guest-panel";

// The stay's room: checked into one, or moved to another, of the free clean or inspected rooms of its type.

type Desk = inferRouterOutputs<AppRouter>["reservations"]["get"];
type Done = () => Promise<void> | void;

type ReadyRooms = { error: unknown; data?: Array<{ id: string; number: string; floor: number | null; housekeeping_status: keyof typeof housekeepingLabels }> };

// No room chosen at first: the picker's first room is taken when it appears, until the clerk picks another.
const moveForm = z.object({ room_id: z.string().min(1, "Choose a room."), reason: z.string().trim() });
type MoveForm = z.input<typeof moveForm>;
const checkInForm = z.object({ room_id: z.string().min(1, "Choose a room.") });
type CheckInForm = z.input<typeof checkInForm>;

/** The free clean or inspected rooms of the stay's type, asked for while `open`. */
function useReadyRooms(desk: Desk, open: boolean) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.reservations.readyRooms.queryOptions({ id: desk.reservation.id }), enabled: open, staleTime: 0 });
}

/** The choice of one of those rooms, or why there is none (check-in and room moves alike). */
function ReadyRoomPicker({ ready, label, none }: { ready: ReadyRooms; label: string; none: string }) {
  if (ready.error) return <Alert>{callError(ready.error).message}</Alert>;
  if (!ready.data) return <p className="text-sm text-stone-500">Loading rooms…</p>;
  if (ready.data.length === 0) return <Alert>{none}</Alert>;
  return (
    <FormField<MoveForm> name="room_id" label={label}>
      {(control) => (
        <Select {...control}>
          {ready.data!.map((room) => (
            <option key={room.id} value={room.id}>
              Room {room.number}
              {room.floor !== null ? `, floor ${room.floor}` : ""} · {housekeepingLabels[room.housekeeping_status]}
            </option>
          ))}
        </Select>
      )}
    </FormField>
  );
}

/** Move the guest in house to another free, clean or inspected room of the type; the room left turns dirty. */
export function MoveRoomDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const rooms = useReadyRooms(desk, open);
  const form = useZodForm(moveForm, { defaultValues: { reason: "" } });
  const move = useMutation(
    trpc.reservations.moveRoom.mutationOptions({
      onSuccess: async () => {
        toast.success(`Moved; room ${desk.room?.number ?? ""} is now dirty`);
        setOpen(false);
        await onDone();
      },
      onError: (e) => showServerError<MoveForm>(form, e),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), form.reset(), move.reset())}
      title="Move to another room"
      description={`${desk.room_type.name}: free rooms that are clean or inspected. Room ${desk.room?.number ?? ""} will be marked dirty.`}
      size="sm"
      trigger={<Button variant="secondary">Move room</Button>}
    >
      <Form form={form} className="space-y-3" onSubmit={(v) => move.mutate({ id: desk.reservation.id, room_id: v.room_id, ...(v.reason ? { reason: v.reason } : {}) })}>
        <ReadyRoomPicker ready={rooms} label="New room" none="No other room of this type is clean and free." />
        <FormField<MoveForm> name="reason" label="Reason (optional)">
          {(control) => <Input {...control} />}
        </FormField>
        <FormError />
        <DialogActions className="flex justify-end gap-2" label="Move guest" pendingLabel="Moving…" pending={move.isPending} disabled={!rooms.data?.length || move.isPending} />
      </Form>
    </Dialog>
  );
}

/** Check in: the clerk picks one of the free clean or inspected rooms of the type. */
export function CheckInDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const rooms = useReadyRooms(desk, open);
  const form = useZodForm(checkInForm, { defaultValues: {} });
  const checkIn = useMutation(
    trpc.reservations.checkIn.mutationOptions({
      onSuccess: async () => {
        toast.success("Checked in");
        setOpen(false);
        await onDone();
      },
      onError: (e) => showServerError<CheckInForm>(form, e),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), form.reset(), checkIn.reset())}
      title="Check in"
      description={`${desk.room_type.name}: free rooms that are clean or inspected.`}
      size="sm"
      trigger={<Button>Check in</Button>}
    >
      <Form form={form} className="space-y-3" onSubmit={(v) => checkIn.mutate({ id: desk.reservation.id, room_id: v.room_id })}>
        <section aria-label="About the guest" className="rounded-md border border-stone-200 bg-stone-50 p-3">
          <GuestPanel guestId={desk.reservation.guest.id} compact />
        </section>
        <ReadyRoomPicker ready={rooms} label="Room" none="No room of this type is clean and free. Ask housekeeping to clean one, or modify the room type." />
        <FormError />
        <p className="text-sm">
          <a href={`/reservations/${desk.reservation.id}/registration-card`} target="_blank" rel="noopener" className="text-teal-800 hover:underline">
            Print the registration card
          </a>{" "}
          <span className="text-stone-500">for the guest to sign.</span>
        </p>
        <DialogActions className="flex justify-end gap-2" label="Check in" pendingLabel="Checking in…" pending={checkIn.isPending} disabled={!rooms.data?.length || checkIn.isPending} />
      </Form>
    </Dialog>
  );
}
