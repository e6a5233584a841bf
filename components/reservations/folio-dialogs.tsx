"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { Button, Input, Select } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, moneyField, showServerError, useZodForm, type ErrorWords } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import { callError } from "@/components/trpc/errors";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import type { Money } from "@/lib/money";

type Done = () => Promise<void> | void;

const chargeForm = (f: Formatters, currency: string, invoiced: boolean) =>
  z.object({
    description: z.string(),
    amount: moneyField(
      f,
      currency,
      invoiced ? `Enter an amount such as ${f.sample(currency)}.` : `Enter an amount such as ${f.sample(currency)} (negative for a credit).`,
      (minor) => minor !== 0,
    ),
  });
type ChargeForm = z.input<ReturnType<typeof chargeForm>>;

/**
 * An extra charge (minibar, parking) or, negative, a credit on the folio. After check-out
 * (`invoiced`), a late charge: billed on a supplementary invoice (a credit is refused by the
 * server, which points at a credit note, under the amount).
 */
export function AddChargeDialog({
  reservationId,
  currency,
  onDone,
  invoiced = false,
}: {
  reservationId: string;
  currency: string;
  onDone: Done;
  invoiced?: boolean;
}) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const [open, setOpen] = useState(false);
  const form = useZodForm(chargeForm(f, currency, invoiced), { defaultValues: { description: "", amount: "" } });
  const add = useMutation(
    trpc.folios.addCharge.mutationOptions({
      onSuccess: async (c) => {
        toast.success(`Charged ${c.description}, ${f.money(c.amount)}`);
        setOpen(false);
        form.reset();
        await onDone();
      },
      onError: (e) => showServerError<ChargeForm>(form, e),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), add.reset(), form.clearErrors())}
      title={invoiced ? "Add a late charge" : "Add a charge"}
      size="sm"
      trigger={<Button variant="secondary">{invoiced ? "Late charge" : "Add charge"}</Button>}
    >
      <Form
        form={form}
        aria-label={invoiced ? "Add a late charge" : "Add a charge"}
        onSubmit={(v) => add.mutate({ reservation_id: reservationId, description: v.description, amount: v.amount })}
        className="space-y-3"
      >
        {invoiced ? (
          <p className="text-sm text-stone-600">
            The stay is invoiced, so the charge goes on a supplementary invoice of its own, and the guest owes it until paid.
          </p>
        ) : null}
        <FormError />
        <FormField<ChargeForm> name="description" label="Description">
          {(control) => <Input {...control} placeholder="Minibar" />}
        </FormField>
        <FormField<ChargeForm> name="amount" label={`Amount (${currency})`} hint={invoiced ? undefined : "Negative for a credit."}>
          {(control) => <Input {...control} inputMode="decimal" placeholder={f.sample(currency)} />}
        </FormField>
        <DialogActions label="Add charge" pendingLabel="Adding…" pending={add.isPending} />
      </Form>
    </Dialog>
  );
}

const paymentForm = (f: Formatters, currency: string) =>
  z.object({
    method: z.enum(["card_on_file", "card", "cash", "bank_transfer"]),
    /** On the card on file: only hold the amount (a pre-authorisation), captured at check-out. */
    holdOnly: z.boolean(),
    amount: moneyField(f, currency, "Enter a positive amount.", (minor) => minor > 0),
    number: z.string(),
    exp: z.string(),
    cvc: z.string(),
    reference: z.string(),
  });
type PaymentForm = z.input<ReturnType<typeof paymentForm>>;

/** A card's refusal says so: "Declined: The card was declined." */
const declineWords: ErrorWords = (message, { code }) =>
  code === "card_declined" || code?.endsWith("_card") || code === "insufficient_funds" || code === "incorrect_cvc" ? `Declined: ${message}` : message;

