import { eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { folioCharges, invoices, type reservations } from "@/db/schema";
import { folioStillShared } from "@/server/folios/folios";
import { issueInvoice } from "@/server/invoices/invoices";
import type { Tenant } from "@/server/tenancy";

/**
 * A stay that ends without a check-out (a no-show, a cancellation) and leaves a charge on its
 * folio (the no-show fee, the cancellation's retained nights) is invoiced then, as a check-out
 * would be: the invoice states the charge and any prepayment, and what is left (due, or owed back
 * to the guest) is an open balance in the receivables. A folio with no line is not invoiced (its
 * prepayment, if any, is a credit balance to refund), nor a group's master folio another room
 * still bills to (it is invoiced when its last room ends).
 */
export async function invoiceEndedStay(tx: Tx, tenant: Tenant, r: typeof reservations.$inferSelect) {
  if (await folioStillShared(tx, r)) return null;
  const [[line], [invoiced]] = await Promise.all([
    tx.select({ id: folioCharges.id }).from(folioCharges).where(eq(folioCharges.folioId, r.folioId)).limit(1),
    tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.folioId, r.folioId)),
  ]);
  if (!line || invoiced) return null;
  return issueInvoice(tx, tenant, r.folioId);
}
