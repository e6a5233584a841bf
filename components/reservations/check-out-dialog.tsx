"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { ConfirmDialog } from "@/components/ui/dialog";
import { usePropertyFormat } from "@/components/ui/property-format";
import { toast } from "@/components/ui/toaster";
import type { Money } from "@/lib/money";
import { creditRefundPlan } from "@/lib/refund-plan";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { nightsLabel, paymentMethodWords } from "./format";

type Outputs = inferRouterOutputs<AppRouter>;
type Desk = Outputs["reservations"]["get"];
type Step = "shorten" | "refund" | "check-out";

/**
 * Check-out as one guided step. What checking out today changes is asked first (a stay left
 * early is shortened to today: its unused nights off the folio, the plan's fee on; one staying on
 * is extended), with what the folio then owes or is owed. Then, in this order, so the folio tells
 * the truth between any two steps: (1) the stay is shortened (only when money must change hands;
 * otherwise check-out does it itself), (2) the exact overpayment is refunded to the guest's own
 * payment, or the balance due is taken (holds on the card captured first, then the payment
 * dialog, `onTakePayment`, for what they leave), (3) the guest is
 * checked out. A step that fails says which, in words, and what already happened; trying again
 * starts from where the folio now stands.
 */
export function CheckOutDialog({ desk, open, onOpenChange, onTakePayment, onDone }: { desk: Desk; open: boolean; onOpenChange: (open: boolean) => void; onTakePayment: (due: Money) => void; onDone: () => Promise<void> | void }) {
  const trpc = useTRPC();
  const fmt = usePropertyFormat();
  const queryClient = useQueryClient();
  const r = desk.reservation;
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const preview = useQuery({ ...trpc.reservations.previewDeparture.queryOptions({ id: r.id }), enabled: open, retry: false, staleTime: 0 });
  const folio = useQuery({ ...trpc.folios.get.queryOptions({ reservation_id: r.id }), enabled: open });
  const changeDeparture = useMutation(trpc.reservations.changeDeparture.mutationOptions());
  const refund = useMutation(trpc.payments.refundOverpayment.mutationOptions());
  const capture = useMutation(trpc.payments.settle.mutationOptions());
  const checkOut = useMutation(trpc.reservations.checkOut.mutationOptions());

  // Never act on a stale answer: after a step (or a payment) the stay and the folio have moved on.
  const p = preview.isFetching ? undefined : preview.data;
  const moved = p && p.check_out !== r.check_out ? p : null;
  const after = p?.balance;
  const owed = after && after.amount < 0 ? { ...after, amount: -after.amount } : null;
  const due = after && after.amount > 0 ? after : null;
  const plan = owed && folio.data ? creditRefundPlan(folio.data.payments, owed.amount) : null;
  const refunds = plan && plan.short === 0 ? plan.parts : [];
  const cannotRefund = plan && plan.short > 0;
  const early = moved && moved.check_out < r.check_out;
  // Holds on the card (taken at check-in) pay the balance first, captured whole, where they do not exceed it.
  const holds = (folio.data?.payments ?? []).filter((x) => x.status === "authorized");
  const held = holds.reduce((sum, x) => sum + x.amount.amount, 0);
  const captureHolds = Boolean(due && holds.length && held <= due.amount);
  const room = desk.room?.number;

  const reset = () => (setFailure(null), changeDeparture.reset(), refund.reset(), capture.reset(), checkOut.reset());
  const freshFolio = () => queryClient.fetchQuery({ ...trpc.folios.get.queryOptions({ reservation_id: r.id }), staleTime: 0 });
  const shortenIfMoney = async () => {
    if (moved && p && p.balance.amount !== 0) await changeDeparture.mutateAsync({ id: r.id, check_out: p.check_out });
  };
  const failed = async (step: Step, error: unknown, refunded: number) => {
    const why = callError(error).message;
    const shortened = moved && step !== "shorten" ? `The stay now ends on ${fmt.day(moved.check_out)}. ` : "";
    const money = refunded ? `${fmt.money({ amount: refunded, currency: r.total.currency })} was refunded. ` : "";
    setFailure(
      step === "shorten"
        ? `The stay could not be shortened, so nothing has changed: ${why}`
        : step === "refund"
          ? `${shortened}${money}The refund failed: ${why} The folio shows what is still owed to the guest; try again.`
          : `${shortened}${money}Check-out failed: ${why}`,
    );
    await onDone();
    await preview.refetch();
  };

  // Refund the exact overpayment (or nothing, when the folio is settled), then check out.
  const settleAndCheckOut = async () => {
    reset();
    setBusy(true);
    let step: Step = "shorten";
    let refunded = 0;
    try {
      await shortenIfMoney();
      step = "refund";
      const now = await freshFolio();
      if (now.balance.amount > 0) {
        // Something was charged meanwhile: the guest owes it, which is the payment dialog's job.
        await onDone();
        await preview.refetch();
        return;
      }
      if (now.balance.amount < 0) {
        refunded = (await refund.mutateAsync({ reservation_id: r.id, reason: early ? "Left early: nights not stayed" : "Overpayment at check-out" })).refunded;
      }
      step = "check-out";
      await checkOut.mutateAsync({ id: r.id });
      toast.success(refunded ? `Refunded ${fmt.money({ amount: refunded, currency: r.total.currency })} and checked out; the room is now dirty` : "Checked out; the room is now dirty");
      onOpenChange(false);
      await onDone();
    } catch (error) {
      await failed(step, error, refunded);
    } finally {
      setBusy(false);
    }
  };

  // Shorten first, so the payment dialog asks for what the guest owes for the nights stayed; the
  // holds on the card are captured before anything else is asked of the guest.
  const shortenAndPay = async () => {
    reset();
    setBusy(true);
    let step: Step = "shorten";
    try {
      await shortenIfMoney();
      if (captureHolds) {
        step = "check-out";
        for (const hold of holds) await capture.mutateAsync({ id: hold.id, to: "captured" });
        const now = await freshFolio();
        if (now.balance.amount <= 0) {
          await checkOut.mutateAsync({ id: r.id });
          toast.success(`Captured ${fmt.money({ amount: held, currency: r.total.currency })} on the card and checked out; the room is now dirty`);
          onOpenChange(false);
          await onDone();
          return;
        }
        await onDone();
        onTakePayment(now.balance);
        return;
      }
      await onDone();
      onTakePayment(due!);
    } catch (error) {
      await failed(step, error, 0);
    } finally {
      setBusy(false);
    }
  };

  const title = !p ? "Check out" : moved ? (early ? "Check out early" : "Check out after the booked departure") : due || owed ? "The folio is not settled" : "Check out?";
  const description = !p ? (
    <p>{preview.error ? "What checking out today changes could not be worked out." : "Working out what checking out today changes…"}</p>
  ) : (
    <>
      {moved ? (
        <p className="mb-2" data-testid="checkout-departure">
          {early ? "Leaving early" : "Staying past the booked departure"}: the stay ends on {fmt.day(moved.check_out)} instead of {fmt.day(r.check_out)}, {nightsLabel(moved.nights)}, price{" "}
          <strong>{fmt.money(moved.price.gross)}</strong> (was {fmt.money(r.price.gross)}){moved.fee.amount ? <>, plus an early-departure fee of {fmt.money(moved.fee)}</> : null}.
        </p>
      ) : null}
      <p data-testid="checkout-balance">
        {owed ? (
          <>
            The guest is then owed <strong>{fmt.money(owed)}</strong>
            {refunds.length ? <>, refunded to {refunds.map((x) => `${paymentMethodWords(x.payment.payment_method)} (${fmt.money({ amount: x.amount, currency: owed.currency })})`).join(" and ")}</> : null}.
          </>
        ) : due ? (
          <>
            The balance{moved ? " after that" : ""} is {fmt.money(due)}: take the payment, then check out.
          </>
        ) : (
          <>The folio is then settled; it closes and room {room ?? ""} is marked dirty for housekeeping.</>
        )}
      </p>
      {owed || due ? (
        <ol className="mt-2 list-decimal space-y-0.5 pl-5 text-stone-700" aria-label="Steps">
          {moved ? <li>{early ? "Shorten" : "Extend"} the stay to {fmt.day(moved.check_out)}.</li> : null}
          {captureHolds ? <li>Capture the {fmt.money({ amount: held, currency: due!.currency })} held on the card at check-in.</li> : null}
          {captureHolds && held === due!.amount ? null : <li>{owed ? `Refund ${fmt.money(owed)} to the guest.` : `Take a payment of ${fmt.money(captureHolds ? { amount: due!.amount - held, currency: due!.currency } : due!)}.`}</li>}
          <li>Check out{room ? `; room ${room} is marked dirty` : ""}.</li>
        </ol>
      ) : null}
    </>
  );
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(o) => {
        if (busy) return;
        if (o) reset();
        onOpenChange(o);
      }}
      title={title}
      description={description}
      confirmLabel={owed ? `Refund ${fmt.money(owed)} and check out` : captureHolds ? `Capture ${fmt.money({ amount: held, currency: due!.currency })}${held === due!.amount ? " and check out" : ""}` : due ? `Take payment of ${fmt.money(due)}` : "Check out"}
      pending={busy || !p || (Boolean(owed || due) && !folio.data)}
      error={
        failure ??
        (preview.error ? callError(preview.error).message : null) ??
        (cannotRefund ? `The payments on the folio cannot cover the ${fmt.money(owed!)} owed to the guest. Refund what they can from the folio, and the rest another way.` : null)
      }
      onConfirm={() => void (due ? shortenAndPay() : settleAndCheckOut())}
    >
      {busy ? (
        <p role="status" className="text-sm text-stone-600">
          {changeDeparture.isPending ? "Shortening the stay…" : refund.isPending ? "Refunding…" : capture.isPending ? "Capturing the hold…" : checkOut.isPending ? "Checking out…" : "Working…"}
        </p>
      ) : null}
    </ConfirmDialog>
  );
}
