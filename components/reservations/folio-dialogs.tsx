"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/components/trpc/client";
import { callError } from "@/components/trpc/errors";
import { Alert, Button, Field, Input, Select } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { toast } from "@/components/ui/toaster";
import { usePropertyFormat } from "@/components/ui/property-format";
import type { Money } from "@/lib/money";

type Done = () => Promise<void> | void;

/**
 * An extra charge (minibar, parking) or, negative, a credit on the folio. After check-out
 * (`invoiced`), a late charge: billed on a supplementary invoice (a credit is refused by the
 * server, which points at a credit note, under the amount).
 */
export function AddChargeDialog({ reservationId, currency, onDone, invoiced = false }: { reservationId: string; currency: string; onDone: Done; invoiced?: boolean }) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState("");
  const [amount, setAmount] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const add = useMutation(
    trpc.folios.addCharge.mutationOptions({
      onSuccess: async (c) => {
        toast.success(`Charged ${c.description}, ${f.money(c.amount)}`);
        setOpen(false);
        setDescription("");
        setAmount("");
        await onDone();
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minor = f.parse(amount, currency);
    if (minor === null || minor === 0) return setLocalError(invoiced ? `Enter an amount such as ${f.sample(currency)}.` : `Enter an amount such as ${f.sample(currency)} (negative for a credit).`);
    setLocalError(null);
    add.mutate({ reservation_id: reservationId, description, amount: minor });
  };
  const failure = add.error ? callError(add.error) : null;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), add.reset(), setLocalError(null))}
      title={invoiced ? "Add a late charge" : "Add a charge"}
      size="sm"
      trigger={<Button variant="secondary">{invoiced ? "Late charge" : "Add charge"}</Button>}
    >
      <form onSubmit={submit} className="space-y-3" aria-label={invoiced ? "Add a late charge" : "Add a charge"} noValidate>
        {invoiced ? <p className="text-sm text-stone-600">The stay is invoiced, so the charge goes on a supplementary invoice of its own, and the guest owes it until paid.</p> : null}
        {failure && failure.param !== "description" && failure.param !== "amount" ? <Alert>{failure.message}</Alert> : null}
        <Field label="Description" htmlFor="charge-description" error={failure?.param === "description" ? failure.message : null}>
          <Input id="charge-description" value={description} onChange={(e) => setDescription(e.target.value)} placeholder="Minibar" />
        </Field>
        <Field
          label={`Amount (${currency})`}
          htmlFor="charge-amount"
          error={localError ?? (failure?.param === "amount" ? failure.message : null)}
          hint={invoiced ? undefined : "Negative for a credit."}
        >
          <Input id="charge-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder={f.sample(currency)} />
        </Field>
        <DialogActions label="Add charge" pendingLabel="Adding…" pending={add.isPending} />
      </form>
    </Dialog>
  );
}

type Method = "card" | "cash" | "bank_transfer";

