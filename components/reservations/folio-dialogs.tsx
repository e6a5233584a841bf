"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { z } from "zod";
import { useTRPC, useTRPCClient } from "@/components/trpc/client";
import { CardEntryError, completeBankCheck, StripeCardElements, StripeCardField, useCardEntry } from "@/components/processors/stripe-card";
import { guaranteeWords } from "./format";
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
export const declineWords: ErrorWords = (message, { code }) =>
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

/** Live mode with Stripe connected but no publishable key: the desk cannot type a new card. */
const noPublishableKey =
  "A new card is taken through Stripe's card form, which needs the Stripe account's publishable key: an owner adds it in Settings. Until then charge the card on file, or take cash or a bank transfer.";
const noProcessor = "Live card payments need a connected Stripe account: an owner connects it in Settings. Until then take cash or a bank transfer.";

/**
 * After the server answered that the guest's bank asks for their own check (3-D Secure): Stripe.js
 * shows the bank's check (in Stripe's own frame, so the dialog has closed first), then the server
 * settles the payment or the card on file to what Stripe holds now, and the outcome is said in
 * words. Runs on after the dialog is gone; `onDone` refreshes the page's data.
 */
export function useBankCheck() {
  const client = useTRPCClient();
  const f = usePropertyFormat();
  return {
    /** True once the payment is settled as paid or held. */
    async payment(publishableKey: string, payment: { id: string; next_action: { client_secret: string } | null }, onDone: Done): Promise<boolean> {
      if (!payment.next_action) return false;
      let settled = false;
      toast.info("The guest's bank asks them to confirm the payment: hand them the screen.");
      await completeBankCheck(publishableKey, payment.next_action.client_secret, "payment");
      try {
        const p = await client.payments.refresh.mutate({ id: payment.id });
        settled = p.status === "succeeded" || p.status === "authorized";
        if (p.status === "succeeded") toast.success(`The guest's bank confirmed it: payment of ${f.money(p.amount)} received`);
        else if (p.status === "authorized") toast.success(`The guest's bank confirmed it: ${f.money(p.amount)} held on the card until check-out`);
        else if (p.status === "failed") toast.error(`The payment did not go through: ${p.failure_message ?? "the card was declined."}`);
        else toast.warning("The guest has not finished their bank's check: the payment waits on the folio until they do.");
      } catch (error) {
        toast.error(callError(error).message);
      }
      await onDone();
      return settled;
    },
    async guarantee(publishableKey: string, reservationId: string, clientSecret: string, onDone: Done) {
      toast.info("The guest's bank asks them to confirm the card: hand them the screen.");
      await completeBankCheck(publishableKey, clientSecret, "setup");
      try {
        const { reservation, setup } = await client.reservations.refreshGuarantee.mutate({ id: reservationId });
        const card = reservation.guarantee ? guaranteeWords(reservation.guarantee) : "The card";
        if (setup?.status === "failed") toast.error(setup.message ?? "The guest's bank refused the card: it is not on file.");
        else if (reservation.guarantee?.status === "active") toast.success(`The guest's bank confirmed it: ${card} is on file`);
        else toast.warning("The guest has not finished their bank's check: the card cannot be charged until they do.");
      } catch (error) {
        toast.error(callError(error).message);
      }
      await onDone();
    },
  };
}

/** A payment still waiting on the guest's bank check: its check again, in Stripe's frame, then the outcome in words. */
export function BankCheckButton({ publishableKey, payment, onDone }: { publishableKey: string; payment: { id: string; next_action: { client_secret: string } }; onDone: Done }) {
  const bankCheck = useBankCheck();
  const [checking, setChecking] = useState(false);
  return (
    <Button
      variant="secondary"
      disabled={checking}
      onClick={async () => {
        setChecking(true);
        await bankCheck.payment(publishableKey, payment, onDone);
        setChecking(false);
      }}
    >
      {checking ? "Waiting for the bank…" : "Ask the guest's bank again"}
    </Button>
  );
}

/**
 * Takes a payment: the stay's card on file (charged, or only held until check-out), a new card,
 * cash or a bank transfer; the amount starts at the balance. Where the property's cards go through
 * Stripe, a new card is typed in Stripe's Payment Element and only Stripe's payment method reaches
 * the server; otherwise (the sandbox) the test card numbers are typed here.
 */
