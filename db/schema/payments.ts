import { date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
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
    /**
     * A dispute (chargeback) the cardholder opened at the processor (migration 0031): Stripe's
     * `dp_…`, its status and reason as Stripe gives them, and the amount it took back.
     */
    disputeId: text("dispute_id"),
    disputeStatus: text("dispute_status"),
    disputeReason: text("dispute_reason"),
    disputeAmount: integer("dispute_amount"),
    /** On the payment that gives back a won dispute's money: the disputed payment (migration 0031). */
    reinstatesPaymentId: text("reinstates_payment_id"),
    failureCode: text("failure_code"),
    failureMessage: text("failure_message"),
    /** While `pending` on the guest's 3-D Secure: the client secret Stripe.js completes it with (migration 0034). */
    nextActionSecret: text("next_action_secret"),
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
    // One payment per processor charge: a charge found again (Stripe's event, the reconciliation) and the request that made it never both record it.
    uniqueIndex("payments_processor_payment_key").on(t.processor, t.processorPaymentId),
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
    /** The dispute whose money the cardholder's bank took back (migration 0031): this row is that withdrawal, not a refund the hotel made. */
    disputeId: text("dispute_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("refunds_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("refunds_payment_idx").on(t.paymentId),
    index("refunds_property_created_idx").on(t.propertyId, t.createdAt),
    // One refund row per processor refund: Stripe's `charge.refunded` and Innkeep's own refund never both record it.
    uniqueIndex("refunds_processor_refund_key").on(t.processorRefundId),
  ],
);
