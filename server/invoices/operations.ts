import { z } from "@hono/zod-openapi";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { emptyActionSchema, idParam } from "@/server/schemas";
import { invoiceFolio } from "./folio-actions";
import { creditInvoiceAudited } from "./audited";
import { getCreditNote, listCreditNotes } from "./credit-notes";
import { getInvoice, listInvoices } from "./invoices";
import { creditNoteFilename, invoiceFilename, renderCreditNotePdf, renderInvoicePdf } from "./pdf";
import { presentCreditNote, presentInvoice } from "./present";
import { creditNoteCreateSchema, creditNoteListQuery, creditNoteSchema, invoiceListQuery, invoiceSchema } from "./schemas";

const tag = "Invoices";

export const invoiceOperations = [
  // POST /v1/folios/{id}/invoice: close a folio into its invoice
  defineOperation({
    method: "post", path: "/folios/{id}/invoice", operationId: "createFolioInvoice", summary: "Close a folio into an invoice", tag, scope: "reservations:write",
    description:
      "Requires scope `reservations:write`. Closes the folio and issues its invoice with the property's next number (gapless: 1, 2, 3…). Check-out does this by itself; this is for a folio whose stay ended otherwise (cancelled, no-show) or was checked out before invoices existed. A stay to come or in house, a folio with no charges (a free cancellation: nothing to bill), or a folio already invoiced, answers 409 `invalid_state_transition`. Emits `invoice.created`.",
    params: idParam("fol"), body: emptyActionSchema, response: invoiceSchema,
    errors: ["invalid_state_transition"],
    handler: async ({ ctx, params }) => invoiceFolio({ ...ctx, folioId: params.id }),
  }),
  // GET /v1/invoices: issued invoices, of a property or a reservation
  defineOperation({
    method: "get", path: "/invoices", operationId: "listInvoices", summary: "List invoices", tag, scope: "reservations:read",
    query: invoiceListQuery, list: true, response: listSchema(invoiceSchema, "InvoiceList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listInvoices({ ...ctx, filters: query, page: list.page }), presentInvoice),
  }),
  // GET /v1/invoices/{id}: an issued invoice, as issued
  defineOperation({
    method: "get", path: "/invoices/{id}", operationId: "getInvoice", summary: "Retrieve an invoice", tag, scope: "reservations:read",
    params: idParam("inv"), response: invoiceSchema,
    handler: async ({ ctx, params }) => getInvoice({ ...ctx, id: params.id }),
  }),
  // GET /v1/invoices/{id}/pdf: the invoice as a PDF document
  defineOperation({
    method: "get", path: "/invoices/{id}/pdf", operationId: "getInvoicePdf", summary: "Download an invoice as PDF", tag, scope: "reservations:read",
    description: "Requires scope `reservations:read`. The invoice rendered as `application/pdf`, as an attachment named after the hotel and the number.",
    params: idParam("inv"), response: z.string().openapi({ format: "binary" }), pdf: true,
    handler: async ({ ctx, params, c }) => {
      const invoice = await getInvoice({ ...ctx, id: params.id });
      const pdf = await renderInvoicePdf(invoice);
      return c.body(new Uint8Array(pdf), 200, {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="invoice-${invoice.number}.pdf"; filename*=UTF-8''${encodeURIComponent(invoiceFilename(invoice))}`,
      });
    },
  }),
  // POST /v1/invoices/{id}/credit_notes: credit an issued invoice in whole or in part
  defineOperation({
    method: "post", path: "/invoices/{id}/credit_notes", operationId: "createCreditNote", summary: "Credit an invoice", tag, scope: "reservations:write",
    description:
      "Requires scope `reservations:write`. Issues a credit note on the invoice, which itself never changes: with `amount`, that much (gross) spread over the invoice's lines in proportion to what is left of each; with `lines`, the lines named (each in whole or an amount of it); with neither, everything not yet credited. Each line's taxes are reversed in proportion (the lines' taxes sum to the note's tax exactly; the credit that takes off the rest of a line takes off the rest of its taxes). The note takes the property's next credit note number (gapless, a series apart from invoices'), and its lines are posted on the folio as negative lines of the credited kinds on the current business date: the folio's balance falls by the note's total (a negative balance is then owed to the guest: refund it). More than is left to credit, a line that is not there or holds nothing, or a `currency` other than the invoice's answers 422 `parameter_invalid` and changes nothing; an invoice credited in full answers 409 `invalid_state_transition`. Emits `credit_note.created`.",
    params: idParam("inv"), body: creditNoteCreateSchema, response: creditNoteSchema, status: 201,
    errors: ["invalid_state_transition", "parameter_invalid"],
    handler: async ({ ctx, params, body }) => creditInvoiceAudited({ ...ctx, invoiceId: params.id, input: body }),
  }),
  // GET /v1/credit_notes: issued credit notes, of a property, a reservation or an invoice
  defineOperation({
    method: "get", path: "/credit_notes", operationId: "listCreditNotes", summary: "List credit notes", tag, scope: "reservations:read",
    query: creditNoteListQuery, list: true, response: listSchema(creditNoteSchema, "CreditNoteList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listCreditNotes({ ...ctx, filters: query, page: list.page }), presentCreditNote),
  }),
  // GET /v1/credit_notes/{id}: a credit note, as issued
  defineOperation({
    method: "get", path: "/credit_notes/{id}", operationId: "getCreditNote", summary: "Retrieve a credit note", tag, scope: "reservations:read",
    params: idParam("cn"), response: creditNoteSchema,
    handler: async ({ ctx, params }) => getCreditNote({ ...ctx, id: params.id }),
  }),
  // GET /v1/credit_notes/{id}/pdf: the credit note as a PDF document
  defineOperation({
    method: "get", path: "/credit_notes/{id}/pdf", operationId: "getCreditNotePdf", summary: "Download a credit note as PDF", tag, scope: "reservations:read",
    description: "Requires scope `reservations:read`. The credit note rendered as `application/pdf`, as an attachment named after the hotel and the number; it names the invoice it corrects.",
    params: idParam("cn"), response: z.string().openapi({ format: "binary" }), pdf: true,
    handler: async ({ ctx, params, c }) => {
      const note = await getCreditNote({ ...ctx, id: params.id });
      const pdf = await renderCreditNotePdf(note);
      return c.body(new Uint8Array(pdf), 200, {
        "content-type": "application/pdf",
        "content-disposition": `attachment; filename="credit-note-${note.number}.pdf"; filename*=UTF-8''${encodeURIComponent(creditNoteFilename(note))}`,
      });
    },
  }),
];
