import { z } from "zod";
import { raisePaymentHold, refundPayment, settlePayment, takePayment } from "@/server/payments/audited";
import { refundOverpaymentAtCheckOut } from "@/server/receivables/refund-credit";
import { refreshPayment } from "@/server/payments/processor-refresh";
import { presentPayment } from "@/server/folios/payment-present";
import { holdRaiseSchema, paymentCreateSchema, refundCreateSchema } from "@/server/payments/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The same schemas and services as POST /v1/payments and POST /v1/refunds.
const paymentProcedure = staffProcedure.use(roles(...access.payments));

export const paymentsRouter = router({
  /**
   * Takes a payment against a reservation's folio (sandbox test cards, cash, bank transfer). A
   * declined card is recorded by the service as a failed payment; the trail records it too.
   */
  create: paymentProcedure
    .input(paymentCreateSchema)
    .mutation(async ({ ctx, input }) => takePayment({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input })),
  /**
   * After the desk's browser completed the guest's 3-D Secure with Stripe.js: the payment settled
   * to what Stripe holds now, as Stripe's event would (and idempotent with it).
   */
  refresh: paymentProcedure
    .input(z.strictObject({ id: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => presentPayment(await refreshPayment({ db: ctx.db, tenant: ctx.tenant, id: input.id }))),
  /** Captures an authorization (a hold taken at check-in), or releases it: POST /v1/payments/{id}/capture and /void. */
  settle: paymentProcedure
    .input(z.strictObject({ id: z.string().min(1).max(64), to: z.enum(["captured", "voided"]) }))
    .mutation(async ({ ctx, input }) => settlePayment({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, to: input.to })),
  /** Raises an authorized card payment's hold to a new total, for a stay that grew (as POST /v1/payments/{id}/increment_authorization). */
  raiseHold: paymentProcedure
    .input(holdRaiseSchema.extend({ id: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => raisePaymentHold({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, id: input.id, amount: input.amount })),
  /** Refunds all or part of a captured payment. */
  refund: paymentProcedure
    .input(refundCreateSchema)
    .mutation(async ({ ctx, input }) => refundPayment({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input })),
  /**
   * At check-out, the exact overpayment back to the guest's own payments, in one transaction (the
   * refunds `creditRefundPlan` states, the one the dialog previews): all of it, or nothing.
   */
  refundOverpayment: paymentProcedure
    .input(z.strictObject({ reservation_id: z.string().min(1).max(64), reason: z.string().trim().min(1).max(500) }))
    .mutation(async ({ ctx, input }) => {
      const refunds = await refundOverpaymentAtCheckOut({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, reservationId: input.reservation_id, reason: input.reason });
      return { refunded: refunds.reduce((s, r) => s + r.amount.amount, 0) };
    }),
});
