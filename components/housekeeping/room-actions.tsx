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

type Room = {
  id: string;
  number: string;
  next_statuses: RoomStatus[];
  housekeeping_status?: RoomStatus;
  out_of_order_reason?: string | null;
  out_of_order_until?: string | null;
};

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
          // A room marked clean completes its assignment of the day (server/housekeeping/room-status.ts).
          queryClient.invalidateQueries(trpc.housekeeping.assignments.list.queryFilter()),
        ]);
      },
    }),
  );
}

/** An out-of-order room's block changed (extended, shortened), refreshing what shows it. */
function useChangeOutOfOrder() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.housekeeping.changeOutOfOrder.mutationOptions({
      onSuccess: async (room) => {
        toast.success(`Room ${room.number} stays out of order ${room.out_of_order_until ? "until its new date" : "until further notice"}.`);
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
export function RoomActions({ room, today, size = "sm", className }: { room: Room; today: string; size?: "sm" | "md" | "lg"; className?: string }) {
  const change = useChangeStatus();
  const [dialog, setDialog] = useState<null | "out" | "extend">(null);
  const small = size === "sm" ? "px-2 py-1 text-xs" : size === "lg" ? "min-h-12 text-base" : undefined;
  const blocked = room.housekeeping_status === "out-of-order";
  return (
    <div className={className ?? "flex flex-wrap gap-1.5"}>
      {room.next_statuses.map((status) =>
        status === "out-of-order" ? (
          <Button
            key={status}
            variant="secondary"
            className={small}
            onClick={() => setDialog("out")}
            aria-label={`Room ${room.number}: put out of order`}
          >
            {moveLabel[status]}
          </Button>
        ) : (
          <Button
            key={status}
            variant={status === "dirty" && !blocked ? "secondary" : "primary"}
            className={small}
            disabled={change.isPending}
            // Out of order → dirty is the room's return: it comes back to be cleaned before a guest.
            aria-label={`Room ${room.number}: ${blocked ? "return to service" : moveLabel[status].toLowerCase()}`}
            onClick={() =>
              change.mutate({ room_id: room.id, status }, { onError: (e) => toast.error(`Room ${room.number}: ${callError(e).message}`) })
            }
          >
            {blocked ? "Return to service" : moveLabel[status]}
          </Button>
        ),
      )}
      {blocked ? (
        <Button variant="secondary" className={small} onClick={() => setDialog("extend")} aria-label={`Room ${room.number}: extend out of order`}>
          Extend…
        </Button>
      ) : null}
      <OutOfOrderDialog room={room} today={today} open={dialog === "out"} onOpenChange={(o) => setDialog(o ? "out" : null)} />
      {blocked ? <ExtendDialog room={room} today={today} open={dialog === "extend"} onOpenChange={(o) => setDialog(o ? "extend" : null)} /> : null}
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

/** Keeps an out-of-order room off sale longer (or less long): its new return date, and its reason. */
function ExtendDialog({ room, today, open, onOpenChange }: { room: Room; today: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const change = useChangeOutOfOrder();
  const initial = { reason: room.out_of_order_reason ?? "", until: room.out_of_order_until ?? "" };
  const form = useZodForm(outOfOrderForm, { defaultValues: initial, values: initial });
  const close = (next: boolean) => {
    if (!next) {
      change.reset();
      form.reset(initial);
    }
    onOpenChange(next);
  };
  const submit = (v: z.output<typeof outOfOrderForm>) =>
    change.mutate({ room_id: room.id, reason: v.reason, until: v.until || null }, { onSuccess: () => close(false), onError: (e) => showServerError<OutOfOrderForm>(form, e) });
  return (
    <Dialog open={open} onOpenChange={close} title={`Room ${room.number} stays out of order`} description="Set the day it comes back; its nights stay off sale until then." size="sm">
      <Form form={form} onSubmit={submit} className="space-y-4">
        <FormField<OutOfOrderForm> name="reason" label="Reason">
          {(control) => <Textarea {...control} required rows={2} maxLength={500} />}
        </FormField>
        <FormField<OutOfOrderForm> name="until" label="Back in service on" hint="Leave empty for until further notice.">
          {(control) => <Input {...control} type="date" min={addDays(today, 1)} />}
        </FormField>
        <FormError />
        <DialogActions label="Save the new date" pendingLabel="Saving…" pending={change.isPending} disabled={change.isPending} />
      </Form>
    </Dialog>
  );
}
