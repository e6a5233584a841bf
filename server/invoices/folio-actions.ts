import type { z } from "zod";
import type { ChangeCtx } from "@/server/audit/audit";
import { auditedFolioChange } from "@/server/folios/folio-change";
import type { chargeCreateSchema } from "@/server/folios/folios";
import { closeFolioIntoInvoice } from "./invoices";
import { chargeFolioLine } from "./supplementary";

/**
 * An extra charge (or a credit) on a folio (POST /v1/folios/{id}/charges and the dashboard), on
 * the reservation's trail in the same transaction; after check-out, billed on a supplementary
 * invoice (./supplementary.ts).
 */
export const chargeFolio = ({ db, tenant, actor, folioId, input }: ChangeCtx & { folioId: string; input: z.output<typeof chargeCreateSchema> }) =>
  auditedFolioChange({
    db,
    tenant,
    actor,
    folioId,
    action: "reservation.charge_added",
    run: (tx) => chargeFolioLine({ db: tx, tenant, folioId, input }),
    describe: (charge) => ({ charge: { description: charge.description, amount: charge.amount } }),
  });

/** Closes a folio into its invoice (POST /v1/folios/{id}/invoice and the dashboard), on the reservation's trail in the same transaction. */
export const invoiceFolio = ({ db, tenant, actor, folioId }: ChangeCtx & { folioId: string }) =>
  auditedFolioChange({
    db,
    tenant,
    actor,
    folioId,
    action: "reservation.invoice_issued",
    run: (tx) => closeFolioIntoInvoice({ db: tx, tenant, folioId }),
    describe: (invoice) => ({ invoice: { number: invoice.number, total: invoice.totals.gross } }),
  });
