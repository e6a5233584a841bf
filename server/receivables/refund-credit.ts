import { and, desc, eq, inArray } from "drizzle-orm";
import { inTransaction } from "@/db/transactions";
import { folios, payments, reservations } from "@/db/schema";
import type { ChangeCtx } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { capturedStatuses, folioBalance } from "@/server/folios/folios";
import { refundPayment } from "@/server/payments/audited";
import { findOwned } from "@/server/tenancy";

/**
 * Pays a credit balance back to where it came from: the folio's captured payments, the latest
 * first, each refunded (the payments' own refund, on the stay's trail) up to what it can still
 * refund, until the balance is zero. All in one transaction: either the whole credit goes back,
 * or nothing does. Only a stay that has ended has a credit to pay back this way.
 */
export async function refundCreditBalance({ db, tenant, actor, folioId }: ChangeCtx & { folioId: string }) {
  return inTransaction(db, async (tx) => {
    const folio = await findOwned(tx, folios, tenant, folioId, "folio", { param: "folio_id", forUpdate: true });
    const [running] = await tx
      .select({ id: reservations.id })
      .from(reservations)
      .where(and(eq(reservations.folioId, folio.id), inArray(reservations.status, ["confirmed", "checked_in"])))
      .limit(1);
    if (running) throw new ApiError("invalid_state_transition", "The stay is still to come or in house; its folio is settled at check-out.");
    const balance = await folioBalance(tx, folio.id);
    if (balance >= 0) {
      throw new ApiError("invalid_state_transition", balance === 0 ? "The folio has no balance to refund." : "The guest owes this balance; there is nothing to refund.");
    }
    const paid = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.folioId, folio.id), inArray(payments.status, [...capturedStatuses])))
      .orderBy(desc(payments.capturedAt), desc(payments.id));
    let owed = -balance;
    const refunds = [];
    for (const p of paid) {
      const refundable = p.amount - p.amountRefunded;
      if (owed === 0 || refundable <= 0) continue;
      const amount = Math.min(owed, refundable);
      refunds.push(await refundPayment({ db: tx, tenant, actor, input: { payment_id: p.id, amount, reason: "Credit balance paid back" } }));
      owed -= amount;
    }
    if (owed > 0) {
      throw new ApiError("amount_exceeds_refundable", `The folio's payments can refund ${-balance - owed} (minor units) of its credit of ${-balance}; pay the rest back another way.`, {
        amount: { amount: -balance - owed, currency: folio.currency },
      });
    }
    return refunds;
  });
}
