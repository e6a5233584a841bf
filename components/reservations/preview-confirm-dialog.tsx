"use client";

import type { ReactNode } from "react";
import { callError } from "@/components/trpc/errors";
import { Alert } from "@/components/ui";
import { Dialog, DialogActions } from "@/components/ui/dialog";

/**
 * A change of a stay priced before it is made: the clerk fills the fields, prices it (the same
 * change rolled back on the server), reads the quote, and confirms; any edit asks for a new price.
 * Modify, upgrade and change of departure are this dialog with their own fields and quote.
 */
export function PreviewConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  size,
  trigger,
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
  /** The fields of the change. */
  children: ReactNode;
  /** Why the change cannot be priced (only once asked). */
  previewError: unknown;
  /** Why the change was refused when confirmed. */
  applyError: unknown;
  /** The quote, once the change as it stands is priced; null until then (and after an edit). */
  quote: ReactNode | null;
  /** The button that asks for a price. */
  price: { label: string; disabled: boolean; pending: boolean; onClick: () => void };
  /** The button that makes the priced change. */
  confirm: { label: string; pending: boolean; onClick: () => void };
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} size={size} trigger={trigger}>
      <div className="space-y-3">
        {children}
        {previewError ? <Alert>{callError(previewError).message}</Alert> : null}
        {applyError ? <Alert>{callError(applyError).message}</Alert> : null}
        {quote}
        {quote ? (
          <DialogActions label={confirm.label} pendingLabel="Saving…" pending={confirm.pending} onClick={confirm.onClick} />
        ) : (
          <DialogActions label={price.label} pendingLabel="Pricing…" pending={price.pending} disabled={price.disabled || price.pending} onClick={price.onClick} />
        )}
      </div>
    </Dialog>
  );
}
