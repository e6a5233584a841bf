"use client";

import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/trpc/client";
import { Button, Input } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form, FormError, FormField, showServerError, useZodForm } from "@/components/ui/form";
import { usePropertyFormat, type Formatters } from "@/components/ui/property-format";
import { toast } from "@/components/ui/toaster";

/** The form: an amount as the property writes money, and why. */
const creditForm = (f: Formatters, currency: string) =>
  z.object({
    amount: z
      .string()
      .trim()
      .refine((text) => (f.parse(text, currency) ?? 0) > 0, `Enter the amount to credit, such as ${f.sample(currency)}.`),
    reason: z.string().trim().min(1, "Say why: it is printed on the credit note.").max(500, "At most 500 characters."),
  });
type CreditForm = z.input<ReturnType<typeof creditForm>>;

/**
 * Issues a credit note on the stay's invoice (an allowance, a correction after check-out): the
 * invoice stays as issued, the credit posts on today's business date, and the folio then owes
 * the guest the amount (refund it, or keep it against another charge).
 */
export function CreditNoteDialog({ reservationId, currency, onDone }: { reservationId: string; currency: string; onDone: () => Promise<void> | void }) {
  const trpc = useTRPC();
  const f = usePropertyFormat();
  const [open, setOpen] = useState(false);
  const form = useZodForm(creditForm(f, currency), { defaultValues: { amount: "", reason: "" } });
  const credit = useMutation(
    trpc.folios.creditInvoice.mutationOptions({
      onSuccess: async (note) => {
        toast.success(`Credit note ${note.number} issued: ${f.money({ ...note.totals.gross, amount: -note.totals.gross.amount })} credited.`);
        setOpen(false);
        form.reset();
        await onDone();
      },
      onError: (e) => showServerError<CreditForm>(form, e),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (setOpen(o), credit.reset(), form.reset())}
      title="Issue a credit note"
      description="The invoice stays as issued; the credit note takes the amount off it, dated today."
      size="sm"
      trigger={<Button variant="secondary">Issue credit note</Button>}
    >
      <Form form={form} aria-label="Issue a credit note" onSubmit={(v) => credit.mutate({ reservation_id: reservationId, amount: f.parse(v.amount, currency)!, reason: v.reason })}>
        <div className="space-y-3">
          <FormField<CreditForm> name="amount" label={`Amount (${currency})`} hint="Taxes included; spread over the invoice's lines.">
            {(control) => <Input {...control} inputMode="decimal" placeholder={f.sample(currency)} />}
          </FormField>
          <FormField<CreditForm> name="reason" label="Reason">
            {(control) => <Input {...control} placeholder="Air conditioning out of order" />}
          </FormField>
          <FormError />
          <DialogActions label="Issue credit note" pendingLabel="Issuing…" pending={credit.isPending} />
        </div>
      </Form>
    </Dialog>
  );
}
