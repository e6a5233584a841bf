import { defineOperation } from "@/server/http/operation";
import { presentReceivable } from "./present";
import { listReceivables } from "./receivables";
import { receivableListQuery, receivableListSchema } from "./schemas";

export const receivableOperations = [
  // GET /v1/receivables: open balances of ended stays, aged, with totals per bucket
  defineOperation({
    method: "get", path: "/receivables", operationId: "listReceivables", summary: "List open balances (accounts receivable)", tag: "Receivables", scope: "payments:read",
    description:
      "Requires scope `payments:read`. Every folio of a stay that has ended (checked out, no-show, cancelled) whose balance is not zero: what guests owe after departure, no-show and cancellation charges, and credit balances the hotel owes guests (`amount` negative; refund them with `POST /v1/refunds` on the folio's payments). Each is aged from its `due_date` to the property's business date in buckets of 0–30, 31–60, 61–90 and over 90 days. Ordered oldest due first, then by guest's name and folio; `totals` sums every row the filters select, per currency and bucket. A group's master folio is listed once, with its `group`: the model has no companies, and a group billed to a master folio is the party that owes.",
    query: receivableListQuery, list: true, response: receivableListSchema,
    handler: async ({ ctx, query, list }) => {
      const { page, totals } = await listReceivables({ ...ctx, filters: query, page: list.page });
      return { ...list.envelope(page, presentReceivable), totals };
    },
  }),
];
