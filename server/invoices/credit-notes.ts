import { eq, sql } from "drizzle-orm";
import { rowsOf, type Executor } from "@/db/client";
import { creditNoteCounters, creditNotes, folioCharges, folios, invoices, type LineTax } from "@/db/schema";
import { formatMoney } from "@/lib/money";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { newId } from "@/server/ids";
import type { PageRequest } from "@/server/pagination";
import { findOwned, listOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { nextNumber, partiesOf, taxSummary } from "./invoices";
import { presentCreditNote, presentInvoice } from "./present";
import type { CreditNoteBody, CreditNoteCreate } from "./schemas";

type InvoiceRow = typeof invoices.$inferSelect;
type InvoiceLine = ReturnType<typeof presentInvoice>["lines"][number];

/** What to take off an issued invoice: everything left, an amount spread over its lines, or chosen lines. */
export type CreditRequest = Pick<CreditNoteCreate, "amount" | "lines" | "currency" | "reason">;

/** A line's share of what is credited: gross and each tax, positive (what is taken off). */
type Share = { index: number; gross: number; taxes: LineTax[] };

/**
 * Splits `amount` over `weights` in proportion, in whole minor units that sum to `amount`
 * exactly: each share rounded down, the units left over to the largest remainders (the first
 * line first on a tie).
 */
export function apportion(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / total);
  const shares = exact.map(Math.floor);
  let left = amount - shares.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i] += 1;
    left -= 1;
  }
  return shares;
}

/**
 * The taxes of `gross` taken off an invoice line: each of the line's taxes in proportion
 * (rounded half up), except that the credit which takes off the rest of the line takes off the
 * rest of each tax, so a line credited in parts is reversed exactly. The credit's tax is the sum
 * of these, so the note's tax total is the sum of its lines' taxes by construction.
 */
function reversedTaxes(line: InvoiceLine, gross: number, rest: number, creditedTaxes: Map<string, number>): LineTax[] {
  return line.taxes.map((t) => {
    const already = creditedTaxes.get(t.tax_id) ?? 0;
    const amount = gross === rest ? t.amount.amount - already : Math.min(Math.round((t.amount.amount * gross) / line.gross.amount), t.amount.amount - already);
    return { tax_id: t.tax_id, name: t.name, amount, inclusive: t.inclusive };
  });
}

/** What earlier credit notes took off each line of the invoice: gross and per tax (positive). */
async function creditedSoFar(tx: Executor, invoiceId: string) {
  const notes = await tx.select({ snapshot: creditNotes.snapshot }).from(creditNotes).where(eq(creditNotes.invoiceId, invoiceId));
  const byLine = new Map<number, { gross: number; taxes: Map<string, number> }>();
  for (const n of notes) {
    for (const l of (n.snapshot as CreditNoteBody).lines) {
      const c = byLine.get(l.invoice_line) ?? { gross: 0, taxes: new Map<string, number>() };
      c.gross -= l.gross.amount;
      for (const t of l.taxes) c.taxes.set(t.tax_id, (c.taxes.get(t.tax_id) ?? 0) - t.amount.amount);
      byLine.set(l.invoice_line, c);
    }
  }
  return byLine;
}

/**
 * What a request takes off each line, checked against what is left of the invoice: a wrong
 * request (more than is left, a line that is not there or holds nothing to credit, another
 * currency) throws before anything is written.
 */
function shares(invoice: ReturnType<typeof presentInvoice>, request: CreditRequest, credited: Awaited<ReturnType<typeof creditedSoFar>>): Share[] {
  const money = (amount: number) => formatMoney({ amount, currency: invoice.currency });
  if (request.currency && request.currency.toUpperCase() !== invoice.currency) {
    throw new ApiError("parameter_invalid", `Invoice ${invoice.number} is in ${invoice.currency}; the credit cannot be in ${request.currency.toUpperCase()}.`, { param: "currency" });
  }
  if (request.amount !== undefined && request.lines) throw new ApiError("parameter_invalid", "Send either amount or lines, not both.", { param: "lines" });
  // Only lines the guest was charged for can be credited (a discount line has nothing to take off).
  const rest = invoice.lines.map((l, i) => Math.max(0, l.gross.amount - (credited.get(i + 1)?.gross ?? 0)));
  const left = rest.reduce((s, r) => s + r, 0);
  let gross: number[];
  if (request.lines) {
    gross = rest.map(() => 0);
    request.lines.forEach((asked, k) => {
      const param = `lines[${k}]`;
      if (asked.line > invoice.lines.length) {
        throw new ApiError("parameter_invalid", `Invoice ${invoice.number} has ${invoice.lines.length} line(s); there is no line ${asked.line}.`, { param: `${param}.line` });
      }
      const i = asked.line - 1;
      if (gross[i] > 0) throw new ApiError("parameter_invalid", `Line ${asked.line} is asked for twice.`, { param: `${param}.line` });
      if (rest[i] <= 0) throw new ApiError("parameter_invalid", `Line ${asked.line} of invoice ${invoice.number} has nothing left to credit.`, { param: `${param}.line` });
      const amount = asked.amount ?? rest[i];
      if (amount > rest[i]) {
        throw new ApiError("parameter_invalid", `At most ${money(rest[i])} of line ${asked.line} can still be credited.`, {
          param: `${param}.amount`,
          amount: { amount: rest[i], currency: invoice.currency },
        });
      }
      gross[i] = amount;
    });
  } else {
    if (left <= 0) throw new ApiError("invalid_state_transition", `Invoice ${invoice.number} is credited in full; nothing is left to credit.`);
    const amount = request.amount ?? left;
    if (amount > left) {
      throw new ApiError("parameter_invalid", `At most ${money(left)} of invoice ${invoice.number} can still be credited.`, {
        param: "amount",
        amount: { amount: left, currency: invoice.currency },
      });
    }
    gross = apportion(amount, rest);
  }
  return gross.flatMap((g, index) =>
    g > 0 ? [{ index, gross: g, taxes: reversedTaxes(invoice.lines[index], g, rest[index], credited.get(index + 1)?.taxes ?? new Map()) }] : [],
  );
}

