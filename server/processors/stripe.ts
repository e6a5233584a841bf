import type Stripe from "stripe";
import { getConfig } from "@/server/config";
import { ApiError } from "@/server/errors";
import { isLiveStripeKey } from "@/lib/stripe-keys";
import type { CardDetails, CardProcessor, ChargeResult } from "./processor";
import { declineOf, foundChargeOf, foundSetupOf } from "./stripe-events";

/**
 * stripe-node, loaded when a hotel's key is first used rather than at start: 2 s and 20 MB of a
 * start on a loaded 2-core machine, for a module most requests never touch. Everything below that
 * reads it runs after a method of the processor has awaited `loadStripe`.
 */
let StripeClass: typeof Stripe | undefined;
const loadStripe = async () => (StripeClass ??= (await import("stripe")).default);
const errors = () => StripeClass!.errors;

/**
 * Stripe's client for one hotel's key. STRIPE_API_URL points it elsewhere than Stripe's API
 * (stripe-mock in tests). stripe-node retries a failed connection itself, with the same
 * idempotency key, so a retry never charges twice.
 */
function client(secretKey: string): Stripe {
  const base = getConfig().STRIPE_API_URL;
  const url = base ? new URL(base) : undefined;
  return new StripeClass!(secretKey, {
    maxNetworkRetries: 2,
    timeout: 30_000,
    appInfo: { name: "Innkeep" },
    ...(url ? { host: url.hostname, port: Number(url.port || (url.protocol === "https:" ? 443 : 80)), protocol: url.protocol.replace(":", "") as "http" | "https" } : {}),
  });
}

/**
 * A Stripe failure other than a decline, as the contract's error: an unreachable or failing
 * Stripe is 503 (the same request, with the same Idempotency-Key, may be retried safely), what
 * Stripe refuses about the request is 422 on `param`.
 */
function stripeFailure(error: unknown, param: string): never {
  if (error instanceof ApiError) throw error;
  if (error instanceof errors().StripeAuthenticationError || error instanceof errors().StripePermissionError) {
    throw new ApiError("service_unavailable", `Stripe refused the property's key (${error.message}). An owner must connect Stripe again in Settings.`);
  }
  if (error instanceof errors().StripeInvalidRequestError) {
    throw new ApiError("parameter_invalid", `Stripe refused the request: ${error.message}`, { param });
  }
  if (error instanceof errors().StripeError) {
    throw new ApiError("service_unavailable", `Stripe could not be reached or failed (${error.message}). Retry with the same Idempotency-Key: it is never charged twice.`);
  }
  throw error;
}

const cardOf = (method: Stripe.PaymentMethod): CardDetails | null =>
  method.card ? { brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year } : null;

