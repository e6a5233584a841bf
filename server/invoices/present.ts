import type { invoices } from "@/db/schema";
import { isoTime } from "@/lib/dates";
import type { InvoiceBody } from "./schemas";

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
  created_at: isoTime(i.createdAt),
});

export type PresentedInvoice = ReturnType<typeof presentInvoice>;