/**
 * Issues a credit note on an issued invoice inside the caller's transaction (its own request, or
 * a refund of a settled folio): the invoice stays as issued; the note takes the property's next
 * credit note number, and its lines are posted on the folio (open or closed: a correction reopens
 * nothing) as negative lines of the credited lines' kinds on the current business date, with
 * their taxes reversed. Emits `credit_note.created`.
 */
export async function issueCreditNote(tx: Executor, tenant: Tenant, invoiceRow: InvoiceRow, request: CreditRequest, refundId: string | null = null) {
  // The folio's lock queues credits of one invoice (and a refund's): each sees what the last left.
  const [folio] = await tx.select().from(folios).where(eq(folios.id, invoiceRow.folioId)).for("update");
  const invoice = presentInvoice(invoiceRow);
  const taken = shares(invoice, request, await creditedSoFar(tx, invoice.id));
  const [{ property, parties }, number, [{ day }]] = await Promise.all([
    partiesOf(tx, folio),
    nextNumber(tx, creditNoteCounters, folio.propertyId),
    // The day the database posts the lines on (migration 0027): the open business day, never a closed one.
    tx.execute(sql`select innkeep_posting_day(${folio.propertyId})::text as day`).then((r) => rowsOf<{ day: string }>(r)),
  ]);
  const currency = invoice.currency;
  const m = (amount: number) => ({ amount, currency });
  const id = newId("creditNote");
  const now = new Date();
  const lines = taken.map((s) => {
    const original = invoice.lines[s.index];
    const tax = s.taxes.reduce((sum, t) => sum + t.amount, 0);
    return {
      invoice_line: s.index + 1,
      description: original.description,
      kind: original.kind,
      date: original.date,
      net: m(-(s.gross - tax)),
      tax: m(-tax),
      gross: m(-s.gross),
      taxes: s.taxes.map((t) => ({ tax_id: t.tax_id, name: t.name, amount: m(-t.amount), inclusive: t.inclusive })),
    };
  });
  const gross = lines.reduce((sum, l) => sum + l.gross.amount, 0);
  const tax = lines.reduce((sum, l) => sum + l.tax.amount, 0);
  const body: CreditNoteBody = {
    invoice_number: invoice.number,
    reason: request.reason,
    issued_at: now.toISOString(),
    issue_date: day,
    ...parties,
    lines,
    tax_summary: taxSummary(lines.flatMap((l) => l.taxes.map((t) => ({ ...t, amount: t.amount.amount }))), currency),
    totals: { net: m(gross - tax), tax: m(tax), gross: m(gross) },
  };
  const [note] = await tx
    .insert(creditNotes)
    .values({
      id,
      ...tenantValues(tenant),
      propertyId: property.id,
      invoiceId: invoice.id,
      folioId: folio.id,
      reservationId: invoice.reservation_id,
      refundId,
      number,
      currency,
      net: gross - tax,
      tax,
      total: gross,
      issueDate: day,
      snapshot: body,
      createdAt: now,
    })
    .returning();
  // On the folio: negative lines of the credited kinds, dated by the day they are posted on (no night), so the flash and the reports count them then.
  await tx.insert(folioCharges).values(
    lines.map((l, i) => ({
      id: newId("charge"),
      ...tenantValues(tenant),
      folioId: folio.id,
      reservationId: null,
      kind: l.kind,
      description: `Credit note ${number}: ${l.description}`,
      date: null,
      amount: l.gross.amount,
      taxAmount: l.tax.amount,
      taxes: l.taxes.map((t) => ({ tax_id: t.tax_id, name: t.name, amount: t.amount.amount, inclusive: t.inclusive })),
      postedOn: day,
      creditNoteId: id,
      createdAt: new Date(now.getTime() + i),
    })),
  );
  const presented = presentCreditNote(note);
  await emitEvents(tx, tenant, [{ type: "credit_note.created", propertyId: property.id, object: presented }]);
  return presented;
}

/** Credits an issued invoice in whole or in part on request (POST /v1/invoices/{id}/credit_notes). */
export async function creditInvoice({ db, tenant, invoiceId, input }: Ctx & { invoiceId: string; input: CreditRequest }) {
  return db.transaction(async (tx) => {
    const invoice = await findOwned(tx, invoices, tenant, invoiceId, "invoice");
    return issueCreditNote(tx, tenant, invoice, input);
  });
}

export async function getCreditNote({ db, tenant, id }: Ctx & { id: string }) {
  return presentCreditNote(await findOwned(db, creditNotes, tenant, id, "credit note"));
}

/** Credit notes, newest first, of one property, reservation or invoice if asked. */
export function listCreditNotes({ db, tenant, filters, page }: Ctx & { filters: { property_id?: string; reservation_id?: string; invoice_id?: string }; page: PageRequest }) {
  return listOwned(
    db,
    creditNotes,
    tenant,
    page,
    filters.property_id ? eq(creditNotes.propertyId, filters.property_id) : undefined,
    filters.reservation_id ? eq(creditNotes.reservationId, filters.reservation_id) : undefined,
    filters.invoice_id ? eq(creditNotes.invoiceId, filters.invoice_id) : undefined,
  );
}

