import { and, eq } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { paymentProcessors, processorEvents } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { ApiError } from "@/server/errors";
import { processorOf } from "@/server/processors/connections";
import type { CardDetails, ProcessorEvent } from "@/server/processors/processor";
import { readStripeEvent } from "@/server/processors/stripe-events";
import { openSecret } from "@/server/sealed-secrets";
import type { Tenant } from "@/server/tenancy";
import { activateGuarantee } from "@/server/reservations/guarantee";
import { chargeToRecord, paymentOfCharge, settleCharge, settleDispute, settleRefund, type Settled } from "./processor-sync";

export type Received = Settled & { event: string; duplicate: boolean };

/**
 * Receives one event Stripe sent to a connection's endpoint (`POST /stripe/webhooks/{id}`):
 * verified against the connection's signing secret over the raw body, then applied once. The
 * event's id is recorded in the transaction that applies it, so a redelivery (Stripe's retry, or
 * the same event sent twice at once: the second waits for the first's row) changes nothing. A type
 * Innkeep does not act on is recorded as ignored and answered 200, so Stripe stops sending it.
 */
export async function receiveProcessorEvent({ db, processorId, payload, signature }: { db: Db; processorId: string; payload: Buffer; signature: string | undefined }): Promise<Received> {
  const [row] = await db.select().from(paymentProcessors).where(eq(paymentProcessors.id, processorId));
  if (!row) throw new ApiError("resource_missing", `No such payment processor: '${processorId.slice(0, 64)}'`, { param: "id", location: "path" });
  if (!row.webhookSecret) {
    throw new ApiError(
      "parameter_invalid",
      "This Stripe connection has no webhook signing secret, so its events cannot be verified: an owner adds the endpoint's signing secret (whsec_…) in Settings.",
      { param: "Stripe-Signature", location: "header" },
    );
  }
  const event = readStripeEvent(payload, signature, openSecret(row.webhookSecret, `${row.id}:webhook`));
  const tenant: Tenant = { accountId: row.accountId, livemode: row.livemode, propertyIds: null };
  // A charge Innkeep has not recorded gets its card from Stripe first: no lock is held while Stripe answers.
  let card: CardDetails | null = null;
  if (event.kind === "charge" && chargeToRecord(tenant, event.charge) && event.charge.paymentMethod && !(await paymentOfCharge(db, tenant, event.charge.processorPaymentId, false))) {
    card = await processorOf(row)
      .cardOf(event.charge.paymentMethod)
      .catch(() => null);
  }
  return inTransaction(db, async (tx) => {
    const [first] = await tx
      .insert(processorEvents)
      .values({ processorId: row.id, eventId: event.id, accountId: row.accountId, livemode: row.livemode, type: event.type, outcome: "ignored" })
      .onConflictDoNothing()
      .returning();
    if (!first) return { event: event.id, duplicate: true, outcome: "ignored", paymentId: null };
    const settled = await settle(tx, tenant, event, card);
    if (settled.outcome === "applied") {
      await tx.update(processorEvents).set({ outcome: "applied", paymentId: settled.paymentId }).where(and(eq(processorEvents.processorId, row.id), eq(processorEvents.eventId, event.id)));
    }
    return { event: event.id, duplicate: false, ...settled };
  });
}

function settle(tx: Executor, tenant: Tenant, event: ProcessorEvent, card: CardDetails | null): Promise<Settled> {
  switch (event.kind) {
    case "charge":
      return settleCharge(tx, tenant, event.charge, card);
    case "refunded":
      return settleRefund(tx, tenant, event);
    case "dispute":
      return settleDispute(tx, tenant, event.dispute);
    case "setup_succeeded":
      return activateGuarantee(tx, tenant, event.setupId).then((activated) => ({ outcome: activated ? "applied" : "ignored", paymentId: null }));
    default:
      return Promise.resolve({ outcome: "ignored", paymentId: null });
  }
}
