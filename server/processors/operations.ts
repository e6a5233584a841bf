import { ApiError } from "@/server/errors";
import { defineOperation, type RequestCtx } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { deleted, idParam } from "@/server/schemas";
import { listOwned } from "@/server/tenancy";
import { paymentProcessors } from "@/db/schema";
import { connectProcessor, removeProcessor } from "./connections";
import { presentProcessor } from "./present";
import { processorConnectSchema, processorSchema } from "./schemas";

const tag = "Payment processors";
const scope = "payments:write";
const note =
  "Requires scope `payments:write` on an API key: an OAuth app can never connect or remove the account that receives the hotel's money.";

/** Only the hotel's own API keys: an installed app must not choose where its card money goes. */
function ownKeyOnly(ctx: RequestCtx) {
  if (ctx.principal.kind !== "api_key") {
    throw new ApiError("insufficient_scope", "Payment processors are connected with the account's own API key or in Settings, never by an installed app.");
  }
}

export const processorOperations = [
  // GET /v1/payment_processors: the connected processor accounts (key hints only)
  defineOperation({
    method: "get", path: "/payment_processors", operationId: "listPaymentProcessors", summary: "List payment processors", tag, scope,
    description: `${note} Keys are never shown: only their hints.`,
    list: true, response: listSchema(processorSchema, "PaymentProcessorList"),
    handler: async ({ ctx, list }) => {
      ownKeyOnly(ctx);
      return list.envelope(await listOwned(ctx.db, paymentProcessors, ctx.tenant, list.page), presentProcessor);
    },
  }),
  // POST /v1/payment_processors: connect a Stripe account, checked against Stripe first
  defineOperation({
    method: "post", path: "/payment_processors", operationId: "connectPaymentProcessor", summary: "Connect a payment processor", tag, scope,
    description: `${note} The key is checked against Stripe (422 on \`secret_key\` when Stripe refuses it), then stored encrypted and never shown again; it replaces the one connected for the same property (or the account). Live keys (sk_live_, rk_live_) are refused in the sandbox. Without a processor, live card payments answer 422.`,
    body: processorConnectSchema, response: processorSchema, status: 201,
    errors: ["service_unavailable"],
    handler: async ({ ctx, body }) => {
      ownKeyOnly(ctx);
      return presentProcessor(await connectProcessor({ ...ctx, input: body }));
    },
  }),
  // DELETE /v1/payment_processors/{id}: disconnect, deleting the keys
  defineOperation({
    method: "delete", path: "/payment_processors/{id}", operationId: "deletePaymentProcessor", summary: "Remove a payment processor", tag, scope,
    description: `${note} Its keys are deleted; live card payments then answer 422 until another is connected.`,
    params: idParam("ppr"), response: deleted("payment_processor"),
    handler: async ({ ctx, params }) => {
      ownKeyOnly(ctx);
      const row = await removeProcessor({ ...ctx, id: params.id });
      return { id: row.id, object: "payment_processor" as const, deleted: true as const };
    },
  }),
];
