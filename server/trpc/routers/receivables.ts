import { z } from "zod";
import { listReceivables } from "@/server/receivables/receivables";
import { presentReceivable } from "@/server/receivables/present";
import { refundCreditBalance } from "@/server/receivables/refund-credit";
import { receivableListQuery } from "@/server/receivables/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The same services as GET /v1/receivables and POST /v1/refunds; taking a payment of what is due
// is payments.create (the same as POST /v1/payments).
const receivablesProcedure = staffProcedure.use(roles(...access.receivables));

export const receivablesRouter = router({
  /** Every open balance the filters select (the page shows them all: what is owed is a short list), with the totals per bucket. */
  list: receivablesProcedure.input(receivableListQuery).query(async ({ ctx, input }) => {
    const { page, totals } = await listReceivables({ db: ctx.db, tenant: ctx.tenant, filters: input, page: { limit: 1000, cursor: null } });
    return { data: page.data.map(presentReceivable), hasMore: page.hasMore, totals };
  }),
  /** Pays a credit balance back to the folio's own payments (their refunds, on the stay's trail). */
  refundCredit: receivablesProcedure
    .input(z.strictObject({ folio_id: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => {
      const refunds = await refundCreditBalance({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, folioId: input.folio_id });
      return { refunded: refunds.reduce((s, r) => s + r.amount.amount, 0), currency: refunds[0]?.amount.currency ?? null };
    }),
});
