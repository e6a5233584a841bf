"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, Select } from "@/components/ui";
import { ConfirmDialog, Dialog, DialogClose } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterOutputs } from "@trpc/server";
import { usePropertyFormat } from "@/components/ui/property-format";
import type { Money } from "@/server/money";
import { housekeepingLabels, nightsLabel } from "./format";
import { PaymentDialog } from "./folio-dialogs";

type Desk = inferRouterOutputs<AppRouter>["reservations"]["get"];
type Done = () => Promise<void> | void;

/** Change dates, room type, rate plan or party: re-quoted first, applied on confirmation. */
function ModifyDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const r = desk.reservation;
  const initial = {
    check_in: r.check_in,
    check_out: r.check_out,
    room_type_id: r.room_type_id,
    rate_plan_id: r.rate_plan_id,
    adults: r.adults,
    children: r.children,
  };
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(initial);
  const [asked, setAsked] = useState<typeof initial | null>(null);
  const lookups = useQuery({ ...trpc.reservations.lookups.queryOptions({ property_id: desk.property.id }), enabled: open });
  const preview = useQuery({
    ...trpc.reservations.previewUpdate.queryOptions({ id: r.id, ...(asked ?? initial) }),
    enabled: open && asked !== null,
    retry: false,
    staleTime: 0,
  });
  const update = useMutation(
    trpc.reservations.update.mutationOptions({
      onSuccess: async () => {
        toast.success("Reservation modified");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const set = (key: keyof typeof initial) => (e: { target: { value: string } }) => {
    setAsked(null);
    setDraft((d) => ({ ...d, [key]: key === "adults" || key === "children" ? Number(e.target.value) || 0 : e.target.value }));
  };
  const plans = lookups.data?.rate_plans.filter((p) => p.active && p.room_type_ids.includes(draft.room_type_id)) ?? [];
  const previewMatches = asked && JSON.stringify(asked) === JSON.stringify(draft) && preview.data;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        setDraft(initial);
        setAsked(null);
        update.reset();
      }}
      title="Modify the stay"
      description="The new stay is priced and checked before anything changes."
      trigger={<Button variant="secondary">Modify</Button>}
    >
      <div className="space-y-3">
        <div className="grid grid-cols-2 gap-3">
          <Field label="Check-in" htmlFor="mod-check-in">
            <Input id="mod-check-in" type="date" value={draft.check_in} onChange={set("check_in")} />
          </Field>
          <Field label="Check-out" htmlFor="mod-check-out">
            <Input id="mod-check-out" type="date" value={draft.check_out} onChange={set("check_out")} />
          </Field>
          <Field label="Room type" htmlFor="mod-type">
            <Select
              id="mod-type"
              value={draft.room_type_id}
              onChange={(e) => {
                const type = e.target.value;
                const plan = lookups.data?.rate_plans.find((p) => p.active && p.room_type_ids.includes(type));
                setAsked(null);
                setDraft((d) => ({
                  ...d,
                  room_type_id: type,
                  rate_plan_id: plan?.room_type_ids.includes(type) && plan.id === d.rate_plan_id ? d.rate_plan_id : (plan?.id ?? d.rate_plan_id),
                }));
              }}
            >
              {(lookups.data?.room_types ?? [desk.room_type]).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Rate plan" htmlFor="mod-plan">
            <Select id="mod-plan" value={draft.rate_plan_id} onChange={set("rate_plan_id")}>
              {(plans.length ? plans : [desk.rate_plan]).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Adults" htmlFor="mod-adults">
            <Input id="mod-adults" type="number" min={1} value={draft.adults} onChange={set("adults")} />
          </Field>
          <Field label="Children" htmlFor="mod-children">
            <Input id="mod-children" type="number" min={0} value={draft.children} onChange={set("children")} />
          </Field>
        </div>
        {asked && preview.error ? <Alert>{callError(preview.error).message}</Alert> : null}
        {update.error ? <Alert>{callError(update.error).message}</Alert> : null}
        {previewMatches ? (
          <p className="rounded-md bg-teal-50 px-3 py-2 text-sm text-teal-900" role="status" data-testid="modify-quote">
            New stay: {fmt.day(preview.data!.check_in, "short")} → {fmt.day(preview.data!.check_out, "short")}, {nightsLabel(preview.data!.nights)},
            total <strong>{fmt.money(preview.data!.total)}</strong> (was {fmt.money(r.total)}).
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          {previewMatches ? (
            <Button disabled={update.isPending} onClick={() => update.mutate({ id: r.id, ...draft })}>
              {update.isPending ? "Saving…" : "Confirm change"}
            </Button>
          ) : (
            <Button disabled={asked !== null && preview.isFetching} onClick={() => setAsked(draft)}>
              {asked !== null && preview.isFetching ? "Pricing…" : "Re-quote"}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

/** Check in: the clerk picks one of the free clean or inspected rooms of the type. */
function CheckInDialog({ desk, onDone }: { desk: Desk; onDone: Done }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [roomId, setRoomId] = useState("");
  const ready = useQuery({ ...trpc.reservations.readyRooms.queryOptions({ id: desk.reservation.id }), enabled: open, staleTime: 0 });
  const checkIn = useMutation(
    trpc.reservations.checkIn.mutationOptions({
      onSuccess: async () => {
        toast.success("Checked in");
        setOpen(false);
        await onDone();
      },
    }),
  );
  const chosen = roomId || ready.data?.[0]?.id || "";
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), setRoomId(""), checkIn.reset())}
      title="Check in"
      description={`${desk.room_type.name}: free rooms that are clean or inspected.`}
      size="sm"
      trigger={<Button>Check in</Button>}
    >
      <div className="space-y-3">
        {ready.error ? (
          <Alert>{callError(ready.error).message}</Alert>
        ) : !ready.data ? (
          <p className="text-sm text-stone-500">Loading rooms…</p>
        ) : ready.data.length === 0 ? (
          <Alert>No room of this type is clean and free. Ask housekeeping to clean one, or modify the room type.</Alert>
        ) : (
          <Field label="Room" htmlFor="checkin-room">
            <Select id="checkin-room" value={chosen} onChange={(e) => setRoomId(e.target.value)}>
              {ready.data.map((room) => (
                <option key={room.id} value={room.id}>
                  Room {room.number}
                  {room.floor !== null ? `, floor ${room.floor}` : ""} · {housekeepingLabels[room.housekeeping_status]}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {checkIn.error ? <Alert>{callError(checkIn.error).message}</Alert> : null}
        <div className="flex justify-end gap-2">
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button disabled={!chosen || checkIn.isPending} onClick={() => checkIn.mutate({ id: desk.reservation.id, room_id: chosen })}>
            {checkIn.isPending ? "Checking in…" : "Check in"}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

/**
 * The actions the reservation's state allows (decided by the server, by the rules the actions
 * enforce), each asking before it acts; an action not open yet says why.
 */
export function StayActions({ desk, balance, onDone }: { desk: Desk; balance: Money | undefined; onDone: Done }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const r = desk.reservation;
  const a = desk.actions;
  const [dialog, setDialog] = useState<null | "cancel" | "checkout" | "noshow" | "pay">(null);
  const [reason, setReason] = useState("");
  const done = async (message: string) => {
    toast.success(message);
    setDialog(null);
    await onDone();
  };
  const cancel = useMutation(trpc.reservations.cancel.mutationOptions({ onSuccess: () => done("Reservation cancelled") }));
  const checkOut = useMutation(trpc.reservations.checkOut.mutationOptions({ onSuccess: () => done("Checked out; the room is now dirty") }));
  const noShow = useMutation(trpc.reservations.noShow.mutationOptions({ onSuccess: () => done("Recorded as a no-show") }));
  const open = (which: typeof dialog) => () => {
    cancel.reset();
    checkOut.reset();
    noShow.reset();
    setDialog(which);
  };
  const owing = balance && balance.amount !== 0;
  const plan = desk.rate_plan;
  const policy = !plan.refundable
    ? `${plan.name} is non-refundable: the room charges stay on the folio as the cancellation charge.`
    : plan.free_cancellation_now
      ? `${plan.name} is refundable until ${plan.cancellation_deadline_hours} hours before arrival: cancelling now is free and the room charges are removed.`
      : `${plan.name} is refundable only until ${plan.cancellation_deadline_hours} hours before arrival, which has passed: the room charges stay as the cancellation charge.`;
  const closedNotes = [a.check_in, a.no_show].filter((x) => !x.allowed && r.status === "confirmed").map((x) => fmt.words(x.reason ?? ""));

  return (
    <div>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Reservation actions">
        {a.check_in.allowed ? <CheckInDialog desk={desk} onDone={onDone} /> : null}
        {a.check_out.allowed ? <Button onClick={open("checkout")}>Check out</Button> : null}
        {a.modify.allowed ? <ModifyDialog desk={desk} onDone={onDone} /> : null}
        {a.no_show.allowed ? (
          <Button variant="secondary" onClick={open("noshow")}>
            No-show
          </Button>
        ) : null}
        {a.cancel.allowed ? (
          <Button variant="danger" onClick={open("cancel")}>
            Cancel reservation
          </Button>
        ) : null}
      </div>
      {closedNotes.length ? (
        <ul className="mt-2 space-y-0.5 text-xs text-stone-500">
          {closedNotes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}

      <ConfirmDialog
        open={dialog === "cancel"}
        onOpenChange={(o) => setDialog(o ? "cancel" : null)}
        title="Cancel this reservation?"
        description={<p data-testid="cancel-policy">{policy}</p>}
        confirmLabel="Cancel reservation"
        danger
        pending={cancel.isPending}
        error={cancel.error ? callError(cancel.error).message : null}
        onConfirm={() => cancel.mutate({ id: r.id, ...(reason.trim() ? { reason: reason.trim() } : {}) })}
      >
        <Field label="Reason (optional)" htmlFor="cancel-reason">
          <Input id="cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog === "checkout"}
        onOpenChange={(o) => setDialog(o ? "checkout" : null)}
        title={owing ? "The folio is not settled" : "Check out?"}
        description={
          owing ? (
            <p data-testid="checkout-balance">
              The balance is {fmt.money(balance!)}. Check-out is refused until the folio is settled:{" "}
              {balance!.amount > 0 ? "take a payment" : "refund the overpayment"} first. Confirm only to try anyway.
            </p>
          ) : (
            <p>The folio closes and room {desk.room?.number ?? ""} is marked dirty for housekeeping.</p>
          )
        }
        confirmLabel={owing ? "Try check-out anyway" : "Check out"}
        pending={checkOut.isPending}
        error={checkOut.error ? callError(checkOut.error).message : null}
        onConfirm={() => checkOut.mutate({ id: r.id })}
      >
        {owing && balance!.amount > 0 ? (
          <Button variant="secondary" onClick={() => setDialog("pay")}>
            Take payment of {fmt.money(balance!)}
          </Button>
        ) : null}
      </ConfirmDialog>

      <ConfirmDialog
        open={dialog === "noshow"}
        onOpenChange={(o) => setDialog(o ? "noshow" : null)}
        title="Record a no-show?"
        description={<p>The guest never arrived. The nights go back on sale; the folio keeps its charges.</p>}
        confirmLabel="Record no-show"
        danger
        pending={noShow.isPending}
        error={noShow.error ? callError(noShow.error).message : null}
        onConfirm={() => noShow.mutate({ id: r.id })}
      />

      {balance && dialog === "pay" ? (
        <PaymentDialog
          reservationId={r.id}
          balance={balance}
          livemode={r.livemode}
          onDone={onDone}
          open={dialog === "pay"}
          onOpenChange={(o) => setDialog(o ? "pay" : null)}
        />
      ) : null}
    </div>
  );
}
