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
    issue_date: date.openapi({ description: "The property's business date it was issued on." }),
    supplements: z
      .object({ invoice_id: idOf("inv"), number: z.number().int() })
      .nullable()
      .openapi({
        description:
          "The invoice this one supplements: a charge posted after check-out (the folio already invoiced, and an issued invoice never changes) is billed on a supplementary invoice with its own number, listing only the lines posted since. Null for the invoice the folio closed into.",
      }),
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
    payments: z
      .array(z.object({ id: idOf("pay"), method: z.enum(["card", "cash", "bank_transfer"]), description: z.string(), amount: money, captured_at: timestamp }))
      .openapi({ description: "The folio's captured payments when it was issued; empty on a supplementary invoice (they are on the invoice it supplements)." }),
    refunds: z.array(z.object({ id: idOf("re"), amount: money, created_at: timestamp })),
    balance: money,
    created_at: timestamp,
  })
  .openapi("Invoice", {
    description:
      "A closed folio as issued. `balance` is the gross less payments plus refunds: what the guest still owes (negative: what the hotel owes); on a supplementary invoice, what the guest owes on the folio with its lines. It is an immutable snapshot, so a later change of the hotel's or the guest's details does not change it. `GET /v1/invoices/{id}/pdf` renders it as a PDF.",
  });

export const invoiceListQuery = z.strictObject({
  property_id: z.string().min(1).max(64).optional(),
  reservation_id: z.string().min(1).max(64).optional(),
});

export type InvoiceBody = Omit<z.output<typeof invoiceSchema>, "id" | "object" | "livemode" | "property_id" | "folio_id" | "reservation_id" | "number" | "currency" | "created_at">;

const creditLineSchema = z.object({
  invoice_line: z.number().int().openapi({ description: "The line of the invoice it credits: its position on the invoice, 1 for the first." }),
  description: z.string(),
  kind: z.enum(chargeKinds).openapi({ description: "The credited line's kind: the revenue it takes off." }),
  date: date.nullable().openapi({ description: "The night or date of the credited line; the credit itself is posted on `issue_date`." }),
  net: money,
  tax: money,
  gross: money,
  taxes: z.array(lineTaxSchema).openapi({ description: "Each tax the credited line carried, reversed in proportion to the amount credited." }),
});

export const creditNoteSchema = z
  .object({
    id: idOf("cn"),
    object: z.literal("credit_note"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    invoice_id: idOf("inv"),
    invoice_number: z.number().int().openapi({ description: "The number of the invoice it corrects." }),
    folio_id: idOf("fol"),
    reservation_id: idOf("res"),
    refund_id: idOf("re").nullable().openapi({ description: "The refund that issued it; null for a credit note issued on its own (an allowance)." }),
    number: z.number().int().openapi({ description: "Gapless per property in a series of its own (credit note 1, 2, 3…), apart from invoices' numbers.", example: 1 }),
    currency: z.string().length(3).openapi({ example: "USD" }),
    reason: z.string(),
    issued_at: timestamp,
    issue_date: date.openapi({ description: "The property's business date it was issued and posted on (never a closed day)." }),
    hotel: party.extend({ timezone: z.string() }).openapi({ description: "The property as it was when the credit note was issued." }),
    guest: party.extend({ email: z.string().nullable(), phone: z.string().nullable() }).openapi({ description: "The guest as they were when the credit note was issued." }),
    stay: z.object({ check_in: date, check_out: date, room_type: z.string(), rate_plan: z.string() }),
    lines: z.array(creditLineSchema).openapi({ description: "What it takes off, line by line: negative amounts." }),
    tax_summary: z.array(z.object({ tax_id: idOf("tax"), name: z.string(), amount: money })).openapi({ description: "Each tax's total over the lines (negative); together exactly `totals.tax`." }),
    totals: z.object({ net: money, tax: money, gross: money }).openapi({ description: "Negative: what the credit note takes off the invoice. net + tax = gross." }),
    created_at: timestamp,
  })
  .openapi("CreditNote", {
    description:
      "A correction of an issued invoice, which never changes: the money it takes off (a refund after check-out of money the guest was charged, an allowance), posted on the folio as negative lines on the business date `issue_date`, with their taxes reversed. An immutable snapshot. `GET /v1/credit_notes/{id}/pdf` renders it as a PDF.",
  });

export const creditNoteListQuery = z.strictObject({
  property_id: z.string().min(1).max(64).optional(),
  reservation_id: z.string().min(1).max(64).optional(),
  invoice_id: z.string().min(1).max(64).optional(),
});

const creditAmount = z.number().int().min(1).max(100_000_000);

export const creditNoteCreateSchema = z
  .strictObject({
    reason: z.string().trim().min(1).max(500).openapi({ description: "Why: printed on the credit note." }),
    amount: creditAmount.optional().openapi({
      description: "Minor units (gross, taxes included) to take off, spread over the invoice's lines in proportion to what is left of each. Send `amount` or `lines`, not both; neither credits everything still credited on the invoice.",
    }),
    lines: z
      .array(
        z.strictObject({
          line: z.number().int().min(1).openapi({ description: "The invoice line's position, 1 for the first." }),
          amount: creditAmount.optional().openapi({ description: "Minor units (gross) to take off the line; defaults to all that is left of it." }),
        }),
      )
      .min(1)
      .max(500)
      .optional(),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "Expected a three-letter currency code.")
      .optional()
      .openapi({ description: "The amounts' currency; if sent, it must be the invoice's.", example: "USD" }),
  })
  .openapi("CreditNoteCreate", { example: { reason: "Air conditioning out of order", amount: 5000, currency: "USD" } });

export type CreditNoteCreate = z.output<typeof creditNoteCreateSchema>;
export type CreditNoteBody = Omit<
  z.output<typeof creditNoteSchema>,
  "id" | "object" | "livemode" | "property_id" | "invoice_id" | "folio_id" | "reservation_id" | "refund_id" | "number" | "currency" | "created_at"
>;
