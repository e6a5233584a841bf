"use client";

import * as AlertDialogPrimitive from "@radix-ui/react-alert-dialog";
import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Alert, Button, cx } from "./index";

const overlay = "fixed inset-0 z-40 bg-stone-900/40 data-[state=open]:animate-in";
const panel =
  "fixed z-50 max-h-[90vh] w-[calc(100vw-1.5rem)] overflow-y-auto rounded-lg bg-white p-5 shadow-xl ring-1 ring-stone-200 focus:outline-none left-1/2 top-1/2 -translate-x-1/2 -translate-y-1/2";

type DialogProps = {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  /** The button (or other element) that opens it, when the dialog manages its own state. */
  trigger?: ReactNode;
  title: string;
  description?: ReactNode;
  /** max width: sm 28rem, md 36rem, lg 48rem */
  size?: "sm" | "md" | "lg";
  /**
   * false: only a button inside closes it (no Escape, no click outside, no ×), for what is lost
   * when it closes, such as a secret shown once.
   */
  dismissible?: boolean;
  children: ReactNode;
};

const keepOpen = (event: Event) => event.preventDefault();

/** A modal dialog (Radix): focus trapped inside, Escape and the close button close it (unless not `dismissible`). */
export function Dialog({ open, onOpenChange, trigger, title, description, size = "md", dismissible = true, children }: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger> : null}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className={overlay} />
        <DialogPrimitive.Content
          className={cx(panel, size === "sm" && "max-w-md", size === "md" && "max-w-xl", size === "lg" && "max-w-3xl")}
          {...(description ? {} : { "aria-describedby": undefined })}
          {...(dismissible ? {} : { onEscapeKeyDown: keepOpen, onPointerDownOutside: keepOpen, onInteractOutside: keepOpen })}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <DialogPrimitive.Title className="text-base font-semibold text-stone-900">{title}</DialogPrimitive.Title>
              {description ? <DialogPrimitive.Description className="mt-1 text-sm text-stone-500">{description}</DialogPrimitive.Description> : null}
            </div>
            {dismissible ? (
              <DialogPrimitive.Close className="rounded p-1 text-stone-500 hover:bg-stone-100 hover:text-stone-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-teal-600" aria-label="Close">
                <X className="h-4 w-4" aria-hidden />
              </DialogPrimitive.Close>
            ) : null}
          </div>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** Closes the enclosing Dialog when clicked (wrap a Cancel button). */
export const DialogClose = DialogPrimitive.Close;

type ConfirmProps = {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** Destructive actions (delete, revoke, cancel a booking) get a red button. */
  danger?: boolean;
  pending?: boolean;
  /** A failed confirmation's message, shown in the dialog so the user can retry or cancel. */
  error?: string | null;
  onConfirm: () => void;
  children?: ReactNode;
};

/**
 * Asks before an action that cannot be undone (Radix AlertDialog: focus starts on Cancel,
 * Escape cancels). The dialog stays open while the action runs and shows its error, if any.
 */
export function ConfirmDialog({ open, onOpenChange, trigger, title, description, confirmLabel, danger, pending, error, onConfirm, children }: ConfirmProps) {
  return (
    <AlertDialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <AlertDialogPrimitive.Trigger asChild>{trigger}</AlertDialogPrimitive.Trigger> : null}
      <AlertDialogPrimitive.Portal>
        <AlertDialogPrimitive.Overlay className={overlay} />
        <AlertDialogPrimitive.Content className={cx(panel, "max-w-md")}>
          <AlertDialogPrimitive.Title className="text-base font-semibold text-stone-900">{title}</AlertDialogPrimitive.Title>
          <AlertDialogPrimitive.Description asChild>
            <div className="mt-2 text-sm text-stone-600">{description}</div>
          </AlertDialogPrimitive.Description>
          {children ? <div className="mt-3">{children}</div> : null}
          {error ? (
            <div className="mt-3">
              <Alert>{error}</Alert>
            </div>
          ) : null}
          <div className="mt-5 flex flex-wrap justify-end gap-2">
            <AlertDialogPrimitive.Cancel asChild>
              <Button variant="secondary">Cancel</Button>
            </AlertDialogPrimitive.Cancel>
            <Button
              variant={danger ? "danger" : "primary"}
              disabled={pending}
              onClick={(event) => {
                // Stay open until the action settles; the caller closes it on success.
                event.preventDefault();
                onConfirm();
              }}
            >
              {pending ? "Working…" : confirmLabel}
            </Button>
          </div>
        </AlertDialogPrimitive.Content>
      </AlertDialogPrimitive.Portal>
    </AlertDialogPrimitive.Root>
  );
}

/**
 * A dialog's footer: Cancel (closes the dialog) and the action's button, which says what it is
 * doing while the action runs. The button submits the dialog's form, or, given `onClick`, runs
 * that (a dialog without a form). `disabled` defaults to `pending`.
 */
export function DialogActions({
  label,
  pendingLabel,
  pending,
  disabled,
  danger,
  onClick,
  className,
}: {
  label: string;
  pendingLabel: string;
  pending: boolean;
  disabled?: boolean;
  danger?: boolean;
  onClick?: () => void;
  className?: string;
}) {
  return (
    <div className={className ?? "flex flex-wrap justify-end gap-2"}>
      <DialogClose asChild>
        <Button type="button" variant="secondary">
          Cancel
        </Button>
      </DialogClose>
      <Button type={onClick ? "button" : "submit"} variant={danger ? "danger" : "primary"} disabled={disabled ?? pending} onClick={onClick}>
        {pending ? pendingLabel : label}
      </Button>
    </div>
  );
}
