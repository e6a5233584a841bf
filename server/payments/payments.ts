import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { folios, payments, reservations } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { folioBalance } from "@/server/folios/folios";
import { newId } from "@/server/ids";
import { keyset, type PageRequest } from "@/server/pagination";
import { findOwned, ownedBy, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { chargeCard, noProcessorAnyMore } from "./card-charge";
import { processorIdempotencyKey } from "@/server/processors/keys";
import { processorFor } from "@/server/processors/connections";
import { presentPayment } from "@/server/folios/payment-present";
import { paymentOfCharge } from "./processor-sync";
import { chargeableGuarantee } from "@/server/reservations/guarantee";
import type { PaymentCreate } from "./schemas";

type PaymentRow = typeof payments.$inferSelect;

/**
 * Takes a payment against a reservation's folio; the amount defaults to the balance. A declined
 * card is recorded as a failed payment (with `payment.failed`) before the 402 is answered. A card
 * through the property's processor is charged while the folio is locked, so two payments of one
 * balance queue up; `idempotencyKey` (the request's) makes the processor's charge the same on a retry.
 */
export async function createPayment({ db, tenant, input, idempotencyKey }: Ctx & { input: PaymentCreate; idempotencyKey?: string }) {
  const method = input.payment_method;
  if (!input.capture && method.type !== "card" && method.type !== "card_on_file") {
    throw new ApiError("parameter_invalid", "Only card payments can be authorized without capture.", { param: "capture" });
  }
  const outcome = await inTransaction(db, async (tx) => {
    const reservation = await findOwned(tx, reservations, tenant, input.reservation_id, "reservation", { param: "reservation_id" });
    const folio = await findOwned(tx, folios, tenant, reservation.folioId, "folio", { forUpdate: true });
    const balance = await folioBalance(tx, folio.id);
    // A closed folio (invoiced) takes only what its invoice left due: the receivable settled, the invoice unchanged.
    if (folio.status !== "open" && balance <= 0) throw new ApiError("invalid_state_transition", "The reservation's folio is closed; it takes no more payments.");
    if (folio.status !== "open" && !input.capture) throw new ApiError("invalid_state_transition", "The reservation's folio is invoiced; it takes only a captured payment of what is due.");
    if (folio.status !== "open" && (input.amount ?? balance) > balance) {
      throw new ApiError("amount_exceeds_balance", `The folio is invoiced; a payment may take at most what is due, ${balance} (minor units).`, {
        param: "amount",
        amount: { amount: balance, currency: folio.currency },
      });
    }
    const amount = input.amount ?? balance;
    if (amount <= 0) throw new ApiError("parameter_missing", "The folio has nothing to pay; send an amount.", { param: "amount" });
    const id = newId("payment");
    const card =
      method.type === "card" || method.type === "card_on_file"
        ? await chargeCard({
            db: tx,
            tenant,
            method: method.type === "card" ? method : { type: "card_on_file", guarantee: chargeableGuarantee(reservation, "payment_method.type") },
            payment: { id, propertyId: reservation.propertyId, reservationId: reservation.id, amount, currency: folio.currency, capture: input.capture, idempotencyKey },
          })
        : null;
    // A charge whose first answer was lost may have been found again meanwhile (Stripe's event, the
    // reconciliation: server/payments/processor-sync.ts); this retry, answered by Stripe with that
    // same charge, is that payment.
    const found = card?.processor?.paymentId ? await paymentOfCharge(tx, tenant, card.processor.paymentId) : undefined;
    if (found) return { payment: found, decline: null };
    const decline = card?.decline ?? null;
    const now = new Date();
    const status = decline ? "failed" : card?.requiresAction ? "pending" : !input.capture ? "authorized" : "succeeded";
    const [payment] = await tx
      .insert(payments)
      .values({
        id,
        ...tenantValues(tenant),
        propertyId: reservation.propertyId,
        reservationId: reservation.id,
        folioId: folio.id,
        amount,
        currency: folio.currency,
        status,
        methodType: method.type === "card_on_file" ? "card" : method.type,
        ...(card ? { cardBrand: card.card.brand, cardLast4: card.card.last4, cardExpMonth: card.card.expMonth, cardExpYear: card.card.expYear } : {}),
        processor: card?.processor?.type ?? null,
        processorPaymentId: card?.processor?.paymentId ?? null,
        bankReference: method.type === "bank_transfer" ? (method.reference ?? null) : null,
        failureCode: decline?.code ?? null,
        failureMessage: decline?.message ?? null,
        nextActionSecret: card?.requiresAction?.clientSecret ?? null,
        capturedAt: status === "succeeded" ? now : null,
      })
      .returning();
    // An authorization or a payment waiting on the guest's 3-D Secure moved no money yet: no event until it does.
    if (status !== "authorized" && status !== "pending") {
      await emitEvent(tx, tenant, {
        type: decline ? "payment.failed" : "payment.succeeded",
        propertyId: payment.propertyId,
        object: presentPayment(payment),
      });
    }
    return { payment, decline };
  });
  if (outcome.decline) {
    throw new ApiError(outcome.decline.code, outcome.decline.message, { param: "payment_method", extra: { payment_id: outcome.payment.id } });
  }
  return outcome.payment;
}

async function settleAuthorization({ db, tenant, id }: Ctx & { id: string }, to: "succeeded" | "voided") {
  return inTransaction(db, async (tx) => {
    const payment = await findOwned(tx, payments, tenant, id, "payment", { forUpdate: true });
    if (payment.status !== "authorized") {
      throw new ApiError(
        "invalid_state_transition",
        `Only an authorized payment can be ${to === "succeeded" ? "captured" : "voided"}; this one is ${payment.status}.`,
      );
    }
    if (payment.processorPaymentId) await settleAtProcessor(tx, tenant, payment, to);
    const [updated] = await tx
      .update(payments)
      .set({ status: to, capturedAt: to === "succeeded" ? new Date() : null, updatedAt: new Date() })
      .where(eq(payments.id, payment.id))
      .returning();
    if (to === "succeeded")
      await emitEvent(tx, tenant, { type: "payment.succeeded", propertyId: updated.propertyId, object: presentPayment(updated) });
    return updated;
  });
}

/** Captures or releases the authorization at the processor the payment went through (locked meanwhile). */
async function settleAtProcessor(tx: Executor, tenant: Ctx["tenant"], payment: PaymentRow, to: "succeeded" | "voided") {
  const connected = await processorFor(tx, tenant, payment.propertyId);
  if (!connected) throw noProcessorAnyMore();
  const processor = connected.processor;
  const idempotencyKey = processorIdempotencyKey(tenant, to === "succeeded" ? "capture" : "void", undefined, payment.id);
  if (to === "succeeded") await processor.capture({ processorPaymentId: payment.processorPaymentId!, amount: payment.amount, idempotencyKey });
  else await processor.cancel({ processorPaymentId: payment.processorPaymentId!, idempotencyKey });
}

/**
 * Raises an authorized card payment's hold to `amount`, the new total, for a stay that grew: by
 * the processor's incremental authorization where the card allows it (the same payment, its
 * amount raised, no money moved yet so no event); where it does not, the difference is held apart
 * on the stay's card on file as a new authorization. Answers the payment that holds the increase.
 * A sandbox test card's hold (no processor) is raised as asked.
 */
export async function raiseHold({ db, tenant, id, amount, idempotencyKey }: Ctx & { id: string; amount: number; idempotencyKey?: string }) {
  return inTransaction(db, async (tx) => {
    const payment = await findOwned(tx, payments, tenant, id, "payment", { forUpdate: true });
    if (payment.status !== "authorized") {
      throw new ApiError("invalid_state_transition", `Only an authorized payment's hold can be raised; this one is ${payment.status}.`);
    }
    if (amount <= payment.amount) {
      throw new ApiError("parameter_invalid", `amount is the new total to hold, more than the ${payment.amount} (minor units) held now.`, { param: "amount" });
    }
    const raise = async () => {
      const [updated] = await tx.update(payments).set({ amount, updatedAt: new Date() }).where(eq(payments.id, payment.id)).returning();
      return updated;
    };
    if (!payment.processorPaymentId) return raise();
    const connected = await processorFor(tx, tenant, payment.propertyId);
    if (!connected) throw noProcessorAnyMore();
    const result = await connected.processor.incrementAuthorization({
      processorPaymentId: payment.processorPaymentId,
      amount,
      idempotencyKey: processorIdempotencyKey(tenant, "increment", idempotencyKey, `${payment.id}:${amount}`),
    });
    if (result.status === "incremented") return raise();
    if (result.status === "declined") {
      throw new ApiError(result.decline.code, `${result.decline.message} The hold stays at what it was.`, { param: "amount", extra: { payment_id: payment.id } });
    }
    // The card's bank does not let the hold grow: the difference held apart, on the card on file.
    const [reservation] = await tx.select().from(reservations).where(eq(reservations.id, payment.reservationId));
    if (!reservation?.guarantee) {
      throw new ApiError(
        "invalid_state_transition",
        "This card's bank does not let the hold grow, and the stay has no card on file to hold the difference on: take a new authorization of the difference with the guest's card.",
        { param: "amount" },
      );
    }
    return createPayment({
      db: tx,
      tenant,
      input: { reservation_id: payment.reservationId, payment_method: { type: "card_on_file" }, amount: amount - payment.amount, capture: false },
      idempotencyKey: idempotencyKey ? `${idempotencyKey}:difference` : `${payment.id}:${amount}:difference`,
    });
  });
}

export const capturePayment = (ctx: Ctx & { id: string }) => settleAuthorization(ctx, "succeeded");
export const voidPayment = (ctx: Ctx & { id: string }) => settleAuthorization(ctx, "voided");

export const getPayment = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, payments, tenant, id, "payment");

export type PaymentFilters = { reservation_id?: string; status?: PaymentRow["status"] };

function paymentFilters(filters: PaymentFilters) {
  return [
    filters.reservation_id ? eq(payments.reservationId, filters.reservation_id) : undefined,
    filters.status ? eq(payments.status, filters.status) : undefined,
  ];
}

export async function listPayments({ db, tenant, filters, page }: Ctx & { filters: PaymentFilters; page: PageRequest }) {
  return listOwned(db, payments, tenant, page, ...paymentFilters(filters));
}

/** Deprecated offset pagination of GET /payments (v1.7), same order as the cursor form. */
export async function listPaymentsByOffset({ db, tenant, filters, limit, offset }: Ctx & { filters: PaymentFilters; limit: number; offset: number }) {
  const q = keyset(payments, { limit, cursor: null });
  const rows = await db
    .select()
    .from(payments)
    .where(ownedBy(payments, tenant, ...paymentFilters(filters)))
    .orderBy(...q.orderBy)
    .limit(limit + 1)
    .offset(offset);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
