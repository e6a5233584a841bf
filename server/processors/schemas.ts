import { z } from "@hono/zod-openapi";
import { processorTypes } from "@/db/schema";
import { idOf, timestamp } from "@/server/schemas";
import {
  stripeKeyMessage,
  stripeKeyPattern,
  stripePublishableKeyMessage,
  stripePublishableKeyPattern,
  stripeWebhookSecretMessage,
  stripeWebhookSecretPattern,
} from "@/lib/stripe-keys";

/** Stripe's secret (`sk_`) and restricted (`rk_`) keys, test or live. */
const stripeKey = z
  .string()
  .trim()
  .regex(stripeKeyPattern, stripeKeyMessage)
  .openapi({ description: "The account's secret or restricted key. Stored encrypted and never shown again; live keys only in the live data set." });

export const processorConnectSchema = z
  .strictObject({
    type: z.enum(processorTypes).openapi({ description: "The processor; `stripe` for now." }),
    secret_key: stripeKey,
    webhook_secret: z
      .string()
      .trim()
      .regex(stripeWebhookSecretPattern, stripeWebhookSecretMessage)
      .optional()
      .openapi({ description: "The signing secret of the Stripe webhook endpoint that sends Innkeep its events. Stored encrypted." }),
    publishable_key: z
      .string()
      .trim()
      .regex(stripePublishableKeyPattern, stripePublishableKeyMessage)
      .optional()
      .openapi({
        description:
          "The account's publishable key (`pk_test_…`/`pk_live_…`, of the same mode as `secret_key`): the dashboard starts Stripe.js with it to take cards in Stripe's Payment Element. Public by design; without it the dashboard cannot take a new card through Stripe.",
      }),
    property_id: z.string().min(1).max(64).optional().openapi({ description: "The property this account takes payments for; omitted, every property without one of its own." }),
  })
  .openapi("PaymentProcessorConnect", { example: { type: "stripe", secret_key: "sk_test_4eC39HqLyjWDarjtT1zdp7dc", property_id: "prop_9aV3kQ2rT8mX1nB4cD6eF0gH" } });

export const processorSchema = z
  .object({
    id: idOf("ppr"),
    object: z.literal("payment_processor"),
    livemode: z.boolean(),
    type: z.enum(processorTypes),
    property_id: idOf("prop").nullable().openapi({ description: "null: the account's, for every property without its own." }),
    mode: z.enum(["test", "live"]).openapi({ description: "The processor's mode of the key: `test` moves no real money." }),
    secret_key_hint: z.string().openapi({ example: "sk_test_…p7dc" }),
    webhook_secret_hint: z.string().nullable(),
    publishable_key: z.string().nullable().openapi({ description: "The publishable key Stripe.js is started with in the dashboard (public by design); null when none was given." }),
    processor_account_id: z.string().nullable().openapi({ description: "Stripe's `acct_…`, where the key may read it." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("PaymentProcessor");

export type ProcessorConnect = z.output<typeof processorConnectSchema>;
