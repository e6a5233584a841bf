import type { creditNotes, invoices } from "@/db/schema";
import { isoTime } from "@/lib/dates";
import type { CreditNoteBody, InvoiceBody } from "./schemas";

/** The invoice: its keys, and the snapshot taken when it was issued, never recomputed. */
export const presentInvoice = (i: typeof invoices.$inferSelect) => ({
  id: i.id,
  object: "invoice" as const,
  livemode: i.livemode,
  property_id: i.propertyId,
  folio_id: i.folioId,
  reservation_id: i.reservationId,
  number: i.number,
  currency: i.currency,
  ...(i.snapshot as InvoiceBody),
  // Invoices issued before supplementary invoices existed (migration 0032) supplement none.
  supplements: (i.snapshot as Partial<InvoiceBody>).supplements ?? null,
  created_at: isoTime(i.createdAt),
});

export type PresentedInvoice = ReturnType<typeof presentInvoice>;

/** The credit note: its keys, and the snapshot taken when it was issued. */
export const presentCreditNote = (n: typeof creditNotes.$inferSelect) => ({
  id: n.id,
  object: "credit_note" as const,
  livemode: n.livemode,
  property_id: n.propertyId,
  invoice_id: n.invoiceId,
  folio_id: n.folioId,
  reservation_id: n.reservationId,
  refund_id: n.refundId,
  number: n.number,
  currency: n.currency,
  ...(n.snapshot as CreditNoteBody),
  created_at: isoTime(n.createdAt),
});

export type PresentedCreditNote = ReturnType<typeof presentCreditNote>;
