import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { folios, payments, refunds, reservations } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { issueCreditNote } from "@/server/invoices/credit-notes";
import { newId } from "@/server/ids";
import type { CardDetails, FoundCharge, FoundDispute } from "@/server/processors/processor";
import { processorEnvironment } from "@/server/processors/keys";
import { ownedBy, tenantValues, type Tenant } from "@/server/tenancy";
import { presentPayment } from "@/server/folios/payment-present";
import { creditOfRefund } from "./refunds";

type PaymentRow = typeof payments.$inferSelect;

/** What settling something the processor said did: the payment it moved, or nothing to change. */
export type Settled = { outcome: "applied" | "ignored"; paymentId: string | null };
const ignored = (paymentId: string | null = null): Settled => ({ outcome: "ignored", paymentId });
const applied = (paymentId: string): Settled => ({ outcome: "applied", paymentId });

/** The payment a processor charge was recorded as (never a won dispute's reinstatement, which has no charge id), locked. */
export async function paymentOfCharge(tx: Executor, tenant: Tenant, processorPaymentId: string, lock = true): Promise<PaymentRow | undefined> {
  const query = tx
    .select()
    .from(payments)
    .where(ownedBy(payments, tenant, eq(payments.processor, "stripe"), eq(payments.processorPaymentId, processorPaymentId)));
  const [row] = lock ? await query.for("update") : await query;
  return row;
}

/**
 * Settles a charge to what the processor says it is. One Innkeep recorded moves on (an
 * authorization captured or cancelled at Stripe, a decline that went through after all); one it
 * never recorded (the answer was lost: a timeout, or the process died before its commit) is
 * recorded now from the ids it was charged with, under the payment id the request had given it,
 * on the business date it is found on. A charge that moved no money is nothing to record.
 */
export async function settleCharge(tx: Executor, tenant: Tenant, charge: FoundCharge, card: CardDetails | null): Promise<Settled> {
  const payment = await paymentOfCharge(tx, tenant, charge.processorPaymentId);
  if (!payment) return recordFoundCharge(tx, tenant, charge, card);
  const now = new Date();
  const to =
    charge.status === "succeeded" && (payment.status === "authorized" || payment.status === "failed" || payment.status === "pending")
      ? { status: "succeeded" as const, amount: charge.amount, capturedAt: now, failureCode: null, failureMessage: null }
      : charge.status === "authorized" && (payment.status === "failed" || payment.status === "pending")
        ? { status: "authorized" as const, failureCode: null, failureMessage: null }
        : charge.status === "canceled" && (payment.status === "authorized" || payment.status === "pending")
          ? { status: "voided" as const }
          : charge.status === "failed" && payment.status === "pending"
            ? { status: "failed" as const, failureCode: charge.decline?.code ?? "card_declined", failureMessage: charge.decline?.message ?? null }
            : null;
  if (!to) return ignored(payment.id);
  const [updated] = await tx.update(payments).set({ ...to, nextActionSecret: null, updatedAt: now }).where(eq(payments.id, payment.id)).returning();
  if (to.status === "succeeded" || to.status === "failed") {
    await emitEvent(tx, tenant, { type: to.status === "succeeded" ? "payment.succeeded" : "payment.failed", propertyId: updated.propertyId, object: presentPayment(updated) });
  }
  return applied(updated.id);
}

/** Whether a charge moved money that Innkeep should hold a payment for: the ids it carries name this account's reservation. */
export const chargeToRecord = (tenant: Tenant, charge: FoundCharge) =>
  (charge.status === "succeeded" || charge.status === "authorized") &&
  charge.metadata.innkeep_account_id === tenant.accountId &&
  Boolean(charge.metadata.innkeep_reservation_id) &&
  (!charge.metadata.innkeep_environment || charge.metadata.innkeep_environment === processorEnvironment(tenant));

