import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { idParam } from "@/server/schemas";
import { presentTax } from "./present";
import { taxCreateSchema, taxListQuery, taxSchema, taxUpdateSchema } from "./schemas";
import { createTax, getTax, listTaxes, updateTax } from "./taxes";

const tag = "Taxes";
const present = ({ tax, currency }: { tax: Parameters<typeof presentTax>[0]; currency: string }) => presentTax(tax, currency);

export const taxOperations = [
  // GET /v1/taxes: taxes and fees, optionally of one property
  defineOperation({
    method: "get", path: "/taxes", operationId: "listTaxes", summary: "List taxes", tag, scope: "rooms:read",
    query: taxListQuery, list: true, response: listSchema(taxSchema, "TaxList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listTaxes({ ...ctx, filters: query, page: list.page }), present),
  }),
  // POST /v1/taxes: add a tax or fee to a property
  defineOperation({
    method: "post", path: "/taxes", operationId: "createTax", summary: "Create a tax", tag, scope: "rooms:write",
    description:
      "Requires scope `rooms:write`. Applies to every folio line posted from then on (room nights at booking, extras, fees). Rounding is per line, halves away from zero: an inclusive percentage's net is round(price ÷ (1 + rate)) and its tax the price less that net; an exclusive one adds round(net × rate). Emits `tax.created`.",
    body: taxCreateSchema, response: taxSchema, status: 201,
    handler: async ({ ctx, body }) => present(await createTax({ ...ctx, input: body })),
  }),
  // GET /v1/taxes/{id}: retrieve a tax
  defineOperation({
    method: "get", path: "/taxes/{id}", operationId: "getTax", summary: "Retrieve a tax", tag, scope: "rooms:read",
    params: idParam("tax"), response: taxSchema,
    handler: async ({ ctx, params }) => present(await getTax({ ...ctx, id: params.id })),
  }),
  // PATCH /v1/taxes/{id}: change a tax, or stop it with active: false
  defineOperation({
    method: "patch", path: "/taxes/{id}", operationId: "updateTax", summary: "Update a tax", tag, scope: "rooms:write",
    description: "Requires scope `rooms:write`. Lines already posted keep the taxes they were posted with; `active: false` stops the tax for new lines. Emits `tax.updated`.",
    params: idParam("tax"), body: taxUpdateSchema, response: taxSchema,
    handler: async ({ ctx, params, body }) => present(await updateTax({ ...ctx, id: params.id, input: body })),
  }),
];
