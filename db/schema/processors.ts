import { sql } from "drizzle-orm";
import { pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";

export const processorTypes = ["stripe"] as const;
export type ProcessorType = (typeof processorTypes)[number];

/**
 * A hotel's card processor account (issue 37): one per property, or one for the whole account
 * (property_id null) that properties without their own use. The keys are sealed like webhook
 * secrets (server/sealed-secrets.ts) and never shown again: only their hints.
 */
export const paymentProcessors = pgTable(
  "payment_processors",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id"),
    type: text("type", { enum: processorTypes }).notNull(),
    /** Sealed `sk_…`/`rk_…` key. */
    secretKey: text("secret_key").notNull(),
    /** "sk_test_…4242": enough to tell keys apart, never enough to use one. */
    secretKeyHint: text("secret_key_hint").notNull(),
    /** Sealed `whsec_…` of the processor's webhook endpoint, when given. */
    webhookSecret: text("webhook_secret"),
    webhookSecretHint: text("webhook_secret_hint"),
    /** The processor's own id of the account the key belongs to (Stripe's `acct_…`), where the key may read it. */
    processorAccountId: text("processor_account_id"),
    /** The processor's mode of the key: `test` (sk_test_/rk_test_) moves no real money. */
    processorMode: text("processor_mode", { enum: ["test", "live"] }).notNull(),
    /**
     * The account's publishable key (`pk_test_…`/`pk_live_…`, migration 0035), for Stripe.js in the
     * dashboard's browser: public by design, so kept plain and shown; null until an owner gives it.
     */
    publishableKey: text("publishable_key"),
    ...timestamps(),
  },
  (t) => [uniqueIndex("payment_processors_scope_idx").on(t.accountId, t.livemode, sql`coalesce(${t.propertyId}, '')`)],
);

/**
 * Each event a processor sent (Stripe's `evt_…`), by connection, recorded in the transaction that
 * applied it (migration 0031): a redelivery finds its row and changes nothing. `outcome` says what
 * it did: `applied`, or `ignored` (a type Innkeep does not act on, or nothing left to change).
 */
export const processorEvents = pgTable(
  "processor_events",
  {
    processorId: text("processor_id").notNull(),
    eventId: text("event_id").notNull(),
    ...tenantColumns(),
    type: text("type").notNull(),
    outcome: text("outcome", { enum: ["applied", "ignored"] }).notNull(),
    /** The payment it moved, if any. */
    paymentId: text("payment_id"),
    receivedAt: ts("received_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.processorId, t.eventId] })],
);
