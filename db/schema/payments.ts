import { date, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";

export const paymentStatuses = ["pending", "authorized", "succeeded", "failed", "voided", "partially_refunded", "refunded"] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const payments = pgTable(
  "payments",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    reservationId: text("reservation_id").notNull(),
    folioId: text("folio_id").notNull(),
    amount: integer("amount").notNull(),
    amountRefunded: integer("amount_refunded").notNull().default(0),
    currency: text("currency").notNull(),
    status: text("status", { enum: paymentStatuses }).notNull(),
    methodType: text("method_type", { enum: ["card", "cash", "bank_transfer"] }).notNull(),
    /** Never the card number: brand and last four digits only. */
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    cardExpMonth: integer("card_exp_month"),
    cardExpYear: integer("card_exp_year"),
    bankReference: text("bank_reference"),
    /** A card charged through the hotel's processor (migration 0030): which one, and its own id of the charge (Stripe's PaymentIntent `pi_…`). */
    processor: text("processor", { enum: ["stripe"] }),
    processorPaymentId: text("processor_payment_id"),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    capturedAt: ts("captured_at"),
    /** The property's business date the payment was captured on: the day it counts in, set by the database at capture (migration 0027). */
    businessDate: date("business_date"),
    ...timestamps(),
  },
  (t) => [
    index("payments_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("payments_folio_idx").on(t.folioId),
    // The revenue report's payments by capture time: a range of it, not the property's whole history.
    index("payments_property_captured_idx").on(t.propertyId, t.capturedAt),
  ],
);

export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    paymentId: text("payment_id").notNull(),
    folioId: text("folio_id").notNull(),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull(),
    reason: text("reason"),
    /** The processor's id of the refund (Stripe's `re_…`) when the payment went through one. */
    processorRefundId: text("processor_refund_id"),
    status: text("status", { enum: ["succeeded"] }).notNull().default("succeeded"),
    /** The property's business date the refund was made on: the day it counts in, set by the database (migration 0027). */
    businessDate: date("business_date"),
    /** The credit note this refund of a settled, invoiced folio issued (migration 0029); null when it only paid back a credit balance. */
    creditNoteId: text("credit_note_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("refunds_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("refunds_payment_idx").on(t.paymentId),
    index("refunds_property_created_idx").on(t.propertyId, t.createdAt),
  ],
);
