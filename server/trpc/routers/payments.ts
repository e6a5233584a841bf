import { ApiError } from "@/server/errors";
import { createPayment, getPayment } from "@/server/payments/payments";
import { presentPayment, presentRefund } from "@/server/payments/present";
import { createRefund } from "@/server/payments/refunds";
import { paymentCreateSchema, refundCreateSchema } from "@/server/payments/schemas";
import { access } from "@/server/staff/access";
import { roles, router, staffProcedure } from "../init";
import { recordFolioChange } from "./folio-audit";

// The same schemas and services as POST /v1/payments and POST /v1/refunds.
const paymentProcedure = staffProcedure.use(roles(...access.payments));

type Payment = ReturnType<typeof presentPayment>;

/** "visa •••• 4242", "cash", "bank transfer (ref 123)". */
function methodText(method: Payment["payment_method"]): string {
  if (method.type === "card") return `${method.brand} •••• ${method.last4}`;
  if (method.type === "bank_transfer") return method.reference ? `bank transfer (ref ${method.reference})` : "bank transfer";
  return "cash";
}

export const paymentsRouter = router({
  /**
   * Takes a payment against a reservation's folio (sandbox test cards, cash, bank transfer). A
   * declined card is recorded by the service as a failed payment; the trail records it too.
   */
  create: paymentProcedure.input(paymentCreateSchema).mutation(async ({ ctx, input }) => {
    const attempted =
      input.payment_method.type === "card" ? `card •••• ${input.payment_method.number.slice(-4)}` : input.payment_method.type.replace("_", " ");
    const payment = await recordFolioChange(
      ctx,
      input.reservation_id,
      "reservation.payment_taken",
      async () => presentPayment(await createPayment({ db: ctx.db, tenant: ctx.tenant, input })),
      (p) => ({ payment: { amount: p.amount, method: methodText(p.payment_method), status: p.status } }),
      (error) =>
        error instanceof ApiError && error.status === 402
          ? { action: "reservation.payment_declined", after: { payment: { method: attempted, declined: error.message } } }
          : null,
    );
    return payment;
  }),
  /** Refunds all or part of a captured payment. */
  refund: paymentProcedure.input(refundCreateSchema).mutation(async ({ ctx, input }) => {
    const payment = await getPayment({ db: ctx.db, tenant: ctx.tenant, id: input.payment_id }).catch((error: unknown) => {
      // The contract names the body field at fault.
      if (error instanceof ApiError && error.code === "resource_missing")
        throw new ApiError("resource_missing", error.message, { param: "payment_id" });
      throw error;
    });
    return recordFolioChange(
      ctx,
      payment.reservationId,
      "reservation.refunded",
      async () => presentRefund(await createRefund({ db: ctx.db, tenant: ctx.tenant, input })),
      (r) => ({ refund: { amount: r.amount, reason: r.reason } }),
    );
  }),
});
