import { z } from "@hono/zod-openapi";
import { chargeKinds } from "@/db/schema";
import { lineTaxSchema } from "@/server/folios/folios";
import { date, idOf, money, timestamp } from "@/server/schemas";

const party = z.object({
  name: z.string(),
  address: z
    .object({ line1: z.string().optional(), line2: z.string().optional(), city: z.string().optional(), region: z.string().optional(), postal_code: z.string().optional(), country: z.string().optional() })
    .nullable(),
});

export const invoiceSchema = z
  .object({
    id: idOf("inv"),
    object: z.literal("invoice"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    folio_id: idOf("fol"),
    reservation_id: idOf("res"),
    number: z.number().int().openapi({ description: "Gapless per property: 1, 2, 3… in the order invoices were issued.", example: 1 }),
    currency: z.string().length(3).openapi({ example: "USD" }),
    issued_at: timestamp,
    issue_date: date.openapi({ description: "The property's local date when it was issued." }),
    hotel: party.extend({ timezone: z.string() }).openapi({ description: "The property as it was when the invoice was issued." }),
    guest: party.extend({ email: z.string().nullable(), phone: z.string().nullable() }).openapi({ description: "The guest as they were when the invoice was issued." }),
    stay: z.object({ check_in: date, check_out: date, room_type: z.string(), rate_plan: z.string() }),
    lines: z.array(
      z.object({
        description: z.string(),
        kind: z.enum(chargeKinds),
        date: date.nullable(),
        net: money,
        tax: money,
        gross: money,
        taxes: z.array(lineTaxSchema),
      }),
    ),
    tax_summary: z
      .array(z.object({ tax_id: idOf("tax"), name: z.string(), amount: money }))
      .openapi({ description: "Each tax's total over the lines, in the order the taxes first appear on them." }),
    totals: z.object({ net: money, tax: money, gross: money }),
    payments: z.array(z.object({ id: idOf("pay"), method: z.enum(["card", "cash", "bank_transfer"]), description: z.string(), amount: money, captured_at: timestamp })),
    refunds: z.array(z.object({ id: idOf("re"), amount: money, created_at: timestamp })),
    balance: money,
    created_at: timestamp,
  })
  .openapi("Invoice", {
    description:
      "A closed folio as issued. `balance` is the gross less payments plus refunds: what the guest still owes (negative: what the hotel owes). It is an immutable snapshot, so a later change of the hotel's or the guest's details does not change it. `GET /v1/invoices/{id}/pdf` renders it as a PDF.",
  });

export const invoiceListQuery = z.strictObject({
  property_id: z.string().min(1).max(64).optional(),
  reservation_id: z.string().min(1).max(64).optional(),
});

export type InvoiceBody = Omit<z.output<typeof invoiceSchema>, "id" | "object" | "livemode" | "property_id" | "folio_id" | "reservation_id" | "number" | "currency" | "created_at">;
