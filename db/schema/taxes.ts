import { boolean, check, date, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { tenantColumns, timestamps, ts } from "./columns";

export const taxKinds = ["percentage", "per_night", "per_person_per_night"] as const;
export type TaxKind = (typeof taxKinds)[number];
export const taxTargets = ["room_nights", "other_charges"] as const;
export type TaxTarget = (typeof taxTargets)[number];

/**
 * A property's tax or fee (server/taxes/): a percentage included in or added to the lines it
 * applies to, or an amount per night or per person and night posted as its own folio line.
 */
export const taxes = pgTable(
  "taxes",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    name: text("name").notNull(),
    kind: text("kind", { enum: taxKinds }).notNull(),
    /** The percentage times 1000 (7.5 % = 7500); percentage taxes only. */
    percentThousandths: integer("percent_thousandths"),
    /** Minor units per night (or per person and night); fees only. */
    amount: integer("amount"),
    inclusive: boolean("inclusive").notNull().default(false),
    appliesTo: text("applies_to", { enum: taxTargets }).notNull(),
    active: boolean("active").notNull().default(true),
    ...timestamps(),
  },
  (t) => [
    index("taxes_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("taxes_property_idx").on(t.propertyId),
    check(
      "taxes_shape",
      sql`(${t.kind} = 'percentage' AND ${t.percentThousandths} IS NOT NULL AND ${t.amount} IS NULL) OR (${t.kind} IN ('per_night', 'per_person_per_night') AND ${t.amount} IS NOT NULL AND ${t.percentThousandths} IS NULL AND NOT ${t.inclusive})`,
    ),
  ],
);

/** One tax in a folio line: which, how much of the line it is, and whether it was included in the price. */
export type LineTax = { tax_id: string; name: string; amount: number; inclusive: boolean };

/** The last invoice number a property issued: incremented in the issuing transaction, so numbers have no gaps. */
export const invoiceCounters = pgTable("invoice_counters", {
  propertyId: text("property_id").primaryKey(),
  lastNumber: integer("last_number").notNull(),
});

/** An issued invoice: the closed folio as it stood, with the hotel's and the guest's details of that moment. */
export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    folioId: text("folio_id").notNull(),
    reservationId: text("reservation_id").notNull(),
    number: integer("number").notNull(),
    currency: text("currency").notNull(),
    total: integer("total").notNull(),
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull(),
    /** The invoice this one supplements (migration 0032): charges posted on the folio after its invoice was issued are billed on a supplementary invoice; null for the folio's own invoice. */
    supplementsInvoiceId: text("supplements_invoice_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("invoices_property_number_key").on(t.propertyId, t.number),
    // One invoice a folio closes into; supplementary invoices follow it.
    uniqueIndex("invoices_folio_key").on(t.folioId).where(sql`supplements_invoice_id is null`),
    index("invoices_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
  ],
);

/** The last credit note number a property issued: a series of its own, gapless as invoices' (migration 0029). */
export const creditNoteCounters = pgTable("credit_note_counters", {
  propertyId: text("property_id").primaryKey(),
  lastNumber: integer("last_number").notNull(),
});

/**
 * An issued credit note: money taken off an issued invoice (which never changes), posted on the
 * folio as negative lines on the business date `issue_date`, stored as issued. `net`, `tax` and
 * `total` are negative (what it takes off); `refund_id`: the refund that made it, if one did.
 */
export const creditNotes = pgTable(
  "credit_notes",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    invoiceId: text("invoice_id").notNull(),
    folioId: text("folio_id").notNull(),
    reservationId: text("reservation_id").notNull(),
    refundId: text("refund_id"),
    number: integer("number").notNull(),
    currency: text("currency").notNull(),
    net: integer("net").notNull(),
    tax: integer("tax").notNull(),
    total: integer("total").notNull(),
    issueDate: date("issue_date").notNull(),
    snapshot: jsonb("snapshot").$type<Record<string, unknown>>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("credit_notes_property_number_key").on(t.propertyId, t.number),
    index("credit_notes_invoice_idx").on(t.invoiceId),
    index("credit_notes_property_date_idx").on(t.propertyId, t.issueDate),
    index("credit_notes_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
  ],
);
