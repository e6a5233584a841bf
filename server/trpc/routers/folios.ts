import { z } from "zod";
import { auditedFolioChange } from "@/server/audit/folio-change";
import { addCharge, chargeCreateSchema, getReservationFolio } from "@/server/folios/folios";
import { closeFolioIntoInvoice, getInvoice } from "@/server/invoices/invoices";
import { invoiceFilename, renderInvoicePdf } from "@/server/invoices/pdf";
import { access } from "@/server/staff/access";
import { roles, router, staffProcedure } from "../init";

// The same schemas and services as /v1/reservations/{id}/folio, /v1/folios/{id}/charges,
// /v1/folios/{id}/invoice and /v1/invoices/{id}/pdf.
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
    return auditedFolioChange({
      db: ctx.db,
      tenant: ctx.tenant,
      actor: ctx.user,
      reservationId: reservation_id,
      action: "reservation.charge_added",
      run: (tx) => addCharge({ db: tx, tenant: ctx.tenant, folioId: folio.id, input: body }),
      describe: (charge) => ({ charge: { description: charge.description, amount: charge.amount } }),
    });
  }),
  /** Closes the folio of a stay that ended without a check-out (cancelled, no-show) into its invoice. */
  issueInvoice: folioProcedure.input(z.strictObject({ reservation_id: id })).mutation(async ({ ctx, input }) => {
    const folio = await getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId: input.reservation_id });
    return auditedFolioChange({
      db: ctx.db,
      tenant: ctx.tenant,
      actor: ctx.user,
      reservationId: input.reservation_id,
      action: "reservation.invoice_issued",
      run: (tx) => closeFolioIntoInvoice({ db: tx, tenant: ctx.tenant, folioId: folio.id }),
      describe: (invoice) => ({ invoice: { number: invoice.number, total: invoice.totals.gross } }),
    });
  }),
  /** An issued invoice as a PDF file, for the dashboard's download (app/(dashboard)/invoices/[id]/pdf). */
  invoicePdf: folioProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const invoice = await getInvoice({ db: ctx.db, tenant: ctx.tenant, id: input.id });
    return { body: await renderInvoicePdf(invoice), filename: invoiceFilename(invoice), number: invoice.number };
  }),
});
