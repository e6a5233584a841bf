import { isoTime } from "@/lib/dates";
import type { payments, refunds } from "@/db/schema";

export const presentPayment = (p: typeof payments.$inferSelect) => ({
  id: p.id,
  object: "payment" as const,
  livemode: p.livemode,
  property_id: p.propertyId,
  reservation_id: p.reservationId,
  folio_id: p.folioId,
  amount: { amount: p.amount, currency: p.currency },
  amount_refunded: { amount: p.amountRefunded, currency: p.currency },
  status: p.status,
  captured: p.capturedAt !== null,
  payment_method:
    p.methodType === "card"
      ? { type: "card" as const, brand: p.cardBrand ?? "unknown", last4: p.cardLast4 ?? "", exp_month: p.cardExpMonth ?? undefined, exp_year: p.cardExpYear ?? undefined }
      : p.methodType === "bank_transfer"
        ? { type: "bank_transfer" as const, reference: p.bankReference }
        : { type: "cash" as const },
  processor: p.processor ? { type: p.processor, payment_id: p.processorPaymentId } : null,
  dispute: p.disputeId
    ? {
        id: p.disputeId,
        status: p.disputeStatus ?? "needs_response",
        reason: p.disputeReason,
        amount: { amount: p.disputeAmount ?? p.amount, currency: p.currency },
        reinstates_payment_id: p.reinstatesPaymentId,
      }
    : null,
  next_action: p.status === "pending" && p.nextActionSecret ? { type: "use_stripe_sdk" as const, client_secret: p.nextActionSecret } : null,
  failure_code: p.failureCode,
  failure_message: p.failureMessage,
  captured_at: p.capturedAt ? isoTime(p.capturedAt) : null,
  business_date: p.businessDate,
  created_at: isoTime(p.createdAt),
  updated_at: isoTime(p.updatedAt),
});

export const presentRefund = (r: typeof refunds.$inferSelect) => ({
  id: r.id,
  object: "refund" as const,
  livemode: r.livemode,
  payment_id: r.paymentId,
  folio_id: r.folioId,
  amount: { amount: r.amount, currency: r.currency },
  reason: r.reason,
  status: r.status,
  credit_note_id: r.creditNoteId,
  // Set by the database in the refund's transaction (migration 0027); never null once written.
  business_date: r.businessDate ?? isoTime(r.createdAt).slice(0, 10),
  dispute_id: r.disputeId,
  created_at: isoTime(r.createdAt),
});
