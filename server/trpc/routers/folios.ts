import { z } from "zod";
import { chargeFolio, invoiceFolio } from "@/server/invoices/folio-actions";
import { chargeCreateSchema, getReservationFolio } from "@/server/folios/folios";
import { creditInvoiceAudited } from "@/server/invoices/audited";
import { getCreditNote } from "@/server/invoices/credit-notes";
import { getInvoice } from "@/server/invoices/invoices";
import { creditNoteFilename, invoiceFilename, renderCreditNotePdf, renderInvoicePdf } from "@/server/invoices/pdf";
import { creditNoteCreateSchema } from "@/server/invoices/schemas";
import { access } from "@/lib/access";
import { ApiError } from "@/server/errors";
import { roles, router, staffProcedure } from "../init";

// The same schemas and services as /v1/reservations/{id}/folio, /v1/folios/{id}/charges,
// /v1/folios/{id}/invoice, /v1/invoices/{id}/pdf, /v1/invoices/{id}/credit_notes and /v1/credit_notes/{id}/pdf.
const folioProcedure = staffProcedure.use(roles(...access.reservations));
const id = z.string().min(1).max(64);

export const foliosRouter = router({
  /** A reservation's folio: charges, payments, refunds and balance. */
  get: folioProcedure
    .input(z.strictObject({ reservation_id: id }))
    .query(({ ctx, input }) => getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId: input.reservation_id })),
  /** An extra charge (or, negative, a credit) on the reservation's open folio. */
  addCharge: folioProcedure.input(chargeCreateSchema.extend({ reservation_id: id })).mutation(async ({ ctx, input: { reservation_id, ...body } }) => {
    const folio = await getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId: reservation_id });
    return chargeFolio({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, folioId: folio.id, input: body });
  }),
  /** Closes the folio of a stay that ended without a check-out (cancelled, no-show) into its invoice. */
  issueInvoice: folioProcedure.input(z.strictObject({ reservation_id: id })).mutation(async ({ ctx, input }) => {
    const folio = await getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId: input.reservation_id });
    return invoiceFolio({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, folioId: folio.id });
  }),
  /** An issued invoice as a PDF file, for the dashboard's download (app/(dashboard)/invoices/[id]/pdf). */
  invoicePdf: folioProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const invoice = await getInvoice({ db: ctx.db, tenant: ctx.tenant, id: input.id });
    return { body: await renderInvoicePdf(invoice), filename: invoiceFilename(invoice), number: invoice.number };
  }),
  /** Credits the stay's invoice (an allowance, a correction): a credit note posted on the business date. */
  creditInvoice: folioProcedure
    .input(creditNoteCreateSchema.pick({ amount: true, reason: true }).extend({ reservation_id: id }))
    .mutation(async ({ ctx, input: { reservation_id, ...body } }) => {
      const folio = await getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId: reservation_id });
      if (!folio.invoice_id) throw new ApiError("invalid_state_transition", "The folio has no invoice yet; a charge or a credit goes on the folio until it is invoiced.");
      return creditInvoiceAudited({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, invoiceId: folio.invoice_id, input: body });
    }),
  /** An issued credit note as a PDF file, for the dashboard's download (app/(dashboard)/credit-notes/[id]/pdf). */
  creditNotePdf: folioProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const note = await getCreditNote({ db: ctx.db, tenant: ctx.tenant, id: input.id });
    return { body: await renderCreditNotePdf(note), filename: creditNoteFilename(note), number: note.number };
  }),
});
