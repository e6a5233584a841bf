import type { ProcessorType } from "@/db/schema";

/** The card the processor charged, as a clerk may see it: never more than brand and last four. */
export type CardDetails = { brand: string; last4: string; expMonth: number | null; expYear: number | null };

/** A decline in Innkeep's card error codes (contract §2), from the processor's own codes. */
export type Decline = { code: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc"; message: string };

export type ChargeResult = {
  /** succeeded: captured; authorized: held for a later capture; failed: declined (see `decline`); requires_action: waits on the guest's 3-D Secure (see `clientSecret`). */
  status: "succeeded" | "authorized" | "failed" | "requires_action";
  processorPaymentId: string | null;
  card: CardDetails | null;
  decline: Decline | null;
  /** For `requires_action`: what the guest's browser completes the payment with (Stripe.js `handleNextAction`). */
  clientSecret?: string | null;
};

export type ChargeInput = {
  amount: number;
  currency: string;
  /** The processor's payment method (Stripe `pm_…`), collected by its own element in the browser. */
  paymentMethod: string;
  capture: boolean;
  /** Sent to the processor: the same charge asked twice is charged once. */
  idempotencyKey: string;
  /** Innkeep's ids, kept on the processor's object so a charge can always be found again. */
  metadata: Record<string, string>;
  description?: string;
  /**
   * A card on file: the processor's customer it was saved to, charged without the guest present
   * (Stripe's `off_session`), so a bank that asks for the guest's authentication declines instead.
   */
  onFile?: { customer: string };
};

/** What saving a card for later (a guarantee) came to. */
export type SavedCard = {
  /** active: chargeable off-session; requires_action: the guest must authenticate it first (3-D Secure); failed: refused (see `decline`). */
  status: "active" | "requires_action" | "failed";
  /** The processor's customer the card is saved to, and its setup (Stripe: `cus_…`, `seti_…`). */
  customer: string;
  setup: string | null;
  /** For `requires_action`: what the browser completes it with (Stripe.js `confirmCardSetup`). */
  clientSecret: string | null;
  card: CardDetails | null;
  decline: Decline | null;
};

/** A charge as the processor holds it now: what a charge found again (its event, the reconciliation) is settled to. */
export type FoundCharge = {
  processorPaymentId: string;
  /** succeeded: captured; authorized: held for a capture; failed and canceled: nothing moved; pending: not decided yet. */
  status: "succeeded" | "authorized" | "failed" | "canceled" | "pending";
  /** What was charged: captured, or held for an authorization. */
  amount: number;
  currency: string;
  created: Date;
  /** Innkeep's ids it was charged with (`innkeep_payment_id`, `innkeep_reservation_id`, `innkeep_account_id`, `innkeep_environment`). */
  metadata: Record<string, string>;
  paymentMethod: string | null;
  decline: Decline | null;
};

/** A card's setup for later charges as the processor holds it. */
export type FoundSetup = {
  setupId: string;
  /** succeeded: on file, chargeable off-session; requires_action: still waits on the guest; failed: the guest's bank refused it or the guest did not complete its check (see `decline`). */
  status: "succeeded" | "requires_action" | "failed";
  decline: Decline | null;
};

/** A dispute (chargeback) as the processor tells it. */
export type FoundDispute = {
  id: string;
  processorPaymentId: string;
  amount: number;
  currency: string;
  reason: string;
  /** The processor's own status (Stripe: warning_needs_response … won, lost). */
  status: string;
  /** The bank took the money back (a dispute, not an inquiry). */
  fundsWithdrawn: boolean;
  closed: boolean;
};

/** One event a processor sent, verified, in Innkeep's terms. */
export type ProcessorEvent = { id: string; type: string } & (
  | { kind: "charge"; charge: FoundCharge }
  | { kind: "refunded"; processorPaymentId: string; amountRefunded: number; currency: string; refundIds: string[] }
  | { kind: "dispute"; dispute: FoundDispute }
  /** A card's setup for later charges completed (the guest authenticated it). */
  | { kind: "setup_succeeded"; setupId: string }
  | { kind: "other" }
);

/**
 * What Innkeep asks of a card processor. Stripe first (stripe.ts); another (Adyen) implements the
 * same calls. Each call that moves money takes an idempotency key derived from Innkeep's own.
 */
export interface CardProcessor {
  readonly type: ProcessorType;
  /** Checks the key against the processor: its account id (null where the key may not read it) and mode. Throws `ApiError` for a key it refuses. */
  verify(): Promise<{ processorAccountId: string | null; mode: "test" | "live" }>;
  charge(input: ChargeInput): Promise<ChargeResult>;
  /** Saves a card to charge later without the guest (a booking's guarantee): a customer and a confirmed setup for off-session use. */
  saveCard(input: { paymentMethod: string; idempotencyKey: string; metadata: Record<string, string>; description?: string }): Promise<SavedCard>;
  capture(input: { processorPaymentId: string; amount: number; idempotencyKey: string }): Promise<void>;
  /**
   * Raises an authorization to `amount`, the new total held (a stay that grew). `unavailable`: the
   * card's bank or the authorization does not allow it (hold the difference apart); `declined`:
   * the bank refused the increase, and the authorization stands as it was.
   */
  incrementAuthorization(input: { processorPaymentId: string; amount: number; idempotencyKey: string }): Promise<
    { status: "incremented" } | { status: "unavailable"; reason: string } | { status: "declined"; decline: Decline }
  >;
  cancel(input: { processorPaymentId: string; idempotencyKey: string }): Promise<void>;
  refund(input: { processorPaymentId: string; amount: number; idempotencyKey: string; metadata: Record<string, string> }): Promise<{ processorRefundId: string }>;
  /** Charges created since `since` (Innkeep's and any other), for the reconciliation to find those whose answer was lost. */
  chargesSince(since: Date): Promise<FoundCharge[]>;
  /** One charge as the processor holds it now (Stripe: the PaymentIntent, retrieved), to settle a payment without waiting for its event. */
  findCharge(processorPaymentId: string): Promise<FoundCharge>;
  /** A card's setup as the processor holds it now (Stripe: the SetupIntent, retrieved), to settle a card on file without waiting for its event. */
  findSetup(setupId: string): Promise<FoundSetup>;
  /** The card of a payment method, as a clerk may see it. */
  cardOf(paymentMethod: string): Promise<CardDetails | null>;
}

/** "sk_test_…4242": the key's kind and mode and its last four characters, never enough to use it. */
export function keyHint(key: string): string {
  const kind = key.match(/^(sk|rk|whsec)_((test|live)_)?/)?.[0] ?? "";
  return `${kind}…${key.slice(-4)}`;
}
