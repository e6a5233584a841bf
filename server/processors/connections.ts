import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { paymentProcessors, properties } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { isLiveStripeKey, stripeKeyMode } from "@/lib/stripe-keys";
import { newId } from "@/server/ids";
import { openSecret, sealSecret } from "@/server/sealed-secrets";
import { findOwned, ownedBy, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { keyHint, type CardProcessor } from "./processor";
import { presentProcessor } from "./present";
import type { ProcessorConnect } from "./schemas";
import { stripeProcessor } from "./stripe";

type ProcessorRow = typeof paymentProcessors.$inferSelect;

/**
 * Connects a processor account (an owner in Settings, or `POST /v1/payment_processors`): the key
 * is checked against the processor first, then sealed and kept, replacing the one connected for
 * the same property (or the account) before. A live key is refused in the sandbox.
 */
export async function connectProcessor({ db, tenant, actor, input }: ChangeCtx & { input: ProcessorConnect }) {
  if (!tenant.livemode && isLiveStripeKey(input.secret_key)) {
    throw new ApiError("parameter_invalid", "A live Stripe key moves real money and cannot be used in the sandbox: use a test key (sk_test_… or rk_test_…).", {
      param: "secret_key",
    });
  }
  if (input.publishable_key && stripeKeyMode(input.publishable_key) !== stripeKeyMode(input.secret_key)) {
    throw new ApiError(
      "parameter_invalid",
      `The publishable key is a ${stripeKeyMode(input.publishable_key)} key and the secret key a ${stripeKeyMode(input.secret_key)} one: give the two keys of the same mode from Stripe's Developers › API keys.`,
      { param: "publishable_key" },
    );
  }
  if (input.property_id) await findOwned(db, properties, tenant, input.property_id, "property", { param: "property_id" });
  const { processorAccountId, mode } = await stripeProcessor(input.secret_key).verify();
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(paymentProcessors).where(scopeOf(tenant, input.property_id ?? null)).for("update");
    const id = before?.id ?? newId("paymentProcessor");
    const values = {
      type: input.type,
      secretKey: sealSecret(input.secret_key, id),
      secretKeyHint: keyHint(input.secret_key),
      webhookSecret: input.webhook_secret ? sealSecret(input.webhook_secret, `${id}:webhook`) : null,
      webhookSecretHint: input.webhook_secret ? keyHint(input.webhook_secret) : null,
      processorAccountId,
      processorMode: mode,
      publishableKey: input.publishable_key ?? null,
      updatedAt: new Date(),
    };
    const [row] = before
      ? await tx.update(paymentProcessors).set(values).where(eq(paymentProcessors.id, id)).returning()
      : await tx
          .insert(paymentProcessors)
          .values({ id, ...tenantValues(tenant), propertyId: input.property_id ?? null, ...values })
          .returning();
    await audit(
      tx,
      { tenant, actor },
      { action: "payment_processor.connected", objectType: "payment_processor", objectId: id, before: before ? presentProcessor(before) : undefined, after: presentProcessor(row) },
    );
    return row;
  });
}

/** Disconnects a processor: its keys are deleted; card payments of its properties need another, or answer 422 in live mode. */
export async function removeProcessor({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const row = await findOwned(tx, paymentProcessors, tenant, id, "payment processor", { forUpdate: true });
    await tx.delete(paymentProcessors).where(eq(paymentProcessors.id, row.id));
    await audit(tx, { tenant, actor }, { action: "payment_processor.removed", objectType: "payment_processor", objectId: row.id, before: presentProcessor(row) });
    return row;
  });
}

/** The environment's processors, the account's first, then by property. */
export async function listProcessors({ db, tenant }: Ctx) {
  return db
    .select()
    .from(paymentProcessors)
    .where(ownedBy(paymentProcessors, tenant))
    .orderBy(sql`${paymentProcessors.propertyId} nulls first`, paymentProcessors.createdAt);
}

/** The one row for a property (or, null, the account) in the tenant's environment. */
function scopeOf(tenant: Tenant, propertyId: string | null) {
  return and(
    eq(paymentProcessors.accountId, tenant.accountId),
    eq(paymentProcessors.livemode, tenant.livemode),
    propertyId ? eq(paymentProcessors.propertyId, propertyId) : isNull(paymentProcessors.propertyId),
  );
}

/**
 * The processor that takes a property's cards: its own, else the account's; null when neither is
 * connected. Its key is opened only here, for the call about to be made.
 */
export async function processorFor(db: Executor, tenant: Pick<Tenant, "accountId" | "livemode">, propertyId: string): Promise<{ row: ProcessorRow; processor: CardProcessor } | null> {
  const [row] = await db
    .select()
    .from(paymentProcessors)
    .where(
      and(
        eq(paymentProcessors.accountId, tenant.accountId),
        eq(paymentProcessors.livemode, tenant.livemode),
        or(eq(paymentProcessors.propertyId, propertyId), isNull(paymentProcessors.propertyId)),
      ),
    )
    .orderBy(sql`${paymentProcessors.propertyId} nulls last`)
    .limit(1);
  return row ? { row, processor: processorOf(row) } : null;
}

/**
 * What a browser needs to take a card for a property through its processor (the dashboard's
 * Payment Element): the processor and its publishable key (null when the owner gave none). Null
 * when no processor takes the property's cards, where the sandbox's test numbers are typed instead.
 */
export async function cardEntryFor({ db, tenant, propertyId }: Ctx & { propertyId: string }): Promise<{ processor: "stripe"; mode: "test" | "live"; publishable_key: string | null } | null> {
  await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  const connected = await processorFor(db, tenant, propertyId);
  return connected ? { processor: connected.row.type, mode: connected.row.processorMode, publishable_key: connected.row.publishableKey } : null;
}

/** The processor of a connected row (the one a payment went through). */
export function processorOf(row: ProcessorRow): CardProcessor {
  return stripeProcessor(openSecret(row.secretKey, row.id));
}
