import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { creditNoteCounters, folioCharges, folios, guests, invoiceCounters, invoices, payments, properties, ratePlans, refunds, reservations, roomTypes, type LineTax } from "@/db/schema";
import { businessToday } from "@/server/properties/business-date";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { capturedStatuses, closeFolio, folioBalance, folioTotals, presentCharge } from "@/server/folios/folios";
import { newId } from "@/server/ids";
import type { PageRequest } from "@/server/pagination";
import { findOwned, listOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { presentInvoice } from "./present";
import type { InvoiceBody } from "./schemas";

const methodWords = { card: "Card", cash: "Cash", bank_transfer: "Bank transfer" } as const;

/**
 * The property's next number in a series (invoices', credit notes'), taken in the issuing
 * transaction: the counter row is created or incremented (and so locked) until that transaction
 * ends. A rollback gives the number back and the next issue takes it, so numbers have no gaps (a
 * sequence would skip it).
 */
export async function nextNumber(tx: Executor, series: typeof invoiceCounters | typeof creditNoteCounters, propertyId: string): Promise<number> {
  const [row] = await tx
    .insert(series)
    .values({ propertyId, lastNumber: 1 })
    .onConflictDoUpdate({ target: series.propertyId, set: { lastNumber: sql`${series.lastNumber} + 1` } })
    .returning({ number: series.lastNumber });
  return row.number;
}

/** Each tax's total over some lines' taxes, in the order the taxes first appear. */
export function taxSummary(taxes: LineTax[], currency: string) {
  const summary = new Map<string, { tax_id: string; name: string; amount: number }>();
  for (const t of taxes) {
    const s = summary.get(t.tax_id) ?? { tax_id: t.tax_id, name: t.name, amount: 0 };
    s.amount += t.amount;
    summary.set(t.tax_id, s);
  }
  return [...summary.values()].map((s) => ({ tax_id: s.tax_id, name: s.name, amount: { amount: s.amount, currency } }));
}

/** The hotel, the guest and the stay a document of the folio is made out to, as they are now. */
export async function partiesOf(tx: Executor, folio: { propertyId: string; reservationId: string }) {
  const [[reservation], [property]] = await Promise.all([
    tx.select().from(reservations).where(eq(reservations.id, folio.reservationId)),
    tx.select().from(properties).where(eq(properties.id, folio.propertyId)),
  ]);
  const [[guest], [roomType], [plan]] = await Promise.all([
    tx.select().from(guests).where(eq(guests.id, reservation.guestId)),
    tx.select({ name: roomTypes.name }).from(roomTypes).where(eq(roomTypes.id, reservation.roomTypeId)),
    tx.select({ name: ratePlans.name }).from(ratePlans).where(eq(ratePlans.id, reservation.ratePlanId)),
  ]);
  return {
    reservation,
    property,
    parties: {
      hotel: { name: property.name, address: Object.keys(property.address ?? {}).length ? property.address : null, timezone: property.timezone },
      guest: { name: `${guest.firstName} ${guest.lastName}`.trim(), address: guest.address, email: guest.email, phone: guest.phone },
      stay: { check_in: reservation.checkIn, check_out: reservation.checkOut, room_type: roomType?.name ?? "", rate_plan: plan?.name ?? "" },
    },
  };
}

type FolioRow = typeof folios.$inferSelect;
type ChargeRow = typeof folioCharges.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;

/** The invoice a folio closed into (its supplementary invoices follow it), if issued. */
export async function folioInvoice(tx: Executor, folioId: string): Promise<InvoiceRow | undefined> {
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.folioId, folioId), isNull(invoices.supplementsInvoiceId)));
  return invoice;
}

/**
 * Writes an invoice of `lines` for the folio, inside the caller's transaction: the property's next
 * number, the hotel's and the guest's details of this moment, the lines with their taxes and
 * totals, the payments and refunds it states, and the folio's balance now; issued on the
 * property's business date (an invoice issued after an evening audit belongs to the new day).
 * The lines are then billed by it (`folio_charges.invoice_id`; a credit note's lines never are).
 * Emits `invoice.created` unless `silent`.
 */
