"use client";

import { useMutation } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { z } from "zod";
import { CardEntryError, StripeCardElements, StripeCardField, useCardEntry } from "@/components/processors/stripe-card";
import { useTRPC } from "@/components/trpc/client";
import { Button } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, showServerError, useZodForm } from "@/components/ui/form";
import { toast } from "@/components/ui/toaster";
import { declineWords, useBankCheck } from "./folio-dialogs";
import { guaranteeWords } from "./format";

type Guarantee = Parameters<typeof guaranteeWords>[0] & { next_action: { client_secret: string } | null };
type Stay = { id: string; status: string; property_id: string; currency: string; guarantee: Guarantee | null };
type Done = () => Promise<void> | void;

/**
 * The reservation's card on file: what it is, in words, and, while the stay is booked or in house
 * and its property takes cards through Stripe, "Put a card on file" or "Replace the card" (Stripe's
 * Payment Element) and, for a card still waiting on the guest's bank, its check again.
 */
export function CardOnFile({ stay, onDone }: { stay: Stay; onDone: Done }) {
  const entry = useCardEntry(stay.property_id);
  const bankCheck = useBankCheck();
  const [checking, setChecking] = useState(false);
  const publishableKey = entry.data?.publishable_key ?? null;
  const takesCards = stay.status === "confirmed" || stay.status === "checked_in";
  const g = stay.guarantee;
  return (
    <div className="space-y-2">
      <p>{g ? guaranteeWords(g) : "None"}</p>
      {takesCards && publishableKey ? (
        <div className="flex flex-wrap gap-2">
          {g?.status === "requires_action" && g.next_action ? (
            <Button
              variant="secondary"
              disabled={checking}
              onClick={async () => {
                setChecking(true);
                await bankCheck.guarantee(publishableKey, stay.id, g.next_action!.client_secret, onDone);
                setChecking(false);
              }}
            >
              {checking ? "Waiting for the bank…" : "Ask the guest's bank again"}
            </Button>
          ) : null}
          <GuaranteeDialog stay={stay} publishableKey={publishableKey} testMode={entry.data?.mode === "test"} onDone={onDone} />
        </div>
      ) : takesCards && entry.data ? (
        <p className="text-xs text-stone-500">To put a card on file here, an owner adds the Stripe account&apos;s publishable key in Settings.</p>
      ) : null}
    </div>
  );
}

const guaranteeForm = z.object({});

/** A new card for the stay's guarantee, typed in Stripe's Payment Element and saved at the hotel's Stripe account by the server. */
function GuaranteeDialog({ stay, publishableKey, testMode, onDone }: { stay: Stay; publishableKey: string; testMode: boolean; onDone: Done }) {
  const trpc = useTRPC();
  const bankCheck = useBankCheck();
  const [open, setOpen] = useState(false);
  const stripeCard = useRef<(() => Promise<string>) | null>(null);
  const form = useZodForm(guaranteeForm, { defaultValues: {} });
  const save = useMutation(trpc.reservations.guarantee.mutationOptions());
  const put = useMutation({
    mutationFn: async () => {
      if (!stripeCard.current) throw new CardEntryError("Stripe's card form is still loading; try again in a moment.");
      return save.mutateAsync({ id: stay.id, processor_payment_method: await stripeCard.current() });
    },
    onSuccess: async (r) => {
      setOpen(false);
      const g = r.guarantee;
      if (g?.status === "requires_action" && g.next_action) {
        await bankCheck.guarantee(publishableKey, stay.id, g.next_action.client_secret, onDone);
        return;
      }
      toast.success(g ? `Card on file: ${guaranteeWords(g)}` : "Card on file");
      await onDone();
    },
    onError: (e) =>
      e instanceof CardEntryError ? form.setError("root.server", { type: "server", message: e.message }) : showServerError(form, e, {}, declineWords),
  });
  const label = stay.guarantee ? "Replace the card" : "Put a card on file";
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), put.reset(), form.clearErrors())}
      title={label}
      description="Saved at the hotel's Stripe account and charged later without the guest: a hold at check-in, a no-show fee."
      size="sm"
      trigger={<Button variant="secondary">{label}</Button>}
    >
      <Form form={form} aria-label={label} onSubmit={() => put.mutate()} className="space-y-3">
        <FormError />
        <StripeCardElements publishableKey={publishableKey} purpose={{ mode: "setup" }} currency={stay.currency}>
          <StripeCardField label="Card" paymentMethodRef={stripeCard} />
        </StripeCardElements>
        {testMode ? (
          <p className="text-xs text-stone-500">
            Stripe test mode: 4242 4242 4242 4242 is saved, 4000 0000 0000 0002 is declined, 4000 0025 0000 3155 asks for the bank&apos;s check.
          </p>
        ) : null}
        <DialogActions label="Save the card" pendingLabel="Saving…" pending={put.isPending} />
      </Form>
    </Dialog>
  );
}
