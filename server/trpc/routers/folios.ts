import { z } from "zod";
import { chargeFolio, invoiceFolio } from "@/server/folios/audited";
import { chargeCreateSchema, getReservationFolio } from "@/server/folios/folios";
import { getInvoice } from "@/server/invoices/invoices";
import { invoiceFilename, renderInvoicePdf } from "@/server/invoices/pdf";
import { access } from "@/lib/access";
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
});