/** The payment method the API takes from the form's fields: the card's expiry "MM/YY" as month and year. */
function paymentMethod(v: z.output<ReturnType<typeof paymentForm>>) {
  if (v.method === "bank_transfer") return { type: "bank_transfer" as const, ...(v.reference.trim() ? { reference: v.reference.trim() } : {}) };
  if (v.method === "cash") return { type: "cash" as const };
  if (v.method === "card_on_file") return { type: "card_on_file" as const };
  const [mm, yy] = v.exp.split("/").map((s) => Number(s.trim()));
  return {
    type: "card" as const,
    number: v.number.replace(/\D/g, ""),
    exp_month: mm || 0,
    exp_year: yy < 100 ? 2000 + yy : yy || 0,
    cvc: v.cvc.trim(),
  };
}

/**
 * Takes a payment: the stay's card on file (charged, or only held until check-out), a sandbox test
 * card, cash or a bank transfer; the amount starts at the balance.
 */
export function PaymentDialog({
  reservationId,
  balance,
  livemode,
  cardOnFile,
  onDone,
  onPaid,
  open,
  onOpenChange,
}: {
  reservationId: string;
  balance: Money;
  livemode: boolean;
  /** The card on file that can be charged, in words ("Visa •••• 4242, expires 12/2031"); null when there is none. */
  cardOnFile?: string | null;
  onDone: Done;
  /** Called once the payment succeeded (after `onDone`), for a flow that goes on from here. */
  onPaid?: () => void;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const form = useZodForm(paymentForm(f, balance.currency), {
    defaultValues: { method: cardOnFile ? "card_on_file" : livemode ? "cash" : "card", holdOnly: false, amount: f.amountText(balance), number: "", exp: "12/30", cvc: "", reference: "" },
  });
  const method = form.watch("method");
  const pay = useMutation(
    trpc.payments.create.mutationOptions({
      onSuccess: async (p) => {
        toast.success(p.status === "authorized" ? `${f.money(p.amount)} held on the card until check-out` : `Payment of ${f.money(p.amount)} received`);
        onOpenChange(false);
        await onDone();
        onPaid?.();
      },
      // A decline is recorded as a failed payment: refresh the folio to show it.
      onError: (e) => (showServerError<PaymentForm>(form, e, {}, declineWords), onDone()),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        onOpenChange(o);
        if (o) {
          pay.reset();
          form.reset({ ...form.getValues(), amount: f.amountText(balance) });
        }
      }}
      title="Take a payment"
      description={`Balance due: ${f.money(balance)}`}
      size="sm"
    >
      <Form
        form={form}
        aria-label="Take a payment"
        onSubmit={(v) => pay.mutate({ reservation_id: reservationId, amount: v.amount, payment_method: paymentMethod(v), capture: !(v.method === "card_on_file" && v.holdOnly) })}
        className="space-y-3"
      >
        <FormError />
        <FormField<PaymentForm> name="method" label="Method">
          {(control) => (
            <Select {...control}>
              {cardOnFile ? <option value="card_on_file">Card on file: {cardOnFile}</option> : null}
              <option value="card">Card{livemode ? "" : " (sandbox test cards)"}</option>
              <option value="cash">Cash</option>
              <option value="bank_transfer">Bank transfer</option>
            </Select>
          )}
        </FormField>
        <FormField<PaymentForm> name="amount" label={`Amount (${balance.currency})`}>
          {(control) => <Input {...control} inputMode="decimal" />}
        </FormField>
        {method === "card_on_file" ? (
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-1 h-4 w-4 accent-teal-700" {...form.register("holdOnly")} />
            <span>
              Only hold it on the card
              <span className="block text-xs text-stone-500">A pre-authorisation: nothing is charged until it is captured at check-out.</span>
            </span>
          </label>
        ) : method === "card" ? (
          <>
            <FormField<PaymentForm>
              name="number"
              label="Card number"
              hint={livemode ? undefined : "Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined."}
            >
              {(control) => <Input {...control} inputMode="numeric" autoComplete="off" placeholder="4242 4242 4242 4242" />}
            </FormField>
            <div className="grid grid-cols-2 gap-3">
              <FormField<PaymentForm> name="exp" label="Expiry (MM/YY)">
                {(control) => <Input {...control} autoComplete="off" />}
              </FormField>
              <FormField<PaymentForm> name="cvc" label="CVC">
                {(control) => <Input {...control} inputMode="numeric" autoComplete="off" placeholder="123" />}
              </FormField>
            </div>
          </>
        ) : method === "bank_transfer" ? (
          <FormField<PaymentForm> name="reference" label="Reference (optional)">
            {(control) => <Input {...control} />}
          </FormField>
        ) : null}
        <DialogActions label="Take payment" pendingLabel="Charging…" pending={pay.isPending} />
      </Form>
    </Dialog>
  );
}

const refundForm = (f: Formatters, currency: string) =>
  z.object({
    amount: moneyField(f, currency, "Enter a positive amount.", (minor) => minor > 0),
    reason: z.string().trim(),
  });
type RefundForm = z.input<ReturnType<typeof refundForm>>;

/**
 * Refunds all or part of a captured payment. The amount starts at what the folio owes the guest
 * (`owed`, when it is in credit), at most what is left of the payment; otherwise at that remainder.
 */
export function RefundDialog({
  payment,
  owed,
  onDone,
}: {
  payment: { id: string; amount: Money; amount_refunded: Money };
  owed: number | null;
  onDone: Done;
}) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const refundable = { amount: payment.amount.amount - payment.amount_refunded.amount, currency: payment.amount.currency };
  const suggested = owed ? { ...refundable, amount: Math.min(owed, refundable.amount) } : refundable;
  const [open, setOpen] = useState(false);
  const form = useZodForm(refundForm(f, refundable.currency), { defaultValues: { amount: f.amountText(suggested), reason: "" } });
  const refund = useMutation(
    trpc.payments.refund.mutationOptions({
      onSuccess: async (r) => {
        toast.success(`Refunded ${f.money(r.amount)}`);
        setOpen(false);
        await onDone();
      },
      onError: (e) => showServerError<RefundForm>(form, e),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), refund.reset(), form.reset({ ...form.getValues(), amount: f.amountText(suggested) }))}
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
      <Form
        form={form}
        aria-label="Refund a payment"
        onSubmit={(v) => refund.mutate({ payment_id: payment.id, amount: v.amount, ...(v.reason ? { reason: v.reason } : {}) })}
        className="space-y-3"
      >
        <FormError />
        <FormField<RefundForm> name="amount" label={`Amount (${refundable.currency})`}>
          {(control) => <Input {...control} inputMode="decimal" />}
        </FormField>
        <FormField<RefundForm> name="reason" label="Reason (optional)">
          {(control) => <Input {...control} />}
        </FormField>
        <DialogActions label="Refund" pendingLabel="Refunding…" pending={refund.isPending} danger />
      </Form>
    </Dialog>
  );
}

/** A hold on the card (a pre-authorisation): captured at check-out, or released. A refusal reads in words. */
export function HoldActions({ payment, onDone }: { payment: { id: string; amount: Money }; onDone: Done }) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const settle = useMutation(
    trpc.payments.settle.mutationOptions({
      onSuccess: async (p) => {
        toast.success(p.status === "succeeded" ? `${f.money(p.amount)} captured` : `The hold of ${f.money(p.amount)} was released`);
        await onDone();
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
  return (
    <>
      <Button variant="secondary" disabled={settle.isPending} onClick={() => settle.mutate({ id: payment.id, to: "captured" })} aria-label={`Capture the hold of ${f.money(payment.amount)}`}>
        Capture
      </Button>
      <Button variant="ghost" disabled={settle.isPending} onClick={() => settle.mutate({ id: payment.id, to: "voided" })} aria-label={`Release the hold of ${f.money(payment.amount)}`}>
        Release
      </Button>
    </>
  );
}