export function stripeProcessor(secretKey: string): CardProcessor {
  let made: Promise<Stripe> | undefined;
  const stripeClient = () => (made ??= loadStripe().then(() => client(secretKey)));
  return {
    type: "stripe",

    async verify() {
      const stripe = await stripeClient();
      try {
        // Reading payments is what Innkeep needs of a restricted key; the account, where it may.
        await stripe.paymentIntents.list({ limit: 1 });
        const account = await stripe.accounts.retrieveCurrent().catch((error: unknown) => {
          if (error instanceof errors().StripePermissionError) return null;
          throw error;
        });
        return { processorAccountId: account?.id ?? null, mode: isLiveStripeKey(secretKey) ? "live" : "test" };
      } catch (error) {
        if (error instanceof errors().StripeAuthenticationError || error instanceof errors().StripePermissionError) {
          throw new ApiError("parameter_invalid", `Stripe refused this key: ${error.message}`, { param: "secret_key" });
        }
        return stripeFailure(error, "secret_key");
      }
    },

    async charge(input): Promise<ChargeResult> {
      const param = "payment_method.processor_payment_method";
      const stripe = await stripeClient();
      try {
        const method = await stripe.paymentMethods.retrieve(input.paymentMethod);
        if (method.type !== "card") throw new ApiError("parameter_invalid", `The payment method is a ${method.type}, not a card.`, { param });
        const card = cardOf(method);
        try {
          const intent = await stripe.paymentIntents.create(
            {
              amount: input.amount,
              currency: input.currency.toLowerCase(),
              payment_method: input.paymentMethod,
              allowed_payment_method_types: ["card"],
              confirm: true,
              capture_method: input.capture ? "automatic" : "manual",
              // A hold may have to grow with the stay: asked for wherever the card allows it.
              ...(input.capture ? {} : { payment_method_options: { card: { request_incremental_authorization: "if_available" as const } } }),
              ...(input.onFile ? { customer: input.onFile.customer, off_session: true } : {}),
              metadata: input.metadata,
              ...(input.description ? { description: input.description } : {}),
            },
            { idempotencyKey: input.idempotencyKey },
          );
          if (intent.status === "succeeded") return { status: "succeeded", processorPaymentId: intent.id, card, decline: null };
          if (intent.status === "requires_capture") return { status: "authorized", processorPaymentId: intent.id, card, decline: null };
          // 3-D Secure: the guest's browser completes it with Stripe.js; Stripe's event then settles it.
          if (intent.status === "requires_action") return { status: "requires_action", processorPaymentId: intent.id, card, decline: null, clientSecret: intent.client_secret };
          const message = `Stripe left the payment ${intent.status.replace(/_/g, " ")}; nothing was charged.`;
          await stripe.paymentIntents.cancel(intent.id, {}, { idempotencyKey: `${input.idempotencyKey}-cancel` }).catch(() => undefined);
          return { status: "failed", processorPaymentId: intent.id, card, decline: { code: "card_declined", message } };
        } catch (error) {
          if (error instanceof errors().StripeCardError) {
            return { status: "failed", processorPaymentId: error.payment_intent?.id ?? null, card, decline: declineOf(error) };
          }
          throw error;
        }
      } catch (error) {
        return stripeFailure(error, param);
      }
    },

    async saveCard({ paymentMethod, idempotencyKey, metadata, description }) {
      const param = "guarantee.processor_payment_method";
      const stripe = await stripeClient();
      try {
        const method = await stripe.paymentMethods.retrieve(paymentMethod);
        if (method.type !== "card") throw new ApiError("parameter_invalid", `The payment method is a ${method.type}, not a card.`, { param });
        const card = cardOf(method);
        // A customer of the guarantee's own: Stripe charges a saved card off-session only through one.
        const customer = await stripe.customers.create({ metadata, ...(description ? { description } : {}) }, { idempotencyKey: `${idempotencyKey}-customer` });
        try {
          const setup = await stripe.setupIntents.create(
            { customer: customer.id, payment_method: paymentMethod, allowed_payment_method_types: ["card"], usage: "off_session", confirm: true, metadata },
            { idempotencyKey: `${idempotencyKey}-setup` },
          );
          if (setup.status === "succeeded") return { status: "active", customer: customer.id, setup: setup.id, clientSecret: null, card, decline: null };
          if (setup.status === "requires_action") return { status: "requires_action", customer: customer.id, setup: setup.id, clientSecret: setup.client_secret, card, decline: null };
          return {
            status: "failed",
            customer: customer.id,
            setup: setup.id,
            clientSecret: null,
            card,
            decline: { code: "card_declined", message: `Stripe left the card's setup ${setup.status.replace(/_/g, " ")}; it is not on file.` },
          };
        } catch (error) {
          if (error instanceof errors().StripeCardError) return { status: "failed", customer: customer.id, setup: null, clientSecret: null, card, decline: declineOf(error) };
          throw error;
        }
      } catch (error) {
        return stripeFailure(error, param);
      }
    },

    async capture({ processorPaymentId, amount, idempotencyKey }) {
      const stripe = await stripeClient();
      await stripe.paymentIntents.capture(processorPaymentId, { amount_to_capture: amount }, { idempotencyKey }).catch((error) => stripeFailure(error, "id"));
    },

    async incrementAuthorization({ processorPaymentId, amount, idempotencyKey }) {
      const stripe = await stripeClient();
      try {
        await stripe.paymentIntents.incrementAuthorization(processorPaymentId, { amount }, { idempotencyKey });
        return { status: "incremented" };
      } catch (error) {
        if (error instanceof errors().StripeCardError) return { status: "declined", decline: declineOf(error) };
        // Not incrementable: a card or bank without it, or an authorization made without asking for it.
        if (error instanceof errors().StripeInvalidRequestError) return { status: "unavailable", reason: error.message };
        return stripeFailure(error, "amount");
      }
    },

    async cancel({ processorPaymentId, idempotencyKey }) {
      const stripe = await stripeClient();
      await stripe.paymentIntents.cancel(processorPaymentId, {}, { idempotencyKey }).catch((error) => stripeFailure(error, "id"));
    },

    async refund({ processorPaymentId, amount, idempotencyKey, metadata }) {
      const stripe = await stripeClient();
      const refund = await stripe.refunds.create({ payment_intent: processorPaymentId, amount, metadata }, { idempotencyKey }).catch((error) => stripeFailure(error, "payment_id"));
      return { processorRefundId: refund.id };
    },

    async chargesSince(since) {
      const stripe = await stripeClient();
      const found = [];
      // Newest first, page by page, until the first one older than `since`.
      for await (const intent of stripe.paymentIntents.list({ created: { gte: Math.floor(since.getTime() / 1000) }, limit: 100 })) found.push(foundChargeOf(intent));
      return found;
    },

    async findCharge(processorPaymentId) {
      const stripe = await stripeClient();
      return foundChargeOf(await stripe.paymentIntents.retrieve(processorPaymentId).catch((error) => stripeFailure(error, "id")));
    },

    async findSetup(setupId) {
      const stripe = await stripeClient();
      return foundSetupOf(await stripe.setupIntents.retrieve(setupId).catch((error) => stripeFailure(error, "id")));
    },

    async cardOf(paymentMethod) {
      const stripe = await stripeClient();
      return cardOf(await stripe.paymentMethods.retrieve(paymentMethod).catch((error) => stripeFailure(error, "payment_method")));
    },
  };
}
