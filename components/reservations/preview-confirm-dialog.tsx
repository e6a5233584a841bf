"use client";

import type { ReactNode } from "react";
import type { FieldValues, SubmitHandler, UseFormReturn } from "react-hook-form";
import { callError } from "@/components/trpc/errors";
import { Alert } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form";

/**
 * A change of a stay priced before it is made: the clerk fills the fields, prices it (the same
 * change rolled back on the server), reads the quote, and confirms; any edit asks for a new price.
 * Modify, upgrade and change of departure are this dialog with their own form and quote: pricing
 * submits the form (checked by its schema), confirming makes the change priced.
 */
export function PreviewConfirmDialog<In extends FieldValues, Out>({
  open,
  onOpenChange,
  title,
  description,
  size,
  trigger,
  form,
  children,
  previewError,
  applyError,
  quote,
  price,
  confirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  size?: "sm";
  trigger: ReactNode;
  /** The change's form (useZodForm). */
  form: UseFormReturn<In, unknown, Out>;
  /** The fields of the change. */
  children: ReactNode;
  /** Why the change cannot be priced (only once asked). */
  previewError: unknown;
  /** Why the change was refused when confirmed. */
  applyError: unknown;
  /** The quote, once the change as it stands is priced; null until then (and after an edit). */
  quote: ReactNode | null;
  /** The button that asks for a price: it submits the form with the change as it stands. */
  price: { label: string; disabled: boolean; pending: boolean; onSubmit: SubmitHandler<Out> };
  /** The button that makes the priced change. */
  confirm: { label: string; pending: boolean; onClick: () => void };
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} size={size} trigger={trigger}>
      <Form form={form} onSubmit={price.onSubmit} className="space-y-3">
        {children}
        {previewError ? <Alert>{callError(previewError).message}</Alert> : null}
        {applyError ? <Alert>{callError(applyError).message}</Alert> : null}
        {quote}
        {quote ? (
          <DialogActions label={confirm.label} pendingLabel="Saving…" pending={confirm.pending} onClick={confirm.onClick} />
        ) : (
          <DialogActions label={price.label} pendingLabel="Pricing…" pending={price.pending} disabled={price.disabled || price.pending} />
        )}
      </Form>
    </Dialog>
  );
}
