import { and, eq, sql, sum } from "drizzle-orm";
import type { Db } from "@/db/client";
import { folioCharges, reservations } from "@/db/schema";
import type { AuditActor } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { folioBalance } from "@/server/folios/folios";
import { logger } from "@/server/observability/logger";
import { takePayment } from "@/server/payments/audited";
import type { Tenant } from "@/server/tenancy";

export type NoShowFeeCharge = { reservationId: string; paymentId: string | null; status: "succeeded" | "failed" };

/**
 * Charges each no-show's fee to the stay's card on file, off-session, through the property's
 * Stripe account, after the audit that posted it has committed (no transaction waits on Stripe):
 * what the folio still owes of the fee, on the business date now open. Once per stay: the payment
 * (succeeded, or failed with its decline, `payment.failed` telling the integrator and the folio
 * and the receivables telling the desk) is kept on the guarantee, and a stay with none is tried
 * again by the next audit, under the same key, so a charge whose answer was lost is the same
 * charge at Stripe, never a second one.
 */
export async function chargeNoShowFees(db: Db, tenant: Tenant, actor: AuditActor, propertyId: string): Promise<NoShowFeeCharge[]> {
  // `->` is SQL null only where the key is absent: a stay settled with nothing to charge keeps a JSON null.
  const due = await db
    .select({ id: reservations.id, folioId: reservations.folioId })
    .from(reservations)
    .where(
      and(
        eq(reservations.propertyId, propertyId),
        eq(reservations.status, "no_show"),
        sql`${reservations.guarantee}->>'status' = 'active'`,
        sql`${reservations.guarantee}->'noShowFeePaymentId' is null`,
      ),
    );
  const charged: NoShowFeeCharge[] = [];
  for (const r of due) {
    const [[fee], balance] = await Promise.all([
      db
        .select({ total: sum(folioCharges.amount).mapWith(Number) })
        .from(folioCharges)
        .where(and(eq(folioCharges.reservationId, r.id), eq(folioCharges.kind, "no_show_fee"))),
      folioBalance(db, r.folioId),
    ]);
    const amount = Math.min(fee.total ?? 0, balance);
    let outcome: NoShowFeeCharge | null = null;
    if (amount > 0) {
      try {
        const payment = await takePayment({
          db,
          tenant,
          actor,
          input: { reservation_id: r.id, amount, payment_method: { type: "card_on_file" }, capture: true },
          idempotencyKey: `no-show-fee:${r.id}`,
        });
        outcome = { reservationId: r.id, paymentId: payment.id, status: "succeeded" };
      } catch (error) {
        const paymentId = error instanceof ApiError && error.status === 402 ? (error.extra?.payment_id as string | undefined) : undefined;
        if (!paymentId) {
          // Stripe out of reach, the account disconnected: nothing charged; the next audit tries again.
          logger.warn(
            { component: "night-audit", reservation_id: r.id, reason: error instanceof Error ? error.message : String(error) },
            "no-show fee not charged",
          );
          continue;
        }
        outcome = { reservationId: r.id, paymentId, status: "failed" };
      }
    }
    // Nothing owed (no fee, or paid ahead): settled, never looked at again.
    await db
      .update(reservations)
      .set({ guarantee: sql`${reservations.guarantee} || ${JSON.stringify({ noShowFeePaymentId: outcome?.paymentId ?? null })}::jsonb` })
      .where(eq(reservations.id, r.id));
    if (outcome) charged.push(outcome);
  }
  return charged;
}
