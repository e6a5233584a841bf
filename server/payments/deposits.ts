import type { Executor } from "@/db/client";
import type { CardGuarantee } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { processorFor } from "@/server/processors/connections";
import { processorIdempotencyKey } from "@/server/processors/keys";
import type { Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { logger } from "@/server/observability/logger";
import { chargeCard, noProcessorAnyMore } from "./card-charge";
import { settleCharge } from "./processor-sync";

/** A deposit held on the card on file for a booking not yet committed. */
export type HeldDeposit = {
  paymentId: string;
  processorPaymentId: string;
  propertyId: string;
  reservationId: string;
  amount: number;
  currency: string;
  guarantee: CardGuarantee;
};

/**
 * Holds a booking's deposit on the card on file before the booking is written (an authorization,
 * captured once the booking has committed by `takeDeposit`): a card the bank refuses books
 * nothing (402, `param` guarantee), and a booking refused afterwards (no room left) moves no
 * money (`releaseDeposit`). The authorization names the reservation's id, made beforehand, so a
 * process that dies between the commit and the capture leaves a hold the reconciliation records
 * on that reservation (server/payments/reconcile.ts), never a charge without a stay.
 */
export async function holdDeposit(
  db: Executor,
  tenant: Tenant,
  deposit: { propertyId: string; reservationId: string; amount: number; currency: string; guarantee: CardGuarantee; requestKey?: string },
): Promise<HeldDeposit> {
  const paymentId = newId("payment");
  const outcome = await chargeCard({
    db,
    tenant,
    method: { type: "card_on_file", guarantee: deposit.guarantee },
    payment: {
      id: paymentId,
      propertyId: deposit.propertyId,
      reservationId: deposit.reservationId,
      amount: deposit.amount,
      currency: deposit.currency,
      capture: false,
      // The booking's own Idempotency-Key, kept apart from its guarantee's: a retried booking holds the same deposit at Stripe.
      idempotencyKey: deposit.requestKey ? `${deposit.requestKey}:deposit` : undefined,
    },
  });
  if (outcome.decline) {
    throw new ApiError(outcome.decline.code, `${outcome.decline.message} The rate plan's deposit could not be taken, so nothing was booked.`, {
      param: "guarantee",
    });
  }
  if (!outcome.processor?.paymentId) throw new ApiError("service_unavailable", "Stripe did not say how the deposit went; retry with the same Idempotency-Key.");
  return { paymentId, processorPaymentId: outcome.processor.paymentId, ...deposit };
}

/** Lets a held deposit go when its booking was refused: the hold is cancelled at Stripe, nothing recorded. */
export async function releaseDeposit(db: Executor, tenant: Tenant, held: HeldDeposit) {
  try {
    const connected = await processorFor(db, tenant, held.propertyId);
    if (!connected) throw noProcessorAnyMore();
    await connected.processor.cancel({
      processorPaymentId: held.processorPaymentId,
      idempotencyKey: processorIdempotencyKey(tenant, "void", undefined, held.paymentId),
    });
  } catch (error) {
    // The booking's own refusal is what the caller hears; an uncaptured hold lapses at the bank by itself.
    logger.warn({ err: error, reservation: held.reservationId }, "a refused booking's deposit hold could not be cancelled at Stripe; it lapses uncaptured");
  }
}

/**
 * Takes a held deposit once its booking has committed: captured at Stripe, then recorded as the
 * folio's payment (`payment.succeeded`) on the business date, through the same code that records
 * a charge found again. A capture Stripe does not confirm leaves the hold recorded as an
 * authorized payment, which the desk captures or releases.
 */
export async function takeDeposit(db: Executor, tenant: Tenant, held: HeldDeposit) {
  let captured = false;
  try {
    const connected = await processorFor(db, tenant, held.propertyId);
    if (!connected) throw noProcessorAnyMore();
    await connected.processor.capture({
      processorPaymentId: held.processorPaymentId,
      amount: held.amount,
      idempotencyKey: processorIdempotencyKey(tenant, "capture", undefined, held.paymentId),
    });
    captured = true;
  } catch (error) {
    logger.warn({ err: error, reservation: held.reservationId }, "a booking's deposit was held but not captured; recorded as a hold for the desk");
  }
  const card = held.guarantee.card ?? null;
  return inTransaction(db, (tx) =>
    settleCharge(
      tx,
      tenant,
      {
        processorPaymentId: held.processorPaymentId,
        status: captured ? "succeeded" : "authorized",
        amount: held.amount,
        currency: held.currency,
        created: new Date(),
        metadata: { innkeep_payment_id: held.paymentId, innkeep_reservation_id: held.reservationId, innkeep_account_id: tenant.accountId },
        paymentMethod: held.guarantee.paymentMethod,
        decline: null,
      },
      card,
    ),
  );
}