async function recordFoundCharge(tx: Executor, tenant: Tenant, charge: FoundCharge, card: CardDetails | null): Promise<Settled> {
  if (!chargeToRecord(tenant, charge)) return ignored();
  const [reservation] = await tx.select().from(reservations).where(ownedBy(reservations, tenant, eq(reservations.id, charge.metadata.innkeep_reservation_id)));
  if (!reservation) return ignored();
  const [folio] = await tx.select().from(folios).where(eq(folios.id, reservation.folioId)).for("update");
  if (folio.currency !== charge.currency) return ignored();
  const succeeded = charge.status === "succeeded";
  const [payment] = await tx
    .insert(payments)
    .values({
      id: charge.metadata.innkeep_payment_id?.startsWith("pay_") ? charge.metadata.innkeep_payment_id : newId("payment"),
      ...tenantValues(tenant),
      propertyId: reservation.propertyId,
      reservationId: reservation.id,
      folioId: folio.id,
      amount: charge.amount,
      currency: folio.currency,
      status: succeeded ? "succeeded" : "authorized",
      methodType: "card",
      cardBrand: card?.brand ?? "unknown",
      cardLast4: card?.last4 ?? "",
      cardExpMonth: card?.expMonth ?? null,
      cardExpYear: card?.expYear ?? null,
      processor: "stripe",
      processorPaymentId: charge.processorPaymentId,
      capturedAt: succeeded ? new Date() : null,
    })
    .onConflictDoNothing()
    .returning();
  if (!payment) return ignored();
  if (succeeded) await emitEvent(tx, tenant, { type: "payment.succeeded", propertyId: payment.propertyId, object: presentPayment(payment) });
  return applied(payment.id);
}

/**
 * A refund made at the processor outside Innkeep (Stripe's dashboard): what the charge has had
 * refunded beyond what Innkeep recorded becomes a refund row, on the business date it is learnt
 * of, with a credit note where the folio is invoiced, as `POST /v1/refunds` would. Innkeep's own
 * refund holds the payment's lock until it commits, so this finds it already counted.
 */
export async function settleRefund(tx: Executor, tenant: Tenant, event: { processorPaymentId: string; amountRefunded: number; refundIds: string[] }): Promise<Settled> {
  const payment = await paymentOfCharge(tx, tenant, event.processorPaymentId);
  if (!payment) return ignored();
  const amount = Math.min(event.amountRefunded, payment.amount) - payment.amountRefunded;
  if (amount <= 0) return ignored(payment.id);
  const known = event.refundIds.length
    ? new Set((await tx.select({ id: refunds.processorRefundId }).from(refunds).where(inArray(refunds.processorRefundId, event.refundIds))).map((r) => r.id))
    : new Set<string | null>();
  const processorRefundId = event.refundIds.find((id) => !known.has(id)) ?? null;
  const [folio] = await tx.select().from(folios).where(eq(folios.id, payment.folioId)).for("update");
  // The money has gone back whatever Innkeep thinks of it: a closed folio without an invoice gets no credit note.
  const credit = folio.status === "closed" ? await creditOfRefund(tx, folio.id, amount).catch((error: unknown) => (error instanceof ApiError ? null : Promise.reject(error))) : null;
  let [refund] = await tx
    .insert(refunds)
    .values({ id: newId("refund"), ...tenantValues(tenant), propertyId: payment.propertyId, paymentId: payment.id, folioId: payment.folioId, amount, currency: payment.currency, reason: "Refunded in Stripe", processorRefundId })
    .returning();
  if (credit) {
    const note = await issueCreditNote(tx, tenant, credit.invoice, { amount: credit.amount, reason: "Refunded in Stripe" }, refund.id);
    [refund] = await tx.update(refunds).set({ creditNoteId: note.id }).where(eq(refunds.id, refund.id)).returning();
  }
  const [updated] = await tx
    .update(payments)
    .set({ amountRefunded: sql`${payments.amountRefunded} + ${amount}`, status: amount === payment.amount - payment.amountRefunded ? "refunded" : "partially_refunded", updatedAt: new Date() })
    .where(eq(payments.id, payment.id))
    .returning();
  await emitEvent(tx, tenant, { type: "payment.refunded", propertyId: payment.propertyId, object: { ...presentPayment(updated), refund_id: refund.id } });
  return applied(payment.id);
}

