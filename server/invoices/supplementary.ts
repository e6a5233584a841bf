import { and, asc, eq, isNull } from "drizzle-orm";
import type { z } from "zod";
import type { Executor } from "@/db/client";
import { folioCharges, folios, type invoices } from "@/db/schema";
import { formatMoney } from "@/lib/money";
import { ApiError } from "@/server/errors";
import { postOtherCharge, presentCharge, type chargeCreateSchema } from "@/server/folios/folios";
import { findOwned, type Ctx, type Tenant } from "@/server/tenancy";
import { folioInvoice, issueInvoice, writeInvoice } from "./invoices";

type FolioRow = typeof folios.$inferSelect;
type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Bills the folio's lines posted after its invoice (a late charge) on a supplementary invoice,
 * inside the caller's transaction: the issued invoice never changes; the new one takes the
 * property's next invoice number, names the invoice it supplements, lists only those lines, and
 * states the folio's balance now (what the guest owes with them). Its payments and refunds are
 * those of the invoice it supplements, so it lists none. Emits `invoice.created`.
 */
export async function issueSupplementaryInvoice(tx: Executor, tenant: Tenant, folio: FolioRow, original: InvoiceRow) {
  const lines = await tx
    .select()
    .from(folioCharges)
    .where(and(eq(folioCharges.folioId, folio.id), isNull(folioCharges.invoiceId), isNull(folioCharges.creditNoteId)))
    .orderBy(asc(folioCharges.createdAt), asc(folioCharges.id));
  if (!lines.length) return null;
  return writeInvoice(tx, tenant, folio, { lines, payments: [], refunds: [], supplements: original });
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
