import Stripe from "stripe";
import { ApiError } from "@/server/errors";
import type { Decline, FoundCharge, FoundSetup, ProcessorEvent } from "./processor";

/** Stripe's decline in Innkeep's codes: by Stripe's `code` and `decline_code`, never by its message's words. */
export function declineOf(error: { code?: string | null; decline_code?: string | null; message?: string | null }): Decline {
  // Stripe's code when the guest failed their bank's check, or closed it (docs: 3-D Secure authentication).
  if (error.code === "payment_intent_authentication_failure" || error.code === "setup_intent_authentication_failure") {
    return { code: "card_declined", message: "The guest did not complete their bank's check (3-D Secure), so nothing was charged: try again, or take another card." };
  }
  if (error.code === "authentication_required" || error.decline_code === "authentication_required") {
    return {
      code: "card_declined",
      message: "The card's bank asks for the guest's own authentication (3-D Secure), which a charge without the guest present cannot give: take the payment at the desk, or another card.",
    };
  }
  const code = error.code === "expired_card" || error.code === "incorrect_cvc" ? error.code : error.decline_code === "insufficient_funds" ? "insufficient_funds" : "card_declined";
  return { code, message: error.message ?? "The card was declined." };
}

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));

/** A PaymentIntent as the charge Innkeep settles to. */
export function foundChargeOf(intent: Stripe.PaymentIntent): FoundCharge {
  const error = intent.last_payment_error;
  const status: FoundCharge["status"] =
    intent.status === "succeeded"
      ? "succeeded"
      : intent.status === "requires_capture"
        ? "authorized"
        : intent.status === "canceled"
          ? "canceled"
          : intent.status === "requires_payment_method" && error
            ? "failed"
            : "pending";
  return {
    processorPaymentId: intent.id,
    status,
    amount: status === "succeeded" ? intent.amount_received || intent.amount : intent.amount,
    currency: intent.currency.toUpperCase(),
    created: new Date(intent.created * 1000),
    metadata: { ...(intent.metadata ?? {}) },
    paymentMethod: idOf(intent.payment_method),
    decline: status === "failed" && error ? declineOf(error) : null,
  };
}

/** A SetupIntent as the card on file's state: waiting on the guest, failed (with why), or done. */
export function foundSetupOf(setup: Stripe.SetupIntent): FoundSetup {
  const error = setup.last_setup_error;
  const status: FoundSetup["status"] =
    setup.status === "succeeded" ? "succeeded" : setup.status === "canceled" || (setup.status === "requires_payment_method" && error) ? "failed" : "requires_action";
  if (status !== "failed") return { setupId: setup.id, status, decline: null };
  const unauthenticated = !error || error.code === "setup_intent_authentication_failure";
  return {
    setupId: setup.id,
    status,
    decline: unauthenticated
      ? { code: "card_declined", message: "The guest did not complete their bank's check (3-D Secure), so the card is not on file: try again, or another card." }
      : declineOf(error),
  };
}

/** Stripe's dispute statuses in which the bank has not taken the money (an inquiry). */
const inquiries = new Set(["warning_needs_response", "warning_under_review", "warning_closed"]);
const closedStatuses = new Set(["won", "lost", "warning_closed", "prevented"]);

/**
 * Verifies one request Stripe sent to the endpoint (its `Stripe-Signature` over the raw body, by
 * stripe-node's `constructEvent`, within its five minutes' tolerance) and reads it in Innkeep's
 * terms. A signature that does not verify is a 400 on the header, and nothing is read.
 */
export function readStripeEvent(payload: Buffer, signature: string | undefined, secret: string): ProcessorEvent {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(payload, signature ?? "", secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError || error instanceof SyntaxError) {
      throw new ApiError("parameter_invalid", `The Stripe-Signature header does not verify with the connection's signing secret (${error.message}). Nothing was changed.`, {
        param: "Stripe-Signature",
        location: "header",
      });
    }
    throw error;
  }
  const base = { id: event.id, type: event.type };
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "payment_intent.canceled":
    case "payment_intent.amount_capturable_updated":
      return { ...base, kind: "charge", charge: foundChargeOf(event.data.object) };
    case "setup_intent.succeeded":
      return { ...base, kind: "setup_succeeded", setupId: event.data.object.id };
    case "charge.refunded": {
      const charge = event.data.object;
      const paymentIntent = idOf(charge.payment_intent);
      if (!paymentIntent) return { ...base, kind: "other" };
      return {
        ...base,
        kind: "refunded",
        processorPaymentId: paymentIntent,
        amountRefunded: charge.amount_refunded,
        currency: charge.currency.toUpperCase(),
        refundIds: (charge.refunds?.data ?? []).map((r) => r.id),
      };
    }
    // Each carries the dispute as it is now: an inquiry escalated to a dispute that takes the money
    // (funds_withdrawn), the money given back (funds_reinstated), a status between (updated).
    case "charge.dispute.created":
    case "charge.dispute.updated":
    case "charge.dispute.funds_withdrawn":
    case "charge.dispute.funds_reinstated":
    case "charge.dispute.closed": {
      const dispute = event.data.object;
      const paymentIntent = idOf(dispute.payment_intent);
      if (!paymentIntent) return { ...base, kind: "other" };
      return {
        ...base,
        kind: "dispute",
        dispute: {
          id: dispute.id,
          processorPaymentId: paymentIntent,
          amount: dispute.amount,
          currency: dispute.currency.toUpperCase(),
          reason: dispute.reason,
          status: dispute.status,
          fundsWithdrawn: !inquiries.has(dispute.status),
          closed: closedStatuses.has(dispute.status),
        },
      };
    }
    default:
      return { ...base, kind: "other" };
  }
}
