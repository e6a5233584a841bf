import { z } from "@hono/zod-openapi";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { emptyActionSchema, idParam } from "@/server/schemas";
import { invoiceFolio } from "@/server/folios/audited";
import { getInvoice, listInvoices } from "./invoices";
import { invoiceFilename, renderInvoicePdf } from "./pdf";
import { presentInvoice } from "./present";
import { invoiceListQuery, invoiceSchema } from "./schemas";

const tag = "Invoices";

export const invoiceOperations = [
  // POST /v1/folios/{id}/invoice: close a folio into its invoice
  defineOperation({
    method: "post", path: "/folios/{id}/invoice", operationId: "createFolioInvoice", summary: "Close a folio into an invoice", tag, scope: "reservations:write",
    description:
      "Requires scope `reservations:write`. Closes the folio and issues its invoice with the property's next number (gapless: 1, 2, 3…). Check-out does this by itself; this is for a folio whose stay ended otherwise (cancelled, no-show) or was checked out before invoices existed. A stay to come or in house, or a folio already invoiced, answers 409 `invalid_state_transition`. Emits `invoice.created`.",
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
];
