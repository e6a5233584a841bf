import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "@/db/client";
import { folioCharges, folios, invoiceCounters, invoices } from "@/db/schema";
import { formatMoney } from "@/lib/money";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { folioBalance, folioTotals, postOtherCharge, presentCharge, type chargeCreateSchema } from "@/server/folios/folios";
import { newId } from "@/server/ids";
import { businessToday } from "@/server/properties/business-date";
import { findOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { issueInvoice, nextNumber, partiesOf, taxSummary } from "./invoices";
import { presentInvoice } from "./present";
import type { InvoiceBody } from "./schemas";

type FolioRow = typeof folios.$inferSelect;
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
 * Bills the folio's lines posted after its invoice (a late charge) on a supplementary invoice,
 * inside the caller's transaction: the issued invoice never changes; the new one takes the
 * property's next invoice number, names the invoice it supplements, lists only those lines, and
 * states the folio's balance now (what the guest owes with them). Emits `invoice.created`.
 */
export async function issueSupplementaryInvoice(tx: Executor, tenant: Tenant, folio: FolioRow, original: InvoiceRow) {
  const lines = await tx
    .select()
    .from(folioCharges)
    .where(and(eq(folioCharges.folioId, folio.id), isNull(folioCharges.invoiceId), isNull(folioCharges.creditNoteId)))
    .orderBy(asc(folioCharges.createdAt), asc(folioCharges.id));
  if (!lines.length) return null;
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
    supplements: { invoice_id: original.id, number: original.number },
    ...parties,
    lines: lines.map((c) => {
      const p = presentCharge(c, currency);
      return { description: p.description, kind: p.kind, date: p.date, net: p.net, tax: p.tax, gross: p.amount, taxes: p.taxes };
    }),
    tax_summary: taxSummary(
      lines.flatMap((c) => c.taxes),
      currency,
    ),
    totals: folioTotals(lines, currency),
    // The payments and refunds before it are on the invoice it supplements.
    payments: [],
    refunds: [],
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
      supplementsInvoiceId: original.id,
      createdAt: now,
    })
    .returning();
  await tx.update(folioCharges).set({ invoiceId: id }).where(
    inArray(
      folioCharges.id,
      lines.map((l) => l.id),
    ),
  );
  const presented = presentInvoice(invoice);
  await emitEvents(tx, tenant, [{ type: "invoice.created", propertyId: property.id, object: presented }]);
  return presented;
}

/**
 * An extra charge (minibar, parking) or a credit on a folio (POST /v1/folios/{id}/charges). On an
 * open folio it is a line like any other. After check-out, the folio closed into its invoice,
 * which never changes: a charge is posted on the current business date and billed at once on a
 * supplementary invoice (the guest then owes it: a receivable until paid), while a credit is
 * refused and pointed at a credit note, the one way to take money off an issued invoice. A folio
 * closed without an invoice (a stay that ended with nothing to bill) is invoiced with the charge.
 */
export async function chargeFolioLine({ db, tenant, folioId, input }: Ctx & { folioId: string; input: z.output<typeof chargeCreateSchema> }) {
  return db.transaction(async (tx) => {
    const folio = await findOwned(tx, folios, tenant, folioId, "folio", { forUpdate: true });
    const original = folio.status === "open" ? undefined : await folioInvoice(tx, folio.id);
    if (original && input.amount < 0) {
      throw new ApiError(
        "invalid_state_transition",
        `The folio is invoiced (invoice ${original.number}), and an issued invoice never changes: take ${formatMoney({ amount: -input.amount, currency: folio.currency })} off it with a credit note instead.`,
        { param: "amount" },
      );
    }
    const charge = await postOtherCharge(tx, tenant, folio, { kind: "extra", description: input.description, date: null, price: input.amount });
    if (original) await issueSupplementaryInvoice(tx, tenant, folio, original);
    else if (folio.status !== "open") await issueInvoice(tx, tenant, folio.id);
    return presentCharge(charge, folio.currency);
  });
}
