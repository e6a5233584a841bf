import { and, eq, inArray } from "drizzle-orm";
import { inTransaction } from "@/db/transactions";
import { folios, payments, reservations } from "@/db/schema";
import type { ChangeCtx } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { capturedStatuses, folioBalance } from "@/server/folios/folios";
import { formatMoney } from "@/lib/money";
import { creditRefundPlan } from "@/lib/refund-plan";
import { refundPayment } from "@/server/payments/audited";
import { presentPayment } from "@/server/folios/payment-present";
import { findOwned } from "@/server/tenancy";

/**
 * Pays a credit balance back to where it came from: the folio's captured payments, the latest
 * first, each refunded (the payments' own refund, on the stay's trail) up to what it can still
 * refund, until the balance is zero (`creditRefundPlan`, the rule the desk previews). All in one
 * transaction: either the whole credit goes back, or nothing does. A stay that has ended has its
 * credit paid back this way; a guest in house only at check-out (`atCheckOut`: the overpayment
 * of a stay left early, refunded just before the guest is checked out).
 */
export async function refundCreditBalance({
  db,
  tenant,
  actor,
  folioId,
  atCheckOut = false,
  reason = "Credit balance paid back",
}: ChangeCtx & { folioId: string; atCheckOut?: boolean; reason?: string }) {
  return inTransaction(db, async (tx) => {
    const folio = await findOwned(tx, folios, tenant, folioId, "folio", { param: "folio_id", forUpdate: true });
    const [running] = await tx
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.folioId, folio.id), inArray(reservations.status, atCheckOut ? ["confirmed"] : ["confirmed", "checked_in"])))
      .limit(1);
    if (running) throw new ApiError("invalid_state_transition", "The stay is still to come or in house; its folio is settled at check-out.");
    const balance = await folioBalance(tx, folio.id);
    if (balance >= 0) {
      throw new ApiError("invalid_state_transition", balance === 0 ? "The folio has no balance to refund." : "The guest owes this balance; there is nothing to refund.");
    }
    const paid = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.folioId, folio.id), inArray(payments.status, [...capturedStatuses])));
    const { parts, short } = creditRefundPlan(paid.map(presentPayment), -balance);
    if (short > 0) {
      const money = (amount: number) => formatMoney({ amount, currency: folio.currency });
      throw new ApiError("amount_exceeds_refundable", `The folio's payments can refund ${money(-balance - short)} of the ${money(-balance)} owed to the guest; pay the rest back another way.`, {
        amount: { amount: -balance - short, currency: folio.currency },
      });
    }
    const refunds = [];
    for (const part of parts) refunds.push(await refundPayment({ db: tx, tenant, actor, input: { payment_id: part.payment.id, amount: part.amount, reason } }));
    return refunds;
  });
}

/**
 * At check-out, the exact overpayment of the reservation's folio back to the guest's own payments
 * (the dashboard's guided check-out): `refundCreditBalance` for a guest still in house.
 */
export async function refundOverpaymentAtCheckOut({ db, tenant, actor, reservationId, reason }: ChangeCtx & { reservationId: string; reason: string }) {
  const reservation = await findOwned(db, reservations, tenant, reservationId, "reservation", { param: "reservation_id" });
  return refundCreditBalance({ db, tenant, actor, folioId: reservation.folioId, atCheckOut: true, reason });
}