export async function writeInvoice(
  tx: Executor,
  tenant: Tenant,
  folio: FolioRow,
  content: {
    lines: ChargeRow[];
    payments: InvoiceBody["payments"];
    refunds: InvoiceBody["refunds"];
    supplements: InvoiceRow | null;
    silent?: boolean;
  },
) {
  const [{ reservation, property, parties }, number, balance] = await Promise.all([
    partiesOf(tx, folio),
    nextNumber(tx, invoiceCounters, folio.propertyId),
    folioBalance(tx, folio.id),
  ]);
  const currency = folio.currency;
  const now = new Date();
  const body: InvoiceBody = {
    issued_at: now.toISOString(),
    issue_date: businessToday(property, now),
    supplements: content.supplements ? { invoice_id: content.supplements.id, number: content.supplements.number } : null,
    ...parties,
    lines: content.lines.map((c) => {
      const p = presentCharge(c, currency);
      return { description: p.description, kind: p.kind, date: p.date, net: p.net, tax: p.tax, gross: p.amount, taxes: p.taxes };
    }),
    tax_summary: taxSummary(
      content.lines.flatMap((c) => c.taxes),
      currency,
    ),
    totals: folioTotals(content.lines, currency),
    payments: content.payments,
    refunds: content.refunds,
    balance: { amount: balance, currency },
  };
  const id = newId("invoice");
  const [invoice] = await tx
    .insert(invoices)
    .values({
      id,
      ...tenantValues(tenant),
      propertyId: property.id,
      folioId: folio.id,
      reservationId: reservation.id,
      number,
      currency,
      total: body.totals.gross.amount,
      snapshot: body,
      supplementsInvoiceId: content.supplements?.id ?? null,
      createdAt: now,
    })
    .returning();
  const billed = content.lines.filter((c) => !c.creditNoteId).map((c) => c.id);
  if (billed.length) await tx.update(folioCharges).set({ invoiceId: id }).where(inArray(folioCharges.id, billed));
  const presented = presentInvoice(invoice);
  // The sandbox's seed writes its hotel as it stands, without events (as for the rest of its data).
  if (!content.silent) await emitEvents(tx, tenant, [{ type: "invoice.created", propertyId: property.id, object: presented }]);
  return presented;
}

/**
 * Issues the invoice of a folio inside the caller's transaction (check-out's, or an explicit
 * close): the folio closes, and the folio is stored as it stands, every line with the payments
 * and refunds (`writeInvoice`). A line posted later goes on a supplementary invoice
 * (./supplementary.ts).
 */
export async function issueInvoice(tx: Executor, tenant: Tenant, folioId: string, options: { silent?: boolean } = {}) {
  const [folio] = await tx.select().from(folios).where(eq(folios.id, folioId)).for("update");
  const existing = await folioInvoice(tx, folio.id);
  if (existing) throw new ApiError("invalid_state_transition", `The folio is already invoiced (invoice ${existing.number}).`);
  const [charges, paid, refunded] = await Promise.all([
    tx.select().from(folioCharges).where(eq(folioCharges.folioId, folio.id)).orderBy(asc(folioCharges.createdAt), asc(folioCharges.id)),
    tx
      .select()
      .from(payments)
      .where(and(eq(payments.folioId, folio.id), inArray(payments.status, [...capturedStatuses])))
      .orderBy(asc(payments.capturedAt), asc(payments.id)),
    tx.select().from(refunds).where(eq(refunds.folioId, folio.id)).orderBy(asc(refunds.createdAt), asc(refunds.id)),
  ]);
  if (folio.status === "open") await closeFolio(tx, folio.id);
  const m = (amount: number) => ({ amount, currency: folio.currency });
  return writeInvoice(tx, tenant, folio, {
    lines: charges,
    payments: paid.map((p) => ({
      id: p.id,
      method: p.methodType,
      description: p.methodType === "card" && p.cardLast4 ? `Card ending ${p.cardLast4}` : methodWords[p.methodType],
      amount: m(p.amount),
      captured_at: (p.capturedAt ?? p.createdAt).toISOString(),
    })),
    refunds: refunded.map((r) => ({ id: r.id, amount: m(r.amount), created_at: r.createdAt.toISOString() })),
    supplements: null,
    silent: options.silent,
  });
}

/**
 * Closes a folio into its invoice on request. A stay to come or in house is invoiced at its
 * check-out instead (409); a folio already invoiced answers 409 with its number.
 */
export async function closeFolioIntoInvoice({ db, tenant, folioId }: Ctx & { folioId: string }) {
  return db.transaction(async (tx) => {
    const folio = await findOwned(tx, folios, tenant, folioId, "folio", { forUpdate: true });
    const [reservation] = await tx.select({ status: reservations.status }).from(reservations).where(eq(reservations.id, folio.reservationId));
    if (reservation.status === "confirmed" || reservation.status === "checked_in") {
      throw new ApiError("invalid_state_transition", "The stay is still to come or in house; its folio is invoiced when the guest checks out.");
    }
    // A folio with no line (a free cancellation) bills nothing: an invoice of nothing would only use up a number.
    const [line] = await tx.select({ id: folioCharges.id }).from(folioCharges).where(eq(folioCharges.folioId, folio.id)).limit(1);
    if (!line) throw new ApiError("invalid_state_transition", "The folio has no charges: there is nothing to invoice.");
    return issueInvoice(tx, tenant, folio.id);
  });
}

export async function getInvoice({ db, tenant, id }: Ctx & { id: string }) {
  return presentInvoice(await findOwned(db, invoices, tenant, id, "invoice"));
}

/** Invoices, newest first, of one property or one reservation if asked. */
export function listInvoices({ db, tenant, filters, page }: Ctx & { filters: { property_id?: string; reservation_id?: string }; page: PageRequest }) {
  return listOwned(
    db,
    invoices,
    tenant,
    page,
    filters.property_id ? eq(invoices.propertyId, filters.property_id) : undefined,
    filters.reservation_id ? eq(invoices.reservationId, filters.reservation_id) : undefined,
  );
}

