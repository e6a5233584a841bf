import { and, asc, eq, gte, inArray, ne, sum } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import type { Executor } from "@/db/client";
import { chargeKinds, folioCharges, folios, payments, refunds, reservations, type NightlyRate } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { insertRows } from "@/server/prepared";
import { idOf, money, timestamp } from "@/server/schemas";
import { presentPayment, presentRefund } from "@/server/payments/present";
import { paymentSchema, refundSchema } from "@/server/payments/schemas";
import { findOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";

type FolioRow = typeof folios.$inferSelect;
type ChargeRow = typeof folioCharges.$inferSelect;

export async function openFolio(tx: Executor, tenant: Tenant, values: { propertyId: string; reservationId: string; currency: string }) {
  const [row] = await insertRows<(typeof folios.$inferSelect)[]>(
    tx,
    "folio_insert",
    folios,
    [{ id: newId("folio"), ...tenantValues(tenant), propertyId: values.propertyId, reservationId: values.reservationId, currency: values.currency }],
    { returning: true },
  );
  return row;
}

/** Where a stay's room nights and fees go: its folio (a group's master folio is shared) and the stay. */
export type ChargedStay = { folioId: string; id: string };

/** Room nights are posted to the folio at booking, one charge per night, each marked with its stay. */
export async function postRoomNights(tx: Executor, tenant: Tenant, stay: ChargedStay, nightly: NightlyRate[], label: string) {
  if (!nightly.length) return;
  const base = Date.now();
  await insertRows(
    tx,
    "room_nights_insert",
    folioCharges,
    nightly.map((n, i) => ({
      id: newId("charge"),
      ...tenantValues(tenant),
      folioId: stay.folioId,
      reservationId: stay.id,
      kind: "room_night" as const,
      description: `${label}, night of ${n.date}`,
      date: n.date,
      amount: n.amount,
      createdAt: new Date(base + i),
    })),
  );
}

/** Takes a stay's room nights (from `from` on, or all) off its folio; other stays' on a master folio stay. */
export async function removeRoomNights(tx: Executor, stay: ChargedStay, from?: string) {
  await tx
    .delete(folioCharges)
    .where(
      and(
        eq(folioCharges.folioId, stay.folioId),
        eq(folioCharges.reservationId, stay.id),
        eq(folioCharges.kind, "room_night"),
        from ? gte(folioCharges.date, from) : undefined,
      ),
    );
}

/** Whether the stay already has a line of this kind (a fee charged once per stay). */
export async function hasCharge(tx: Executor, stay: ChargedStay, kind: (typeof chargeKinds)[number]) {
  const [row] = await tx
    .select({ id: folioCharges.id })
    .from(folioCharges)
    .where(and(eq(folioCharges.folioId, stay.folioId), eq(folioCharges.reservationId, stay.id), eq(folioCharges.kind, kind)))
    .limit(1);
  return Boolean(row);
}

/** Payments that moved money: captured, whether or not refunded since. */
export const capturedStatuses = ["succeeded", "partially_refunded", "refunded"] as const;

/** What the guest owes: charges, less captured payments, plus what was refunded of them. */
export async function folioBalance(tx: Executor, folioId: string): Promise<number> {
  const [[charged], [paid], [refunded]] = await Promise.all([
    tx
      .select({ total: sum(folioCharges.amount) })
      .from(folioCharges)
      .where(eq(folioCharges.folioId, folioId)),
    tx
      .select({ total: sum(payments.amount) })
      .from(payments)
      .where(and(eq(payments.folioId, folioId), inArray(payments.status, [...capturedStatuses]))),
    tx
      .select({ total: sum(refunds.amount) })
      .from(refunds)
      .where(eq(refunds.folioId, folioId)),
  ]);
  return Number(charged?.total ?? 0) - Number(paid?.total ?? 0) + Number(refunded?.total ?? 0);
}

/**
 * Whether another stay still running (confirmed or in house) bills to this folio: a group's master
 * folio stays open, and unsettled, until its last room is done.
 */
export async function folioStillShared(tx: Executor, stay: ChargedStay & { groupId: string | null }) {
  // Only a group's rooms share a folio: a stay on its own costs no query.
  if (!stay.groupId) return false;
  const [other] = await tx
    .select({ id: reservations.id })
    .from(reservations)
    .where(
      and(
        eq(reservations.groupId, stay.groupId),
        eq(reservations.folioId, stay.folioId),
        ne(reservations.id, stay.id),
        inArray(reservations.status, ["confirmed", "checked_in"]),
      ),
    )
    .limit(1);
  return Boolean(other);
}

/** Closes the stay's folio once it is settled and no other running stay bills to it. */
export async function closeFolioIfDone(tx: Executor, stay: ChargedStay & { groupId: string | null }) {
  if ((await folioBalance(tx, stay.folioId)) === 0 && !(await folioStillShared(tx, stay))) await closeFolio(tx, stay.folioId);
}

export async function closeFolio(tx: Executor, folioId: string) {
  await tx.update(folios).set({ status: "closed", closedAt: new Date(), updatedAt: new Date() }).where(eq(folios.id, folioId));
}

export const chargeSchema = z
  .object({
    id: idOf("chg"),
    object: z.literal("folio_charge"),
    livemode: z.boolean(),
    folio_id: idOf("fol"),
    kind: z.enum(chargeKinds).openapi({ description: "`room_night` (posted per night of the stay), `extra` (added by staff), or a fee of the rate plan." }),
    description: z.string(),
    date: z.string().nullable(),
    amount: money,
    created_at: timestamp,
  })
  .openapi("FolioCharge");

export const folioSchema = z
  .object({
    id: idOf("fol"),
    object: z.literal("folio"),
    livemode: z.boolean(),
    reservation_id: idOf("res"),
    status: z.enum(["open", "closed"]),
    charges: z.array(chargeSchema),
    payments: z.array(paymentSchema),
    refunds: z.array(refundSchema),
    balance: money,
    created_at: timestamp,
    updated_at: timestamp,
    closed_at: timestamp.nullable(),
  })
  .openapi("Folio");

export const chargeCreateSchema = z
  .strictObject({
    description: z.string().trim().min(1).max(200),
    amount: z
      .number()
      .int()
      .min(-100_000_000)
      .max(100_000_000)
      .refine((n) => n !== 0, "The amount cannot be zero.")
      .openapi({ description: "Minor units in the folio's currency; negative for a credit; never 0.", not: { const: 0 } }),
  })
  .openapi("FolioChargeCreate");

export const presentCharge = (c: ChargeRow, currency: string) => ({
  id: c.id,
  object: "folio_charge" as const,
  livemode: c.livemode,
  folio_id: c.folioId,
  kind: c.kind,
  description: c.description,
  date: c.date,
  amount: { amount: c.amount, currency },
  created_at: c.createdAt.toISOString(),
});

async function presentFolio(db: Executor, folio: FolioRow) {
  const [charges, paymentRows, refundRows] = await Promise.all([
    db.select().from(folioCharges).where(eq(folioCharges.folioId, folio.id)).orderBy(asc(folioCharges.createdAt), asc(folioCharges.id)),
    db.select().from(payments).where(eq(payments.folioId, folio.id)).orderBy(asc(payments.createdAt), asc(payments.id)),
    db.select().from(refunds).where(eq(refunds.folioId, folio.id)).orderBy(asc(refunds.createdAt), asc(refunds.id)),
  ]);
  return {
    id: folio.id,
    object: "folio" as const,
    livemode: folio.livemode,
    reservation_id: folio.reservationId,
    status: folio.status,
    charges: charges.map((c) => presentCharge(c, folio.currency)),
    payments: paymentRows.map(presentPayment),
    refunds: refundRows.map(presentRefund),
    balance: { amount: await folioBalance(db, folio.id), currency: folio.currency },
    created_at: folio.createdAt.toISOString(),
    updated_at: folio.updatedAt.toISOString(),
    closed_at: folio.closedAt?.toISOString() ?? null,
  };
}

export async function getReservationFolio({ db, tenant, reservationId }: Ctx & { reservationId: string }) {
  const reservation = await findOwned(db, reservations, tenant, reservationId, "reservation");
  const folio = await findOwned(db, folios, tenant, reservation.folioId, "folio");
  return presentFolio(db, folio);
}

/** An extra charge (minibar, parking, a credit) on an open folio. */
export async function addCharge({ db, tenant, folioId, input }: Ctx & { folioId: string; input: z.output<typeof chargeCreateSchema> }) {
  return db.transaction(async (tx) => {
    const folio = await findOwned(tx, folios, tenant, folioId, "folio", { forUpdate: true });
    if (folio.status !== "open") throw new ApiError("invalid_state_transition", "The folio is closed; no charge can be added.");
    const [charge] = await tx
      .insert(folioCharges)
      .values({
        id: newId("charge"),
        ...tenantValues(tenant),
        folioId: folio.id,
        kind: "extra",
        description: input.description,
        amount: input.amount,
      })
      .returning();
    return presentCharge(charge, folio.currency);
  });
}
