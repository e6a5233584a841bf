import type { ChangeCtx } from "@/server/audit/audit";
import { auditedFolioChange } from "@/server/folios/folio-change";
import { creditInvoice, type CreditRequest } from "./credit-notes";
import { getInvoice } from "./invoices";

/** Credits an issued invoice (POST /v1/invoices/{id}/credit_notes and the dashboard), on the reservation's trail in the same transaction. */
export async function creditInvoiceAudited({ db, tenant, actor, invoiceId, input }: ChangeCtx & { invoiceId: string; input: CreditRequest }) {
  const invoice = await getInvoice({ db, tenant, id: invoiceId });
  return auditedFolioChange({
    db,
    tenant,
    actor,
    reservationId: invoice.reservation_id,
    action: "reservation.credit_note_issued",
    run: (tx) => creditInvoice({ db: tx, tenant, invoiceId, input }),
    describe: (note) => ({ credit_note: creditNoteTrail(note) }),
  });
}

/** What the trail keeps of a credit note: its number, the invoice's, the amount and why. */
export const creditNoteTrail = (note: { number: number; invoice_number: number; totals: { gross: { amount: number; currency: string } }; reason: string }) => ({
  number: note.number,
  invoice_number: note.invoice_number,
  total: note.totals.gross,
  reason: note.reason,
});
