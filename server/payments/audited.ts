import type { Executor } from "@/db/client";
import type { ChangeCtx } from "@/server/audit/audit";
import { auditedFolioChange } from "@/server/folios/folio-change";
import { ApiError } from "@/server/errors";
import { capturePayment, createPayment, getPayment, raiseHold, voidPayment } from "./payments";
import { presentPayment, presentRefund } from "@/server/folios/payment-present";
import { createRefund } from "./refunds";
import type { PaymentCreate, RefundCreate } from "./schemas";

type Payment = ReturnType<typeof presentPayment>;

/** "visa •••• 4242", "cash", "bank transfer (ref 123)". */
function methodText(method: Payment["payment_method"]): string {
  if (method.type === "card") return `${method.brand} •••• ${method.last4}`;
  if (method.type === "bank_transfer") return method.reference ? `bank transfer (ref ${method.reference})` : "bank transfer";
  return "cash";
}

/**
 * Takes a payment (POST /v1/payments and the dashboard alike), recorded on the reservation's
 * trail in the same transaction; a declined card's failed payment is recorded too.
 */
export function takePayment({ db, tenant, actor, input, idempotencyKey }: ChangeCtx & { input: PaymentCreate; idempotencyKey?: string }) {
  const method = input.payment_method;
  const attempted = method.type !== "card" ? method.type.replace(/_/g, " ") : method.number ? `card •••• ${method.number.slice(-4)}` : "card through Stripe";
  return auditedFolioChange({
    db,
    tenant,
    actor,
    reservationId: input.reservation_id,
    action: "reservation.payment_taken",
    run: async (tx) => presentPayment(await createPayment({ db: tx, tenant, input, idempotencyKey })),
    describe: (p) => ({ payment: { amount: p.amount, method: methodText(p.payment_method), status: p.status } }),
    onFailure: (error) =>
      error instanceof ApiError && error.status === 402 ? { action: "reservation.payment_declined", after: { payment: { method: attempted, declined: error.message } } } : null,
  });
}

/** A change of one payment on its reservation's trail, in the same transaction, with the balance before and after and the payment as it ends. */
async function auditedPaymentChange({ db, tenant, actor, id }: ChangeCtx & { id: string }, action: string, run: (tx: Executor) => Promise<Parameters<typeof presentPayment>[0]>) {
  const payment = await getPayment({ db, tenant, id });
  return auditedFolioChange({
    db,
    tenant,
    actor,
    reservationId: payment.reservationId,
    action,
    run: async (tx) => presentPayment(await run(tx)),
    describe: (p) => ({ payment: { amount: p.amount, method: methodText(p.payment_method), status: p.status } }),
  });
}

/**
 * Captures or voids an authorized card payment (POST /v1/payments/{id}/capture and /void), on the
 * reservation's trail in the same transaction, with the balance before and after.
 */
export const settlePayment = ({ to, ...ctx }: ChangeCtx & { id: string; to: "captured" | "voided" }) =>
  auditedPaymentChange(ctx, `reservation.payment_${to}`, (tx) => (to === "captured" ? capturePayment : voidPayment)({ db: tx, tenant: ctx.tenant, id: ctx.id }));

/** Raises an authorized card payment's hold for a stay that grew (POST /v1/payments/{id}/increment_authorization), on the reservation's trail. */
export const raisePaymentHold = ({ amount, idempotencyKey, ...ctx }: ChangeCtx & { id: string; amount: number; idempotencyKey?: string }) =>
  auditedPaymentChange(ctx, "reservation.hold_raised", (tx) => raiseHold({ db: tx, tenant: ctx.tenant, id: ctx.id, amount, idempotencyKey }));

/** Refunds all or part of a captured payment (POST /v1/refunds and the dashboard), on the reservation's trail in the same transaction. */
export async function refundPayment({ db, tenant, actor, input, idempotencyKey }: ChangeCtx & { input: RefundCreate; idempotencyKey?: string }) {
  const payment = await getPayment({ db, tenant, id: input.payment_id }).catch((error: unknown) => {
    // The contract names the body field at fault.
    if (error instanceof ApiError && error.code === "resource_missing") throw new ApiError("resource_missing", error.message, { param: "payment_id" });
    throw error;
  });
  return auditedFolioChange({
    db,
    tenant,
    actor,
    reservationId: payment.reservationId,
    action: "reservation.refunded",
    run: async (tx) => presentRefund(await createRefund({ db: tx, tenant, input, idempotencyKey })),
    describe: (r) => ({ refund: { amount: r.amount, reason: r.reason } }),
  });
}
