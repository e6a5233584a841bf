"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Button, Input, Textarea } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
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

const outOfOrderForm = z.object({
  reason: z.string().trim().min(1, "Say why the room is out of order.").max(500, "At most 500 characters."),
  until: z.string(),
});
type OutOfOrderForm = z.input<typeof outOfOrderForm>;

/** Asks why the room is out of order and until when (optional: until further notice). */
function OutOfOrderDialog({ room, today, open, onOpenChange }: { room: Room; today: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const change = useChangeStatus();
  const form = useZodForm(outOfOrderForm, { defaultValues: { reason: "", until: "" } });
  const reason = form.watch("reason");
  const close = (next: boolean) => {
    if (!next) {
      change.reset();
      form.reset();
    }
    onOpenChange(next);
  };
  const submit = (v: z.output<typeof outOfOrderForm>) =>
    change.mutate({ room_id: room.id, status: "out-of-order", reason: v.reason, until: v.until || undefined }, { onSuccess: () => close(false), onError: (e) => showServerError<OutOfOrderForm>(form, e) });
  return (
    <Dialog open={open} onOpenChange={close} title={`Room ${room.number} out of order`} description="The room comes off sale from tonight until the end date." size="sm">
      <Form form={form} onSubmit={submit} className="space-y-4">
        <FormField<OutOfOrderForm> name="reason" label="Reason">
          {(control) => <Textarea {...control} required rows={2} maxLength={500} placeholder="Broken window, leak, renovation…" />}
        </FormField>
        <FormField<OutOfOrderForm> name="until" label="Back in service on" hint="Leave empty for until further notice.">
          {(control) => <Input {...control} type="date" min={addDays(today, 1)} />}
        </FormField>
        <FormError />
        <DialogActions label="Put out of order" pendingLabel="Saving…" pending={change.isPending} disabled={change.isPending || !reason.trim()} danger />
      </Form>
    </Dialog>
  );
}
