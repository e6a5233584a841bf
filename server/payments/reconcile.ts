import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { paymentProcessors, reservations } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { logger } from "@/server/observability/logger";
import { processorOf } from "@/server/processors/connections";
import { processorIdempotencyKey } from "@/server/processors/keys";
import { ownedBy, type Tenant } from "@/server/tenancy";
import { chargeToRecord, paymentOfCharge, settleCharge } from "./processor-sync";

/** How far back a pass looks: Stripe replays an idempotency key's answer for 24 hours, so a retry can meet a charge that old. */
const lookBackMs = 48 * 60 * 60 * 1000;
/** A charge younger than this may still have its request waiting for Stripe's answer: left to that request. */
const settleAfterMs = 2 * 60 * 1000;

/**
 * The reconciliation pass (issue 37, point 6): every connected processor's recent charges, as the
 * processor holds them, against Innkeep's payments. A charge whose answer was lost (a timeout, or
 * the process killed between Stripe's answer and the commit) carries Innkeep's ids in its metadata
 * and is recorded once, under the payment id the request gave it; one Innkeep holds in another
 * state (an authorization captured at Stripe) is moved on. The unique processor charge id on
 * payments makes the request's own retry, Stripe's event and this pass record it once between
 * them. Answers the payments it changed.
 */
export async function reconcileCharges({ db, now = new Date(), olderThanMs = settleAfterMs }: { db: Db; now?: Date; olderThanMs?: number }) {
  const changed: { processorId: string; processorPaymentId: string; paymentId: string | null }[] = [];
  for (const row of await db.select().from(paymentProcessors)) {
    const tenant: Tenant = { accountId: row.accountId, livemode: row.livemode, propertyIds: null };
    const processor = processorOf(row);
    let charges;
    try {
      charges = await processor.chargesSince(new Date(now.getTime() - lookBackMs));
    } catch (err) {
      logger.warn({ component: "reconcile", processor_id: row.id, err }, "the processor's charges could not be listed; the next pass tries again");
      continue;
    }
    for (const charge of charges) {
      if (now.getTime() - charge.created.getTime() < olderThanMs) continue;
      const known = await paymentOfCharge(db, tenant, charge.processorPaymentId, false);
      if (known ? !["pending", "authorized", "failed"].includes(known.status) : !chargeToRecord(tenant, charge)) continue;
      if (!known && charge.status === "authorized" && !(await reservationExists(db, tenant, charge.metadata.innkeep_reservation_id))) {
        // A booking's deposit held on the card by a process that died before the booking was
        // written: no stay to record it on, so the hold is let go rather than left to lapse.
        await processor
          .cancel({ processorPaymentId: charge.processorPaymentId, idempotencyKey: processorIdempotencyKey(tenant, "void", undefined, charge.processorPaymentId) })
          .then(() => changed.push({ processorId: row.id, processorPaymentId: charge.processorPaymentId, paymentId: null }))
          .catch((err: unknown) => logger.warn({ component: "reconcile", processor_id: row.id, err }, "a hold without its booking could not be cancelled; the next pass tries again"));
        continue;
      }
      const card = !known && charge.paymentMethod ? await processor.cardOf(charge.paymentMethod).catch(() => null) : null;
      const settled = await inTransaction(db, (tx) => settleCharge(tx, tenant, charge, card));
      if (settled.outcome === "applied") changed.push({ processorId: row.id, processorPaymentId: charge.processorPaymentId, paymentId: settled.paymentId });
    }
  }
  if (changed.length) logger.info({ component: "reconcile", changed }, "charges settled from the processor");
  return changed;
}

const reservationExists = async (db: Db, tenant: Tenant, id: string) =>
  (await db.select({ id: reservations.id }).from(reservations).where(ownedBy(reservations, tenant, eq(reservations.id, id)))).length > 0;

/** The reconciliation every five minutes, in the process that runs the other schedules (server/process/start.ts). */
export function startChargeReconciler({ db, everyMs = 5 * 60_000 }: { db: Db; everyMs?: number }): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = reconcileCharges({ db })
      .catch((err: unknown) => logger.error({ component: "reconcile", err }, "reconciliation failed"))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