/**
 * A dispute (chargeback) on a charge. The payment keeps its capture and its day; what the bank
 * took back is a refund row marked with the dispute, posted on the business date it is learnt of,
 * so the folio owes it again and the reports count it that day (never in a closed one). A won
 * dispute gives the money back as a payment of the day it is won (`reinstates_payment_id`); a lost
 * one keeps the withdrawal; an inquiry moves no money until it becomes a dispute that does.
 * `payment.disputed` tells of a new dispute, and again when an inquiry turns into one that takes
 * the money; `payment.dispute_closed` of its end, in the same transaction. A status in between
 * (needs_response → under_review) is kept on the payment and told by neither.
 */
export async function settleDispute(tx: Executor, tenant: Tenant, dispute: FoundDispute): Promise<Settled> {
  const payment = await paymentOfCharge(tx, tenant, dispute.processorPaymentId);
  if (!payment) return ignored();
  const isNew = payment.disputeId !== dispute.id;
  const closing = dispute.closed && (isNew || payment.disputeStatus !== dispute.status);
  const [withdrawal] = await tx.select().from(refunds).where(and(eq(refunds.paymentId, payment.id), eq(refunds.disputeId, dispute.id)));
  let moved = false;
  let withdrawn = false;
  if (dispute.fundsWithdrawn && dispute.status !== "won" && !withdrawal) {
    await tx.insert(refunds).values({
      id: newId("refund"),
      ...tenantValues(tenant),
      propertyId: payment.propertyId,
      paymentId: payment.id,
      folioId: payment.folioId,
      amount: dispute.amount,
      currency: payment.currency,
      reason: `Dispute (${dispute.reason.replace(/_/g, " ")}): taken back by the cardholder's bank`,
      disputeId: dispute.id,
    });
    moved = withdrawn = true;
  }
  if (dispute.status === "won" && withdrawal) {
    const [reinstated] = await tx.select({ id: payments.id }).from(payments).where(and(eq(payments.reinstatesPaymentId, payment.id), isNotNull(payments.disputeId)));
    if (!reinstated) {
      await tx.insert(payments).values({
        id: newId("payment"),
        ...tenantValues(tenant),
        propertyId: payment.propertyId,
        reservationId: payment.reservationId,
        folioId: payment.folioId,
        amount: withdrawal.amount,
        currency: payment.currency,
        status: "succeeded",
        methodType: "card",
        cardBrand: payment.cardBrand,
        cardLast4: payment.cardLast4,
        cardExpMonth: payment.cardExpMonth,
        cardExpYear: payment.cardExpYear,
        processor: "stripe",
        disputeId: dispute.id,
        disputeStatus: dispute.status,
        disputeReason: dispute.reason,
        disputeAmount: dispute.amount,
        reinstatesPaymentId: payment.id,
        capturedAt: new Date(),
      });
      moved = true;
    }
  }
  if (!isNew && !closing && !moved && payment.disputeStatus === dispute.status) return ignored(payment.id);
  const [updated] = await tx
    .update(payments)
    .set({ disputeId: dispute.id, disputeStatus: dispute.status, disputeReason: dispute.reason, disputeAmount: dispute.amount, updatedAt: new Date() })
    .where(eq(payments.id, payment.id))
    .returning();
  if (isNew || withdrawn) await emitEvent(tx, tenant, { type: "payment.disputed", propertyId: updated.propertyId, object: presentPayment(updated) });
  if (closing) await emitEvent(tx, tenant, { type: "payment.dispute_closed", propertyId: updated.propertyId, object: presentPayment(updated) });
  return applied(updated.id);
}
