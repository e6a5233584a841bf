import { and, eq, inArray, sql, sum } from "drizzle-orm";
import type { Db } from "@/db/client";
import { folioCharges, reservations } from "@/db/schema";
import type { AuditActor } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { folioBalance } from "@/server/folios/folios";
import { logger } from "@/server/observability/logger";
import { takePayment } from "@/server/payments/audited";
import type { Tenant } from "@/server/tenancy";

export type FeeCharge = { reservationId: string; paymentId: string | null; status: "succeeded" | "failed" };

/**
 * Charges each no-show's fee, and each cancelled stay's cancellation charge (its room nights kept
 * on the folio), to the stay's card on file, off-session, through the property's Stripe account,
 * after the audit has committed (no transaction waits on Stripe): what the folio still owes of it,
 * on the business date now open. Once per stay: the payment
 * (succeeded, or failed with its decline, `payment.failed` telling the integrator and the folio
 * and the receivables telling the desk) is kept on the guarantee, and a stay with none is tried
 * again by the next audit, under the same key, so a charge whose answer was lost is the same
 * charge at Stripe, never a second one.
 */
export async function chargeFeesOnFile(db: Db, tenant: Tenant, actor: AuditActor, propertyId: string): Promise<FeeCharge[]> {
  // `->` is SQL null only where the key is absent: a stay settled with nothing to charge keeps a JSON null.
  const due = await db
    .select({ id: reservations.id, folioId: reservations.folioId, status: reservations.status })
    .from(reservations)
    .where(
      and(
        eq(reservations.propertyId, propertyId),
        inArray(reservations.status, ["no_show", "cancelled"]),
        sql`${reservations.guarantee}->>'status' = 'active'`,
        sql`${reservations.guarantee}->'feePaymentId' is null`,
      ),
    );
  const charged: FeeCharge[] = [];
  for (const r of due) {
    const [[fee], balance] = await Promise.all([
      db
        .select({ total: sum(folioCharges.amount).mapWith(Number) })
        .from(folioCharges)
        // A no-show owes its fee; a cancelled stay what stayed on its folio (nothing when it was free).
        .where(and(eq(folioCharges.reservationId, r.id), r.status === "no_show" ? eq(folioCharges.kind, "no_show_fee") : undefined)),
      folioBalance(db, r.folioId),
    ]);
    const amount = Math.min(fee.total ?? 0, balance);
    let outcome: FeeCharge | null = null;
    if (amount > 0) {
      try {
        const payment = await takePayment({
          db,
          tenant,
          actor,
          input: { reservation_id: r.id, amount, payment_method: { type: "card_on_file" }, capture: true },
          idempotencyKey: `fee-on-file:${r.id}`,
        });
        outcome = { reservationId: r.id, paymentId: payment.id, status: "succeeded" };
      } catch (error) {
        const paymentId = error instanceof ApiError && error.status === 402 ? (error.extra?.payment_id as string | undefined) : undefined;
        if (!paymentId) {
          // Stripe out of reach, the account disconnected: nothing charged; the next audit tries again.
          logger.warn(
            { component: "night-audit", reservation_id: r.id, reason: error instanceof Error ? error.message : String(error) },
            "fee not charged to the card on file",
          );
          continue;
        }
        outcome = { reservationId: r.id, paymentId, status: "failed" };
      }
    }
    // Nothing owed (no fee, or paid ahead): settled, never looked at again.
    await db
      .update(reservations)
      .set({ guarantee: sql`${reservations.guarantee} || ${JSON.stringify({ feePaymentId: outcome?.paymentId ?? null })}::jsonb` })
      .where(eq(reservations.id, r.id));
    if (outcome) charged.push(outcome);
  }
  return charged;
}
