import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { reservations, type CardGuarantee } from "@/db/schema";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { processorFor } from "@/server/processors/connections";
import type { FoundSetup } from "@/server/processors/processor";
import { processorIdempotencyKey, tenantMetadata } from "@/server/processors/keys";
import type { Ctx, Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { presentReservation } from "./present";
import { loadReservation } from "./reservations";

/**
 * Saves a card as a stay's guarantee at the property's processor (a customer and a confirmed
 * setup for off-session use): before the booking's transaction, so a card the bank refuses books
 * nothing (402 with the decline's code), and no transaction waits on Stripe. A booking refused
 * afterwards (no availability) leaves an unused customer at Stripe, and no money moved.
 */
export async function saveGuarantee(
  db: Executor,
  tenant: Tenant,
  { propertyId, paymentMethod, requestKey, param }: { propertyId: string; paymentMethod: string; requestKey: string | undefined; param: string },
): Promise<CardGuarantee> {
  const connected = await processorFor(db, tenant, propertyId);
  if (!connected) {
    throw new ApiError(
      "parameter_invalid",
      "A card on file needs the property's payment processor, and none is connected: an owner connects Stripe in Settings. Until then book without a guarantee.",
      { param },
    );
  }
  const saved = await connected.processor.saveCard({
    paymentMethod,
    idempotencyKey: processorIdempotencyKey(tenant, "guarantee", requestKey, randomUUID()),
    metadata: { innkeep_property_id: propertyId, ...tenantMetadata(tenant) },
    description: "A stay's guarantee (Innkeep)",
  });
  if (saved.status === "failed") {
    const decline = saved.decline ?? { code: "card_declined" as const, message: "The card could not be saved." };
    throw new ApiError(decline.code, `${decline.message} The card is not on file.`, { param });
  }
  return {
    processorId: connected.row.id,
    customer: saved.customer,
    paymentMethod,
    setup: saved.setup,
    status: saved.status,
    card: saved.card,
    clientSecret: saved.clientSecret,
    createdAt: new Date().toISOString(),
  };
}

/**
 * Puts a card on file for a booked or in-house stay, replacing any before it (a card given after
 * a channel booking, or a new card when the first expired): `reservation.updated`.
 */
export async function guaranteeReservation({ db, tenant, actor, id, paymentMethod, requestKey }: ChangeCtx & { id: string; paymentMethod: string; requestKey?: string }) {
  const assertOpen = (status: string) => {
    if (status !== "confirmed" && status !== "checked_in") {
      throw new ApiError("invalid_state_transition", `Only a confirmed or in-house stay takes a card on file; this one is ${status.replace(/_/g, " ")}.`);
    }
  };
  const { reservation } = await loadReservation(db, tenant, id);
  assertOpen(reservation.status);
  const guarantee = await saveGuarantee(db, tenant, { propertyId: reservation.propertyId, paymentMethod, requestKey, param: "processor_payment_method" });
  return inTransaction(db, async (tx) => {
    const { reservation: r, guest } = await loadReservation(tx, tenant, id, true);
    assertOpen(r.status);
    const [updated] = await tx.update(reservations).set({ guarantee, updatedAt: new Date() }).where(eq(reservations.id, r.id)).returning();
    const result = { reservation: updated, guest };
    const after = presentReservation(result);
    await recordChange(
      tx,
      { tenant, actor },
      [{ type: "reservation.updated", propertyId: r.propertyId, object: after }],
      { action: "reservation.guaranteed", objectType: "reservation", objectId: r.id, before: presentReservation({ reservation: r, guest }), after },
    );
    return result;
  });
}

/** The card on file a charge without the guest may use, or a clear refusal of why not. */
export function chargeableGuarantee(r: Pick<typeof reservations.$inferSelect, "guarantee">, param: string): CardGuarantee {
  const g = r.guarantee;
  if (!g) throw new ApiError("invalid_state_transition", "The stay has no card on file: take the card itself, or put one on file first.", { param });
  if (g.status !== "active") {
    throw new ApiError("invalid_state_transition", "The card on file still awaits the guest's authentication (3-D Secure); it cannot be charged until they complete it.", { param });
  }
  return g;
}

/**
 * A card on file the guest has now authenticated (Stripe's `setup_intent.succeeded`): chargeable
 * from now on, `reservation.updated` (no trail entry: Stripe is no one of the account, as for its other events). False when no stay of the
 * tenant waits on that setup (already active, replaced, or not Innkeep's).
 */
export async function activateGuarantee(tx: Executor, tenant: Tenant, setupId: string): Promise<boolean> {
  const [waiting] = await tx
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        eq(reservations.accountId, tenant.accountId),
        eq(reservations.livemode, tenant.livemode),
        sql`${reservations.guarantee}->>'setup' = ${setupId}`,
        sql`${reservations.guarantee}->>'status' = 'requires_action'`,
      ),
    )
    .limit(1);
  if (!waiting) return false;
  const { reservation: r, guest } = await loadReservation(tx, tenant, waiting.id, true);
  if (!r.guarantee || r.guarantee.status !== "requires_action") return false;
  const [updated] = await tx
    .update(reservations)
    .set({ guarantee: { ...r.guarantee, status: "active", clientSecret: null }, updatedAt: new Date() })
    .where(eq(reservations.id, r.id))
    .returning();
  const after = presentReservation({ reservation: updated, guest });
  await recordChange(
    tx,
    { tenant, actor: null },
    [{ type: "reservation.updated", propertyId: r.propertyId, object: after }],
    { action: "reservation.guarantee_confirmed", objectType: "reservation", objectId: r.id, before: presentReservation({ reservation: r, guest }), after },
  );
  return true;
}

/**
 * A card on file waiting on the guest's 3-D Secure, settled to what Stripe holds now, right after
 * the desk's browser completed the bank's check with Stripe.js: the SetupIntent is retrieved and,
 * succeeded, applied by the very code that applies Stripe's `setup_intent.succeeded`
 * (`activateGuarantee`), so the desk does not wait for the webhook, and whichever comes second
 * changes nothing. The setup as Stripe holds it comes back too (null: nothing waited), so the desk
 * can say a refusal in words; a refused setup changes nothing here, and the card stays unchargeable.
 */
export async function refreshGuarantee({ db, tenant, id }: Ctx & { id: string }): Promise<{ result: Awaited<ReturnType<typeof loadReservation>>; setup: FoundSetup | null }> {
  const loaded = await loadReservation(db, tenant, id);
  const g = loaded.reservation.guarantee;
  if (!g || g.status !== "requires_action" || !g.setup) return { result: loaded, setup: null };
  const connected = await processorFor(db, tenant, loaded.reservation.propertyId);
  if (!connected || connected.row.id !== g.processorId) {
    throw new ApiError("invalid_state_transition", "The card on file was saved at a Stripe account the property is no longer connected to: put the card on file again.");
  }
  // Asked of Stripe before the transaction, so no lock waits on it.
  const setup = await connected.processor.findSetup(g.setup);
  if (setup.status !== "succeeded") return { result: loaded, setup };
  return inTransaction(db, async (tx) => {
    await activateGuarantee(tx, tenant, setup.setupId);
    return { result: await loadReservation(tx, tenant, id), setup };
  });
}
