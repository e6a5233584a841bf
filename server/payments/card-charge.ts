import type { Executor } from "@/db/client";
import { ApiError } from "@/server/errors";
import type { Tenant } from "@/server/tenancy";
import { processorFor } from "@/server/processors/connections";
import { processorIdempotencyKey, tenantMetadata } from "@/server/processors/keys";
import type { CardDetails, Decline } from "@/server/processors/processor";
import { cardBrand, cardExpired, luhnValid, testCards } from "./cards";
import type { PaymentCreate } from "./schemas";
import type { CardGuarantee } from "@/db/schema";

type CardInput = Extract<PaymentCreate["payment_method"], { type: "card" }> | { type: "card_on_file"; guarantee: CardGuarantee };

/** What a card charge settled: the decline if any, the card as stored, and the processor's ids. */
export type CardOutcome = {
  decline: Decline | null;
  authorized: boolean;
  /** The guest must authenticate the charge (3-D Secure) with this client secret; until then the payment is pending. */
  requiresAction: { clientSecret: string } | null;
  card: CardDetails;
  processor: { type: "stripe"; paymentId: string | null } | null;
};

const declineMessages: Record<Decline["code"], string> = {
  card_declined: "The card was declined.",
  insufficient_funds: "The card has insufficient funds.",
  expired_card: "The card has expired.",
  incorrect_cvc: "The card's security code is incorrect.",
};

const sendInstead =
  'send the card as payment_method: {"type": "card", "processor_payment_method": "pm_…"}, collected by Stripe in the browser (Stripe.js, the Payment Element)';

/**
 * Decides a card payment. A processor's payment method (`pm_…`) is charged through the property's
 * processor, in either environment. A card number is a sandbox test card (contract §6) and is
 * refused in live mode: there, no card number may reach Innkeep.
 */
export async function chargeCard({
  db,
  tenant,
  method,
  payment,
}: {
  db: Executor;
  tenant: Tenant;
  method: CardInput;
  payment: { id: string; propertyId: string; reservationId: string; amount: number; currency: string; capture: boolean; idempotencyKey?: string };
}): Promise<CardOutcome> {
  const connected = await processorFor(db, tenant, payment.propertyId);
  if (method.type === "card_on_file") {
    // Saved at one Stripe account, chargeable only there: a property connected to another since
    // has no such customer.
    if (!connected || connected.row.id !== method.guarantee.processorId) {
      throw new ApiError(
        "invalid_state_transition",
        "The card on file was saved at a Stripe account the property is no longer connected to: put the card on file again, or take it at the desk.",
        { param: "payment_method.type" },
      );
    }
    return chargeThrough(connected, tenant, payment, method.guarantee.paymentMethod, { customer: method.guarantee.customer });
  }
  if (method.processor_payment_method !== undefined) {
    if (!connected) {
      throw new ApiError(
        "parameter_invalid",
        tenant.livemode
          ? "Live card payments need a configured payment processor, and none is configured. An owner connects Stripe in Settings; until then use cash or bank_transfer."
          : "No payment processor is connected in the sandbox: connect a Stripe test key in Settings, or pay with one of the sandbox's test card numbers.",
        { param: "payment_method.type" },
      );
    }
    return chargeThrough(connected, tenant, payment, method.processor_payment_method);
  }
  if (tenant.livemode) {
    throw connected
      ? new ApiError("parameter_invalid", `Live mode takes no card numbers: ${sendInstead}.`, { param: "payment_method.number" })
      : new ApiError(
          "parameter_invalid",
          `Live card payments need a configured payment processor, and none is configured. Use cash or bank_transfer, or the sandbox; once an owner connects Stripe in Settings, ${sendInstead}.`,
          { param: "payment_method.type" },
        );
  }
  const { number, exp_month: expMonth, exp_year: expYear } = method as Required<Pick<Extract<CardInput, { type: "card" }>, "number" | "exp_month" | "exp_year">>;
  if (!luhnValid(number)) throw new ApiError("parameter_invalid", "The card number is not valid.", { param: "payment_method.number" });
  const card = { brand: cardBrand(number), last4: number.slice(-4), expMonth, expYear };
  const outcome = testCards[number];
  const decline: Decline | null = !outcome
    ? { code: "card_declined", message: "The sandbox accepts only test card numbers; see the documentation." }
    : outcome !== "succeeds"
      ? { code: outcome, message: declineMessages[outcome] }
      : cardExpired(expMonth, expYear)
        ? { code: "expired_card", message: declineMessages.expired_card }
        : null;
  return { decline, authorized: !decline && !payment.capture, requiresAction: null, card, processor: null };
}

type Payment = Parameters<typeof chargeCard>[0]["payment"];

/** Charges a processor's payment method (a card on file: with its customer, off-session) for the payment. */
async function chargeThrough(
  connected: NonNullable<Awaited<ReturnType<typeof processorFor>>>,
  tenant: Tenant,
  payment: Payment,
  paymentMethod: string,
  onFile?: { customer: string },
): Promise<CardOutcome> {
  const result = await connected.processor.charge({
    amount: payment.amount,
    currency: payment.currency,
    paymentMethod,
    capture: payment.capture,
    idempotencyKey: processorIdempotencyKey(tenant, "payment", payment.idempotencyKey, payment.id),
    // Stripe answers a key sent again with its first result only for the very same parameters:
    // under a request's key a retry's new payment id must not be among them.
    metadata: {
      ...(payment.idempotencyKey ? {} : { innkeep_payment_id: payment.id }),
      innkeep_reservation_id: payment.reservationId,
      ...tenantMetadata(tenant),
    },
    ...(onFile ? { onFile } : {}),
  });
  return {
    decline: result.decline,
    authorized: result.status === "authorized",
    requiresAction: result.status === "requires_action" && result.clientSecret ? { clientSecret: result.clientSecret } : null,
    card: result.card ?? { brand: "unknown", last4: "", expMonth: null, expYear: null },
    processor: { type: connected.processor.type, paymentId: result.processorPaymentId },
  };
}

/** A payment made through Stripe can be settled only there. */
export const noProcessorAnyMore = () =>
  new ApiError("invalid_state_transition", "This card payment went through Stripe, and no Stripe account is connected any more: an owner connects it again in Settings.");

/**
 * Refunds at the processor a payment went through (null for one that went through none), before
 * Innkeep records the refund: a retry of the same request (its Idempotency-Key) is the same
 * refund at Stripe.
 */
export async function refundAtProcessor({
  db,
  tenant,
  payment,
  amount,
  refundId,
  idempotencyKey,
}: {
  db: Executor;
  tenant: Tenant;
  payment: { id: string; propertyId: string; processorPaymentId: string | null };
  amount: number;
  refundId: string;
  idempotencyKey?: string;
}): Promise<string | null> {
  if (!payment.processorPaymentId) return null;
  const connected = await processorFor(db, tenant, payment.propertyId);
  if (!connected) throw noProcessorAnyMore();
  const { processorRefundId } = await connected.processor.refund({
    processorPaymentId: payment.processorPaymentId,
    amount,
    idempotencyKey: processorIdempotencyKey(tenant, "refund", idempotencyKey, refundId),
    metadata: { ...(idempotencyKey ? {} : { innkeep_refund_id: refundId }), innkeep_payment_id: payment.id },
  });
  return processorRefundId;
}
