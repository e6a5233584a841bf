import { eq, sql } from "drizzle-orm";
import { payments, refunds } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { refundAtProcessor } from "./card-charge";
import { presentPayment } from "./present";
import type { RefundCreate } from "./schemas";

const refundableStatuses = new Set(["succeeded", "partially_refunded", "refunded"]);

/**
 * Refunds all or part of a captured payment. The payment row is locked first, so concurrent
 * refunds of one payment queue up and each sees what the last left refundable: together they
 * can never exceed the payment.
 */
export async function createRefund({ db, tenant, input, idempotencyKey }: Ctx & { input: RefundCreate; idempotencyKey?: string }) {
  return inTransaction(db, async (tx) => {
    const payment = await findOwned(tx, payments, tenant, input.payment_id, "payment", { param: "payment_id", forUpdate: true });
    // A refunded payment held money once: asking for more than its rest (0) is an amount error, not a state one.
    if (!refundableStatuses.has(payment.status)) {
      throw new ApiError("invalid_state_transition", `Only a captured payment can be refunded; this one is ${payment.status}.`);
    }
    const refundable = payment.amount - payment.amountRefunded;
    const amount = input.amount ?? refundable;
    if (amount > refundable || refundable <= 0) {
      throw new ApiError("amount_exceeds_refundable", `At most ${refundable} (minor units) of this payment can still be refunded.`, {
        param: "amount",
        amount: { amount: refundable, currency: payment.currency },
      });
    }
    const id = newId("refund");
    // A card charged through Stripe is refunded there first (server/payments/card-charge.ts).
    const processorRefundId = await refundAtProcessor({ db: tx, tenant, payment, amount, refundId: id, idempotencyKey });
    const [refund] = await tx
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

export const getRefund = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, refunds, tenant, id, "refund");

export async function listRefunds({ db, tenant, filters, page }: Ctx & { filters: { payment_id?: string }; page: PageRequest }) {
  return listOwned(db, refunds, tenant, page, filters.payment_id ? eq(refunds.paymentId, filters.payment_id) : undefined);
}
