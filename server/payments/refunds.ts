import { eq, sql } from "drizzle-orm";
import { folios, payments, refunds } from "@/db/schema";
import { folioBalance } from "@/server/folios/folios";
import { issueCreditNote } from "@/server/invoices/credit-notes";
import { folioInvoice } from "@/server/invoices/invoices";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import type { Executor } from "@/db/client";
import { refundAtProcessor } from "./card-charge";
import { presentPayment } from "@/server/folios/payment-present";
import type { RefundCreate } from "./schemas";

const refundableStatuses = new Set(["succeeded", "partially_refunded", "refunded"]);
/** Stripe's statuses of a dispute still open (an inquiry's too): the charge cannot be refunded meanwhile. */
const openDisputes = new Set(["warning_needs_response", "warning_under_review", "needs_response", "under_review"]);

/**
 * Refunds all or part of a captured payment. The payment row is locked first, so concurrent
 * refunds of one payment queue up and each sees what the last left refundable: together they
 * can never exceed the payment.
 *
 * A refund on a closed folio reopens nothing. What it pays back of a credit balance (money the
 * guest overpaid) only settles that balance; what it gives back beyond it is money the guest was
 * charged, so it issues a credit note on the folio's invoice for that part, in the same
 * transaction, and the folio's balance stays at zero (docs/decisions.md, "Corrections are credit
 * notes"). A closed folio with no invoice has nothing to credit: that part is refused.
 */
export async function createRefund({ db, tenant, input, idempotencyKey }: Ctx & { input: RefundCreate; idempotencyKey?: string }) {
  return inTransaction(db, async (tx) => {
    const payment = await findOwned(tx, payments, tenant, input.payment_id, "payment", { param: "payment_id", forUpdate: true });
    // A refunded payment held money once: asking for more than its rest (0) is an amount error, not a state one.
    if (!refundableStatuses.has(payment.status)) {
      throw new ApiError("invalid_state_transition", `Only a captured payment can be refunded; this one is ${payment.status}.`);
    }
    if (payment.reinstatesPaymentId) {
      throw new ApiError("invalid_state_transition", `This payment gives back a won dispute's money; refund the disputed payment, ${payment.reinstatesPaymentId}, instead.`);
    }
    if (payment.disputeId && openDisputes.has(payment.disputeStatus ?? "")) {
      throw new ApiError("invalid_state_transition", "The cardholder disputes this payment at Stripe; it cannot be refunded until the dispute is closed (Stripe refuses it too).");
    }
    // A lost dispute has given the money back already.
    const refundable = payment.amount - payment.amountRefunded - (payment.disputeStatus === "lost" ? (payment.disputeAmount ?? 0) : 0);
    const amount = input.amount ?? refundable;
    if (amount > refundable || refundable <= 0) {
      throw new ApiError("amount_exceeds_refundable", `At most ${refundable} (minor units) of this payment can still be refunded.`, {
        param: "amount",
        amount: { amount: refundable, currency: payment.currency },
      });
    }
    const [folio] = await tx.select().from(folios).where(eq(folios.id, payment.folioId)).for("update");
    const credit = folio.status === "closed" ? await creditOfRefund(tx, folio.id, amount) : null;
    const id = newId("refund");
    // A card charged through Stripe is refunded there first (server/payments/card-charge.ts), once the refund is known to be allowed.
    const processorRefundId = await refundAtProcessor({ db: tx, tenant, payment, amount, refundId: id, idempotencyKey });
    // A retry whose first answer was lost: Stripe's `charge.refunded` may have recorded that refund meanwhile.
    const [found] = processorRefundId ? await tx.select().from(refunds).where(eq(refunds.processorRefundId, processorRefundId)) : [];
    if (found) return found;
    let [refund] = await tx
      .insert(refunds)
      .values({
        id,
        processorRefundId,
        ...tenantValues(tenant),
        propertyId: payment.propertyId,
        paymentId: payment.id,
        folioId: payment.folioId,
        amount,
        currency: payment.currency,
        reason: input.reason ?? null,
      })
      .returning();
    if (credit) {
      const note = await issueCreditNote(tx, tenant, credit.invoice, { amount: credit.amount, reason: input.reason ?? "Refund" }, refund.id);
      [refund] = await tx.update(refunds).set({ creditNoteId: note.id }).where(eq(refunds.id, refund.id)).returning();
    }
    const fully = amount === refundable;
    const [updated] = await tx
      .update(payments)
      .set({ amountRefunded: sql`${payments.amountRefunded} + ${amount}`, status: fully ? "refunded" : "partially_refunded", updatedAt: new Date() })
      .where(eq(payments.id, payment.id))
      .returning();
    await emitEvent(tx, tenant, {
      type: "payment.refunded",
      propertyId: payment.propertyId,
      object: { ...presentPayment(updated), refund_id: refund.id },
    });
    return refund;
  });
}

/**
 * What a refund of `amount` on a closed folio takes off its invoice: the part beyond the folio's
 * credit balance, or null when the credit balance covers it.
 */
export async function creditOfRefund(tx: Executor, folioId: string, amount: number) {
  const beyond = amount - Math.max(0, -(await folioBalance(tx, folioId)));
  if (beyond <= 0) return null;
  // The invoice the folio closed into (a supplementary invoice's lines are credited on request).
  const invoice = await folioInvoice(tx, folioId);
  if (!invoice) {
    throw new ApiError(
      "invalid_state_transition",
      "The folio is closed without an invoice, so a refund of money the guest was charged has no invoice to credit; close the folio into its invoice first.",
    );
  }
  return { invoice, amount: beyond };
}

export const getRefund = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, refunds, tenant, id, "refund");

export async function listRefunds({ db, tenant, filters, page }: Ctx & { filters: { payment_id?: string }; page: PageRequest }) {
  return listOwned(db, refunds, tenant, page, filters.payment_id ? eq(refunds.paymentId, filters.payment_id) : undefined);
}
