import { and, asc, eq, gte, inArray, ne, sum } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import type { Executor } from "@/db/client";
import { chargeKinds, creditNotes, folioCharges, folios, payments, refunds, reservations, invoices, taxes, type ChargeKind, type LineTax, type NightlyRate } from "@/db/schema";
import { newId } from "@/server/ids";
import { insertRows, preparedQuery } from "@/db/prepared";
import { date, idOf, money, timestamp } from "@/server/schemas";
import { presentPayment, presentRefund } from "./payment-present";
import { paymentSchema, refundSchema } from "./payment-schemas";
import { findOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { nightLines, sumLines, taxLine, type PricedLine, type StayPrice, type TaxRule } from "@/server/taxes/compute";

type FolioRow = typeof folios.$inferSelect;
type ChargeRow = typeof folioCharges.$inferSelect;

export async function openFolio(tx: Executor, tenant: Tenant, values: { id?: string; propertyId: string; reservationId: string; currency: string }) {
  const [row] = await insertRows<(typeof folios.$inferSelect)[]>(
    tx,
    "folio_insert",
    folios,
    [{ id: values.id ?? newId("folio"), ...tenantValues(tenant), propertyId: values.propertyId, reservationId: values.reservationId, currency: values.currency }],
    { returning: true },
  );
  return row;
}

/** The property's taxes in force, as the arithmetic of server/taxes/compute.ts needs them. */
export async function taxRulesOf(tx: Executor, propertyId: string): Promise<TaxRule[]> {
  // Read by every quote and every booking: a statement prepared once.
  return preparedQuery(tx, "tax_rules", { property: propertyId }, (p) =>
    tx
      .select({ id: taxes.id, name: taxes.name, kind: taxes.kind, percentThousandths: taxes.percentThousandths, amount: taxes.amount, inclusive: taxes.inclusive, appliesTo: taxes.appliesTo })
      .from(taxes)
      .where(and(eq(taxes.propertyId, p("property")), eq(taxes.active, true)))
      .orderBy(asc(taxes.createdAt), asc(taxes.id)),
  );
}

/** Where a stay's charges go: its folio (a group's master folio is shared) and the stay itself. */
export type ChargedStay = { folioId: string; id: string };

/** The stay whose room nights are posted: where they go, its property and how many guests (per-guest fees). */
export type NightsOf = ChargedStay & { propertyId: string; adults: number; children: number };

/** Room nights and the per-night taxes posted with them leave the folio together. */
export const nightLineKinds = ["room_night", "tax"] as const;

/**
 * Room nights are posted to the folio at booking, one charge per night marked with its stay, each
 * with the property's percentage taxes on room nights, followed by its per-night fees (city tax)
 * as lines of kind `tax` dated that night, so that removing a night removes its taxes and fees.
 */
export async function postRoomNights(
  tx: Executor,
  tenant: Tenant,
  stay: NightsOf,
  nightly: NightlyRate[],
  label: string,
  /** The property's taxes when the caller read them already (a booking reads them with its checks). */
  taxRules?: Promise<TaxRule[]>,
): Promise<StayPrice> {
  if (!nightly.length) return sumLines([]);
  const rules = await (taxRules ?? taxRulesOf(tx, stay.propertyId));
  const base = Date.now();
  let at = 0;
  const line = (values: Omit<typeof folioCharges.$inferInsert, "id" | "accountId" | "livemode" | "folioId" | "reservationId" | "createdAt"> & PricedLine) => ({
    id: newId("charge"),
    ...tenantValues(tenant),
    folioId: stay.folioId,
    reservationId: stay.id,
    createdAt: new Date(base + at++),
    ...values,
  });
  const rows = nightly.flatMap((n) => {
    const { night, fees } = nightLines(n.amount, rules, stay.adults + stay.children);
    return [
      line({ kind: "room_night", description: `${label}, night of ${n.date}`, date: n.date, ...night }),
      ...fees.map((f) => line({ kind: "tax", description: `${f.rule.name}, ${f.detail ? `${f.detail}, ` : ""}night of ${n.date}`, date: n.date, ...f.line })),
    ];
  });
  await insertRows(tx, "room_nights_insert", folioCharges, rows);
  return sumLines(rows);
}

/** A stay's price as the reservation row keeps it (gross = net + tax). */
export const priceColumns = (p: StayPrice) => ({ netAmount: p.net, taxAmount: p.tax, taxes: p.taxes });

/**
 * What a stay's room nights and their per-night taxes on its folio come to now: a reservation's
 * price after a change of its nights (shortened, extended, re-quoted, upgraded from a night on).
 */
export async function chargedStayPrice(tx: Executor, stay: ChargedStay): Promise<StayPrice> {
  const lines = await tx
    .select({ amount: folioCharges.amount, taxAmount: folioCharges.taxAmount, taxes: folioCharges.taxes })
    .from(folioCharges)
    .where(and(eq(folioCharges.folioId, stay.folioId), eq(folioCharges.reservationId, stay.id), inArray(folioCharges.kind, [...nightLineKinds])))
    .orderBy(asc(folioCharges.createdAt), asc(folioCharges.id));
  return sumLines(lines);
}

/** Takes a stay's room nights and their per-night taxes (from `from` on, or all) off its folio; other stays' on a master folio stay. */
export async function removeRoomNights(tx: Executor, stay: ChargedStay, from?: string) {
  await tx
    .delete(folioCharges)
    .where(
      and(
        eq(folioCharges.folioId, stay.folioId),
        eq(folioCharges.reservationId, stay.id),
        inArray(folioCharges.kind, [...nightLineKinds]),
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

/**
 * A line other than a room night (an extra, a credit, a rate plan's fee) priced `price`, with
 * the property's percentage taxes on other charges; `amount` is then what the guest pays. A fee
 * names its stay (`reservationId`); an extra posted on a folio may not.
 */
export async function postOtherCharge(
  tx: Executor,
  tenant: Tenant,
  folio: { id: string; propertyId: string },
  values: { kind: Exclude<ChargeKind, "room_night" | "tax">; description: string; date: string | null; price: number; reservationId?: string },
) {
  const taxed = taxLine(values.price, await taxRulesOf(tx, folio.propertyId), "other_charges");
  const [row] = await tx
    .insert(folioCharges)
    .values({
      id: newId("charge"),
      ...tenantValues(tenant),
      folioId: folio.id,
      reservationId: values.reservationId ?? null,
      kind: values.kind,
      description: values.description,
      date: values.date,
      amount: taxed.amount,
      taxAmount: taxed.taxAmount,
      taxes: taxed.taxes,
    })
    .returning();
  return row;
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

export const lineTaxSchema = z
  .object({
    tax_id: idOf("tax"),
    name: z.string(),
    amount: money,
    inclusive: z.boolean().openapi({ description: "Whether the tax was inside the price (true) or added to it." }),
  })
  .openapi("LineTax");

export const chargeSchema = z
  .object({
    id: idOf("chg"),
    object: z.literal("folio_charge"),
    livemode: z.boolean(),
    folio_id: idOf("fol"),
    kind: z.enum(chargeKinds).openapi({
      description:
        "`room_night` (posted per night of the stay), `extra` (added by staff), a fee of the rate plan, or `tax`: a per-night or per-person-per-night tax of the property (city tax), posted beside each room night and wholly tax.",
    }),
    description: z.string(),
    date: z.string().nullable(),
    amount: money,
    net: money,
    tax: money,
    taxes: z.array(lineTaxSchema).openapi({ description: "Which taxes make up `tax`, each with its share." }),
    posted_on: date.openapi({
      description:
        "The property's business date the line was posted on (never a day its night audit closed): the day an extra, a fee or a credit counts in the revenue report and the flash. A room night counts in its own night, `date`.",
    }),
    created_at: timestamp,
  })
  .openapi("FolioCharge", {
    description:
      "A folio line. `amount` is what the guest pays for it (gross), `net` the line without its taxes and `tax` the taxes in `amount` (net + tax = amount), rounded per line as the API conventions' Taxes section states.",
  });

export const folioTotalsSchema = z
  .object({ net: money, tax: money, gross: money })
  .openapi("FolioTotals", { description: "The sums of the folio's lines: `gross` is what the guest is charged, `tax` the taxes in it." });

const usd = (amount: number) => ({ amount, currency: "USD" });

export const stayPriceSchema = z
  .object({
    net: money,
    tax: money,
    gross: money,
    taxes: z.array(lineTaxSchema).openapi({ description: "Each tax's share of `tax` over the stay, percentages and per-night fees (city tax) alike, in the order they appear on the folio." }),
  })
  .openapi("StayPrice", {
    description:
      "A stay's room nights as its folio charges them, with the property's taxes in force: `gross` is what the guest pays for them (the nightly rates, plus any exclusive tax and per-night fee), `net` the same without taxes, `tax` the taxes (gross = net + tax). Each night is one folio line taxed and rounded on its own (API conventions, Taxes), so this is exactly the sum of those lines. Fees and extras posted later are not in it.",
    example: {
      net: usd(20000),
      tax: usd(2800),
      gross: usd(22800),
      taxes: [
        { tax_id: "tax_1a2b3c4d5e6f7g8h", name: "VAT", amount: usd(2000), inclusive: true },
        { tax_id: "tax_9h8g7f6e5d4c3b2a", name: "City tax", amount: usd(800), inclusive: false },
      ],
    },
  });

const presentLineTax = (t: LineTax, currency: string) => ({ tax_id: t.tax_id, name: t.name, amount: { amount: t.amount, currency }, inclusive: t.inclusive });

/** A stay's price (a quote's, or as a reservation keeps it) in the API's shape. */
export const presentStayPrice = (p: Omit<StayPrice, "gross">, currency: string) => ({
  net: { amount: p.net, currency },
  tax: { amount: p.tax, currency },
  gross: { amount: p.net + p.tax, currency },
  taxes: p.taxes.map((t) => presentLineTax(t, currency)),
});

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
    totals: folioTotalsSchema,
    balance: money,
    invoice_id: idOf("inv").nullable().openapi({ description: "The invoice the folio closed into; null until one is issued." }),
    supplementary_invoices: z
      .array(z.object({ id: idOf("inv"), number: z.number().int() }))
      .openapi({ description: "Invoices of charges posted after `invoice_id` was issued (late charges after check-out), oldest first; their lines are among `charges`." }),
    credit_notes: z
      .array(z.object({ id: idOf("cn"), number: z.number().int() }))
      .openapi({ description: "The credit notes issued on the folio's invoice, oldest first; their lines are among `charges`." }),
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
      .openapi({
        description:
          "Minor units in the folio's currency; negative for a credit; never 0. The price as on the menu: the property's percentage taxes on other charges are inside it (inclusive) or added to it (exclusive), so the line's `amount` may be more.",
        not: { const: 0 },
      }),
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
  net: { amount: c.amount - c.taxAmount, currency },
  tax: { amount: c.taxAmount, currency },
  taxes: c.taxes.map((t) => presentLineTax(t, currency)),
  // Set by the database in the posting's transaction (migration 0027); never null once written.
  posted_on: c.postedOn ?? c.createdAt.toISOString().slice(0, 10),
  created_at: c.createdAt.toISOString(),
});

/** Net, tax and gross of a folio's lines. */
export function folioTotals(charges: Pick<ChargeRow, "amount" | "taxAmount">[], currency: string) {
  const gross = charges.reduce((s, c) => s + c.amount, 0);
  const tax = charges.reduce((s, c) => s + c.taxAmount, 0);
  return { net: { amount: gross - tax, currency }, tax: { amount: tax, currency }, gross: { amount: gross, currency } };
}

async function presentFolio(db: Executor, folio: FolioRow) {
  const [charges, paymentRows, refundRows, issued, notes] = await Promise.all([
    db.select().from(folioCharges).where(eq(folioCharges.folioId, folio.id)).orderBy(asc(folioCharges.createdAt), asc(folioCharges.id)),
    db.select().from(payments).where(eq(payments.folioId, folio.id)).orderBy(asc(payments.createdAt), asc(payments.id)),
    db.select().from(refunds).where(eq(refunds.folioId, folio.id)).orderBy(asc(refunds.createdAt), asc(refunds.id)),
    db
      .select({ id: invoices.id, number: invoices.number, supplements: invoices.supplementsInvoiceId })
      .from(invoices)
      .where(eq(invoices.folioId, folio.id))
      .orderBy(asc(invoices.number)),
    db.select({ id: creditNotes.id, number: creditNotes.number }).from(creditNotes).where(eq(creditNotes.folioId, folio.id)).orderBy(asc(creditNotes.createdAt), asc(creditNotes.id)),
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
    totals: folioTotals(charges, folio.currency),
    balance: { amount: await folioBalance(db, folio.id), currency: folio.currency },
    invoice_id: issued.find((i) => !i.supplements)?.id ?? null,
    supplementary_invoices: issued.filter((i) => i.supplements).map((i) => ({ id: i.id, number: i.number })),
    credit_notes: notes,
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