export function PaymentDialog({
  reservationId,
  propertyId,
  balance,
  livemode,
  cardOnFile,
  onDone,
  onPaid,
  open,
  onOpenChange,
}: {
  reservationId: string;
  /** The stay's property: whose Stripe account (if any) takes the card. */
  propertyId: string;
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
  const entry = useCardEntry(propertyId);
  const publishableKey = entry.data?.publishable_key ?? null;
  const bankCheck = useBankCheck();
  /** Stripe's payment method for the card typed in the Payment Element (set by the element once mounted). */
  const stripeCard = useRef<(() => Promise<string>) | null>(null);
  const form = useZodForm(paymentForm(f, balance.currency), {
    defaultValues: { method: cardOnFile ? "card_on_file" : livemode ? "cash" : "card", holdOnly: false, amount: f.amountText(balance), number: "", exp: "12/30", cvc: "", reference: "" },
  });
  const method = form.watch("method");
  const typed = f.parse(form.watch("amount"), balance.currency);
  const create = useMutation(trpc.payments.create.mutationOptions());
  const pay = useMutation({
    mutationFn: async (v: z.output<ReturnType<typeof paymentForm>>) => {
      let payment_method: ReturnType<typeof paymentMethod> | { type: "card"; processor_payment_method: string } = paymentMethod(v);
      if (v.method === "card" && publishableKey) {
        if (!stripeCard.current) throw new CardEntryError("Stripe's card form is still loading; try again in a moment.");
        payment_method = { type: "card", processor_payment_method: await stripeCard.current() };
      } else if (v.method === "card" && livemode) {
        throw new CardEntryError(entry.data ? noPublishableKey : noProcessor);
      }
      return create.mutateAsync({ reservation_id: reservationId, amount: v.amount, payment_method, capture: !(v.method === "card_on_file" && v.holdOnly) });
    },
    onSuccess: async (p) => {
      onOpenChange(false);
      if (p.status === "pending" && p.next_action && publishableKey) {
        // The guest's bank asks for their check: Stripe.js shows it, then the server settles the payment.
        if (await bankCheck.payment(publishableKey, p, onDone)) onPaid?.();
        return;
      }
      toast.success(p.status === "authorized" ? `${f.money(p.amount)} held on the card until check-out` : `Payment of ${f.money(p.amount)} received`);
      await onDone();
      onPaid?.();
    },
    // A refusal in the browser is said as it is; a decline is recorded as a failed payment: refresh the folio to show it.
    onError: (e) =>
      e instanceof CardEntryError ? form.setError("root.server", { type: "server", message: e.message }) : (showServerError<PaymentForm>(form, e, {}, declineWords), onDone()),
  });
  const stripeFields = method === "card" && publishableKey;
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
      <Form form={form} aria-label="Take a payment" onSubmit={(v) => pay.mutate(v)} className="space-y-3">
        <FormError />
        <FormField<PaymentForm> name="method" label="Method">
          {(control) => (
            <Select {...control}>
              {cardOnFile ? <option value="card_on_file">Card on file: {cardOnFile}</option> : null}
              <option value="card">{publishableKey ? "New card" : livemode ? "Card" : "Card (sandbox test cards)"}</option>
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
        ) : stripeFields ? (
          <StripeCardElements
            publishableKey={publishableKey}
            // What Stripe shows wallets and checks against: the amount typed (while it is not a valid amount, the balance).
            purpose={{ mode: "payment", amount: Math.max(typed ?? balance.amount, 1), hold: false }}
            currency={balance.currency}
          >
            <StripeCardField label="Card" paymentMethodRef={stripeCard} />
            {entry.data?.mode === "test" ? <p className="text-xs text-stone-500">Stripe test mode: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks for the bank&apos;s check.</p> : null}
          </StripeCardElements>
        ) : method === "card" && livemode ? (
          <p className="text-sm text-stone-600">{entry.isPending ? "Loading the card form…" : entry.data ? noPublishableKey : noProcessor}</p>
        ) : method === "card" ? (
          <>
            <FormField<PaymentForm>
              name="number"
              label="Card number"
              hint="Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined."
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
export function HoldActions({ payment, uncovered = 0, onDone }: { payment: { id: string; amount: Money }; uncovered?: number; onDone: Done }) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  // The stay grew past what the card holds: the hold raised by what is not covered.
  const more = { amount: uncovered, currency: payment.amount.currency };
  const raise = useMutation(
    trpc.payments.raiseHold.mutationOptions({
      onSuccess: async (p) => {
        toast.success(p.id === payment.id ? `The card now holds ${f.money(p.amount)}` : `The card's bank does not let a hold grow: ${f.money(p.amount)} more is held apart`);
        await onDone();
      },
      onError: (e) => toast.error(callError(e).message),
    }),
  );
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
      {uncovered > 0 ? (
        <Button
          variant="secondary"
          disabled={raise.isPending || settle.isPending}
          onClick={() => raise.mutate({ id: payment.id, amount: payment.amount.amount + uncovered })}
          aria-label={`Hold ${f.money(more)} more on the card, for what the stay now costs beyond the hold`}
        >
          Hold {f.money(more)} more
        </Button>
      ) : null}
      <Button variant="secondary" disabled={settle.isPending} onClick={() => settle.mutate({ id: payment.id, to: "captured" })} aria-label={`Capture the hold of ${f.money(payment.amount)}`}>
        Capture
      </Button>
      <Button variant="ghost" disabled={settle.isPending} onClick={() => settle.mutate({ id: payment.id, to: "voided" })} aria-label={`Release the hold of ${f.money(payment.amount)}`}>
        Release
      </Button>
    </>
  );
}
