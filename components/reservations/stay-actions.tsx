"use client";

import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { z } from "zod";
import { Button, Input } from "@/components/ui";
import { ConfirmDialog } from "@/components/ui/dialog";
import { Form, FormField, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import type { AppRouter } from "@/server/trpc/routers/_app";
import type { inferRouterOutputs } from "@trpc/server";
import { usePropertyFormat } from "@/components/ui/property-format";
import type { Money } from "@/lib/money";
import { balanceWords, chargeableCard } from "./format";
import { PaymentDialog } from "./folio-dialogs";
import { CheckInDialog, MoveRoomDialog } from "./room-dialogs";
import { DepartureDialog, ModifyDialog, UpgradeDialog } from "./stay-change-dialogs";
import { CheckOutDialog } from "./check-out-dialog";

type Desk = inferRouterOutputs<AppRouter>["reservations"]["get"];
type Done = () => Promise<void> | void;

const cancelForm = z.object({ reason: z.string().trim() });
type CancelForm = z.input<typeof cancelForm>;
// The hour the guest may stay to; the server checks it is past the hotel's check-out time.
const lateForm = z.object({ until: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Give the hour the guest leaves by, such as 14:00.") });
type LateForm = z.input<typeof lateForm>;

type LatePreview = inferRouterOutputs<AppRouter>["reservations"]["previewLateCheckOut"];

/** What a late check-out posts, in money, before it is granted: the plan's fee and the balance after it, or that there is no fee. */
function LateCheckOutQuote({ planName, quote, loading }: { planName: string; quote: LatePreview | undefined; loading: boolean }) {
  const fmt = usePropertyFormat();
  if (!quote) return <p>{loading ? "Working out the fee…" : "The fee could not be worked out."}</p>;
  return (
    <p data-testid="late-check-out-quote">
      The guest keeps the room past check-out time today.{" "}
      {quote.fee.amount > 0 ? (
        <>
          {planName}&apos;s late check-out fee of <strong>{fmt.money(quote.fee)}</strong> is posted to the folio, which then {balanceWords(quote.balance, fmt.money)}.
        </>
      ) : (
        <>{planName} has no late check-out fee: nothing is charged.</>
      )}
    </p>
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
  const [dialog, setDialog] = useState<null | "cancel" | "checkout" | "noshow" | "late" | "pay">(null);
  const cancelReason = useZodForm(cancelForm, { defaultValues: { reason: "" } });
  const lateUntil = useZodForm(lateForm, { defaultValues: { until: "14:00" } });
  const grantLate = (v: z.output<typeof lateForm>) => late.mutate({ id: r.id, until: v.until });
  const done = async (message: string) => {
    toast.success(message);
    setDialog(null);
    await onDone();
  };
  const cancel = useMutation(trpc.reservations.cancel.mutationOptions({ onSuccess: () => done("Reservation cancelled") }));
  const noShow = useMutation(trpc.reservations.noShow.mutationOptions({ onSuccess: () => done("Recorded as a no-show") }));
  const late = useMutation(trpc.reservations.lateCheckOut.mutationOptions({ onSuccess: () => done("Late check-out granted") }));
  // What a late check-out posts (the plan's fee, the balance after it), asked when its dialog opens.
  const lateQuote = useQuery({ ...trpc.reservations.previewLateCheckOut.queryOptions({ id: r.id }), enabled: dialog === "late", retry: false, staleTime: 0 });
  const cancelStay = (v: z.output<typeof cancelForm>) => cancel.mutate({ id: r.id, ...(v.reason ? { reason: v.reason } : {}) });
  const open = (which: typeof dialog) => () => {
    cancel.reset();
    noShow.reset();
    late.reset();
    setDialog(which);
  };
  // The payment the check-out asked for (the balance due once the stay is shortened), else the folio's.
  const [payDue, setPayDue] = useState<Money | null>(null);
  const due = payDue ?? balance;
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
        {a.late_check_out.allowed ? (
          <Button variant="secondary" onClick={open("late")}>
            Late check-out
          </Button>
        ) : null}
        {a.change_departure.allowed ? <DepartureDialog desk={desk} onDone={onDone} /> : null}
        {a.move_room.allowed ? <MoveRoomDialog desk={desk} onDone={onDone} /> : null}
        {a.modify.allowed ? <ModifyDialog desk={desk} onDone={onDone} /> : null}
        {a.upgrade.allowed ? <UpgradeDialog desk={desk} onDone={onDone} /> : null}
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
        onConfirm={cancelReason.handleSubmit(cancelStay)}
      >
        <Form form={cancelReason} onSubmit={cancelStay}>
          <FormField<CancelForm> name="reason" label="Reason (optional)">
            {(control) => <Input {...control} />}
          </FormField>
        </Form>
      </ConfirmDialog>

      <CheckOutDialog
        desk={desk}
        open={dialog === "checkout"}
        onOpenChange={(o) => setDialog(o ? "checkout" : null)}
        onTakePayment={(amount) => (setPayDue(amount), setDialog("pay"))}
        onDone={onDone}
      />

      <ConfirmDialog
        open={dialog === "noshow"}
        onOpenChange={(o) => setDialog(o ? "noshow" : null)}
        title="Record a no-show?"
        description={<p>The guest never arrived. The nights go back on sale, and the room charges are replaced by the rate plan&apos;s no-show fee.</p>}
        confirmLabel="Record no-show"
        danger
        pending={noShow.isPending}
        error={noShow.error ? callError(noShow.error).message : null}
        onConfirm={() => noShow.mutate({ id: r.id })}
      />

      <ConfirmDialog
        open={dialog === "late"}
        onOpenChange={(o) => setDialog(o ? "late" : null)}
        title="Grant a late check-out?"
        description={<LateCheckOutQuote planName={plan.name} quote={lateQuote.data} loading={lateQuote.isLoading} />}
        confirmLabel="Grant late check-out"
        pending={late.isPending || !lateQuote.data}
        error={late.error ? callError(late.error).message : lateQuote.error ? callError(lateQuote.error).message : null}
        onConfirm={lateUntil.handleSubmit(grantLate)}
      >
        <Form form={lateUntil} onSubmit={grantLate}>
          <FormField<LateForm> name="until" label="Leaves by">
            {(control) => <Input type="time" {...control} />}
          </FormField>
        </Form>
      </ConfirmDialog>

      {due && dialog === "pay" ? (
        <PaymentDialog
          reservationId={r.id}
          propertyId={r.property_id}
          balance={due}
          livemode={r.livemode}
          cardOnFile={chargeableCard(r.guarantee)}
          onDone={onDone}
          // Paid: back to the check-out, which now finds the folio settled.
          onPaid={() => (setPayDue(null), setDialog("checkout"))}
          open={dialog === "pay"}
          onOpenChange={(o) => (setDialog(o ? "pay" : null), o || setPayDue(null))}
        />
      ) : null}
    </div>
  );
}
