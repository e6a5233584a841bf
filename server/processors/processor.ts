import type { ProcessorType } from "@/db/schema";

/** The card the processor charged, as a clerk may see it: never more than brand and last four. */
export type CardDetails = { brand: string; last4: string; expMonth: number | null; expYear: number | null };

/** A decline in Innkeep's card error codes (contract §2), from the processor's own codes. */
export type Decline = { code: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc"; message: string };

export type ChargeResult = {
  /** succeeded: captured; authorized: held for a later capture; failed: declined (see `decline`). */
  status: "succeeded" | "authorized" | "failed";
  processorPaymentId: string | null;
  card: CardDetails | null;
  decline: Decline | null;
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
};

/**
 * What Innkeep asks of a card processor. Stripe first (stripe.ts); another (Adyen) implements the
 * same five calls. Each call that moves money takes an idempotency key derived from Innkeep's own.
 */
export interface CardProcessor {
  readonly type: ProcessorType;
  /** Checks the key against the processor: its account id (null where the key may not read it) and mode. Throws `ApiError` for a key it refuses. */
  verify(): Promise<{ processorAccountId: string | null; mode: "test" | "live" }>;
  charge(input: ChargeInput): Promise<ChargeResult>;
  capture(input: { processorPaymentId: string; amount: number; idempotencyKey: string }): Promise<void>;
  cancel(input: { processorPaymentId: string; idempotencyKey: string }): Promise<void>;
  refund(input: { processorPaymentId: string; amount: number; idempotencyKey: string; metadata: Record<string, string> }): Promise<{ processorRefundId: string }>;
}

/** "sk_test_…4242": the key's kind and mode and its last four characters, never enough to use it. */
export function keyHint(key: string): string {
  const kind = key.match(/^(sk|rk|whsec)_((test|live)_)?/)?.[0] ?? "";
  return `${kind}…${key.slice(-4)}`;
}