/** Takes a payment: a sandbox test card, cash or a bank transfer; the amount starts at the balance. */
export function PaymentDialog({
  reservationId,
  balance,
  livemode,
  onDone,
  onPaid,
  open,
  onOpenChange,
}: {
  reservationId: string;
  balance: Money;
  livemode: boolean;
  onDone: Done;
  /** Called once the payment succeeded (after `onDone`), for a flow that goes on from here. */
  onPaid?: () => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const [method, setMethod] = useState<Method>(livemode ? "cash" : "card");
  const [amount, setAmount] = useState(f.amountText(balance));
  const [card, setCard] = useState({ number: "", exp: "12/30", cvc: "" });
  const [reference, setReference] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const pay = useMutation(
    trpc.payments.create.mutationOptions({
      onSuccess: async (p) => {
        toast.success(`Payment of ${f.money(p.amount)} received`);
        onOpenChange(false);
        await onDone();
        onPaid?.();
      },
      // A decline is recorded as a failed payment: refresh the folio to show it.
      onError: () => onDone(),
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minor = f.parse(amount, balance.currency);
    if (minor === null || minor <= 0) return setLocalError("Enter a positive amount.");
    setLocalError(null);
    const [mm, yy] = card.exp.split("/").map((s) => Number(s.trim()));
    const payment_method =
      method === "card"
        ? {
            type: "card" as const,
            number: card.number.replace(/\D/g, ""),
            exp_month: mm || 0,
            exp_year: yy < 100 ? 2000 + yy : yy || 0,
            cvc: card.cvc.trim(),
          }
        : method === "bank_transfer"
          ? { type: "bank_transfer" as const, ...(reference.trim() ? { reference: reference.trim() } : {}) }
          : { type: "cash" as const };
    pay.mutate({ reservation_id: reservationId, amount: minor, payment_method, capture: true });
  };
  const failure = pay.error ? callError(pay.error) : null;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (o) {
          pay.reset();
          setAmount(f.amountText(balance));
        }
      }}
      title="Take a payment"
      description={`Balance due: ${f.money(balance)}`}
      size="sm"
    >
      <form onSubmit={submit} className="space-y-3" aria-label="Take a payment" noValidate>
        {failure ? (
          <Alert>
            {failure.code === "card_declined" ||
            failure.code?.endsWith("_card") ||
            failure.code === "insufficient_funds" ||
            failure.code === "incorrect_cvc"
              ? `Declined: ${failure.message}`
              : failure.message}
          </Alert>
        ) : null}
        <Field label="Method" htmlFor="pay-method">
          <Select id="pay-method" value={method} onChange={(e) => setMethod(e.target.value as Method)}>
            <option value="card">Card{livemode ? "" : " (sandbox test cards)"}</option>
            <option value="cash">Cash</option>
            <option value="bank_transfer">Bank transfer</option>
          </Select>
        </Field>
        <Field label={`Amount (${balance.currency})`} htmlFor="pay-amount" error={localError}>
          <Input id="pay-amount" inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        {method === "card" ? (
          <>
            <Field
              label="Card number"
              htmlFor="pay-number"
              hint={livemode ? undefined : "Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined."}
            >
              <Input
                id="pay-number"
                inputMode="numeric"
                autoComplete="off"
                value={card.number}
                onChange={(e) => setCard((c) => ({ ...c, number: e.target.value }))}
                placeholder="4242 4242 4242 4242"
              />
            </Field>
            <div className="grid grid-cols-2 gap-3">
              <Field label="Expiry (MM/YY)" htmlFor="pay-exp">
                <Input id="pay-exp" autoComplete="off" value={card.exp} onChange={(e) => setCard((c) => ({ ...c, exp: e.target.value }))} />
              </Field>
              <Field label="CVC" htmlFor="pay-cvc">
                <Input
                  id="pay-cvc"
                  inputMode="numeric"
                  autoComplete="off"
                  value={card.cvc}
                  onChange={(e) => setCard((c) => ({ ...c, cvc: e.target.value }))}
                  placeholder="123"
                />
              </Field>
            </div>
          </>
        ) : method === "bank_transfer" ? (
          <Field label="Reference (optional)" htmlFor="pay-reference">
            <Input id="pay-reference" value={reference} onChange={(e) => setReference(e.target.value)} />
          </Field>
        ) : null}
        <DialogActions label="Take payment" pendingLabel="Charging…" pending={pay.isPending} />
      </form>
    </Dialog>
  );
}

/**
 * Refunds all or part of a captured payment. The amount starts at what the folio owes the guest
 * (`owed`, when it is in credit), at most what is left of the payment; otherwise at that remainder.
 */
export function RefundDialog({ payment, owed, onDone }: { payment: { id: string; amount: Money; amount_refunded: Money }; owed: number | null; onDone: Done }) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const refundable = { amount: payment.amount.amount - payment.amount_refunded.amount, currency: payment.amount.currency };
  const suggested = owed ? { ...refundable, amount: Math.min(owed, refundable.amount) } : refundable;
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState(f.amountText(suggested));
  const [reason, setReason] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const refund = useMutation(
    trpc.payments.refund.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Refunded ${f.money(r.amount)}`);
        setOpen(false);
        await onDone();
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const minor = f.parse(amount, refundable.currency);
    if (minor === null || minor <= 0) return setLocalError("Enter a positive amount.");
    setLocalError(null);
    refund.mutate({ payment_id: payment.id, amount: minor, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  };
  const failure = refund.error ? callError(refund.error) : null;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), refund.reset(), setAmount(f.amountText(suggested)))}
      title="Refund a payment"
      description={
        owed
          ? `The folio owes the guest ${f.money({ ...refundable, amount: owed })}; up to ${f.money(refundable)} of this payment can still be refunded.`
          : `Up to ${f.money(refundable)} can still be refunded.`
      }
      size="sm"
      trigger={
        <Button variant="ghost" aria-label={`Refund the payment of ${f.money(payment.amount)}`}>
          Refund
        </Button>
      }
    >
      <form onSubmit={submit} className="space-y-3" aria-label="Refund a payment" noValidate>
        {failure ? <Alert>{failure.message}</Alert> : null}
        <Field label={`Amount (${refundable.currency})`} htmlFor={`refund-amount-${payment.id}`} error={localError}>
          <Input id={`refund-amount-${payment.id}`} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} />
        </Field>
        <Field label="Reason (optional)" htmlFor={`refund-reason-${payment.id}`}>
          <Input id={`refund-reason-${payment.id}`} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        <DialogActions label="Refund" pendingLabel="Refunding…" pending={refund.isPending} danger />
      </form>
    </Dialog>
  );
}
