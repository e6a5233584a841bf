"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, Textarea } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { addDays } from "@/lib/dates";
import { moveLabel, statusLabel, type RoomStatus } from "./status";

type Room = { id: string; number: string; next_statuses: RoomStatus[] };

/** The room-status mutation, refreshing the board, the assignments and the room's history. */
export function useChangeStatus() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.housekeeping.changeStatus.mutationOptions({
      onSuccess: async (room) => {
        toast.success(`Room ${room.number} is ${statusLabel[room.housekeeping_status].toLowerCase()}.`);
        await Promise.all([
          queryClient.invalidateQueries(trpc.housekeeping.board.queryFilter()),
          queryClient.invalidateQueries(trpc.housekeeping.room.queryFilter()),
          queryClient.invalidateQueries(trpc.audit.list.queryFilter()),
        ]);
      },
    }),
  );
}

/**
 * One button per transition the room allows (server/housekeeping/transitions.ts, sent with the
 * board), so a refused move is never offered. Out of order opens a dialog for reason and end date.
 */
export function RoomActions({ room, today, size = "sm" }: { room: Room; today: string; size?: "sm" | "md" }) {
  const change = useChangeStatus();
  const [outOfOrder, setOutOfOrder] = useState(false);
  const small = size === "sm" ? "px-2 py-1 text-xs" : undefined;
  return (
    <div className="flex flex-wrap gap-1.5">
      {room.next_statuses.map((status) =>
        status === "out-of-order" ? (
          <Button
            key={status}
            variant="secondary"
            className={small}
            onClick={() => setOutOfOrder(true)}
            aria-label={`Room ${room.number}: put out of order`}
          >
            {moveLabel[status]}
          </Button>
        ) : (
          <Button
            key={status}
            variant={status === "dirty" ? "secondary" : "primary"}
            className={small}
            disabled={change.isPending}
            aria-label={`Room ${room.number}: ${moveLabel[status].toLowerCase()}`}
            onClick={() =>
              change.mutate({ room_id: room.id, status }, { onError: (e) => toast.error(`Room ${room.number}: ${callError(e).message}`) })
            }
          >
            {moveLabel[status]}
          </Button>
        ),
      )}
      <OutOfOrderDialog room={room} today={today} open={outOfOrder} onOpenChange={setOutOfOrder} />
    </div>
  );
}

/** Asks why the room is out of order and until when (optional: until further notice). */
function OutOfOrderDialog({ room, today, open, onOpenChange }: { room: Room; today: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const change = useChangeStatus();
  const [reason, setReason] = useState("");
  const [until, setUntil] = useState("");
  const failure = change.error ? callError(change.error) : null;
  const close = (next: boolean) => {
    if (!next) {
      change.reset();
      setReason("");
      setUntil("");
    }
    onOpenChange(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate({ room_id: room.id, status: "out-of-order", reason: reason.trim(), until: until || undefined }, { onSuccess: () => close(false) });
  };
  const id = `ooo-${room.id}`;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={`Room ${room.number} out of order`}
      description="The room comes off sale from tonight until the end date."
      size="sm"
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field label="Reason" htmlFor={`${id}-reason`} error={failure?.param === "reason" ? failure.message : null}>
          <Textarea
            id={`${id}-reason`}
            required
            rows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            placeholder="Broken window, leak, renovation…"
          />
        </Field>
        <Field
          label="Back in service on"
          htmlFor={`${id}-until`}
          hint="Leave empty for until further notice."
          error={failure?.param === "until" ? failure.message : null}
        >
          <Input id={`${id}-until`} type="date" min={addDays(today, 1)} value={until} onChange={(e) => setUntil(e.target.value)} />
        </Field>
        {failure && failure.param !== "reason" && failure.param !== "until" ? <Alert>{failure.message}</Alert> : null}
        <DialogActions
          label="Put out of order"
          pendingLabel="Saving…"
          pending={change.isPending}
          disabled={change.isPending || !reason.trim()}
          danger
        />
      </form>
    </Dialog>
  );
}
