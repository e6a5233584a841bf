import { ApiError, cardErrorCodes } from "@/server/errors";
import { defineOperation } from "@/server/http/operation";
import { listSchema } from "@/server/http/pagination";
import { emptyActionSchema, idParam } from "@/server/schemas";
import { raisePaymentHold, refundPayment, settlePayment, takePayment } from "./audited";
import { getPayment, listPayments, listPaymentsByOffset } from "./payments";
import { presentPayment, presentRefund } from "@/server/folios/payment-present";
import { getRefund, listRefunds } from "./refunds";
import { holdRaiseSchema, paymentCreateSchema, paymentListQuery, paymentSchema, refundCreateSchema, refundListQuery, refundSchema } from "./schemas";

const tag = "Payments";
const params = idParam("pay");

export const paymentOperations = [
  // GET /v1/payments: payments, newest first (cursor; offset still served, deprecated in v1.7)
  defineOperation({
    method: "get", path: "/payments", operationId: "listPayments", summary: "List payments", tag, scope: "payments:read",
    description: "Requires scope `payments:read`. Cursor pagination. `offset` is deprecated (v1.7): still served, with `Deprecation: true` and a `Link` to the cursor form.",
    query: paymentListQuery, list: true, allowOffset: true, response: listSchema(paymentSchema, "PaymentList"),
    handler: async ({ ctx, query, list, c }) => {
      const { offset, limit, cursor, ...filters } = query as typeof query & { offset?: number; limit: number; cursor?: string };
      if (offset === undefined) return list.envelope(await listPayments({ ...ctx, filters, page: list.page }), presentPayment);
      if (cursor) throw new ApiError("parameter_invalid", "Send either cursor or offset, not both.", { param: "offset", location: "query" });
      const { rows, hasMore } = await listPaymentsByOffset({ ...ctx, filters, limit, offset });
      const cursorForm = new URLSearchParams({ ...filters, limit: String(limit) } as Record<string, string>);
      c.header("Deprecation", "true");
      c.header("Link", `</v1/payments?${cursorForm}>; rel="alternate"; title="cursor pagination"`);
      return { object: "list", data: rows.map(presentPayment), has_more: hasMore, next_cursor: null, prev_cursor: null };
    },
  }),
  // POST /v1/payments: charge a reservation's folio (card, cash or bank transfer)
  defineOperation({
    method: "post", path: "/payments", operationId: "createPayment", summary: "Create a payment", tag, scope: "payments:write",
    description:
      "Requires scope `payments:write`. In live mode a card is the property's processor's payment method (`payment_method: {type: \"card\", processor_payment_method: \"pm_…\"}`, collected by Stripe.js), charged through its connected Stripe account; a card number is refused there (422). The sandbox takes the contract's test card numbers, and `pm_…` too once a Stripe test key is connected. 503 when Stripe cannot be reached: retry with the same Idempotency-Key, which is never charged twice.",
    body: paymentCreateSchema, response: paymentSchema, status: 201,
    errors: ["invalid_state_transition", "amount_exceeds_balance", "service_unavailable", ...cardErrorCodes],
    handler: async ({ ctx, body, c }) => takePayment({ ...ctx, input: body, idempotencyKey: c.req.header("idempotency-key") }),
  }),
  // GET /v1/payments/{id}: retrieve a payment
  defineOperation({
    method: "get", path: "/payments/{id}", operationId: "getPayment", summary: "Retrieve a payment", tag, scope: "payments:read",
    params, response: paymentSchema,
    handler: async ({ ctx, params }) => presentPayment(await getPayment({ ...ctx, id: params.id })),
  }),
  // POST /v1/payments/{id}/capture: capture an authorized card payment
  defineOperation({
    method: "post", path: "/payments/{id}/capture", operationId: "capturePayment", summary: "Capture an authorized payment", tag, scope: "payments:write",
    params, body: emptyActionSchema, response: paymentSchema,
    errors: ["invalid_state_transition", "service_unavailable"],
    handler: async ({ ctx, params }) => settlePayment({ ...ctx, id: params.id, to: "captured" }),
  }),
  // POST /v1/payments/{id}/void: release an authorization
  defineOperation({
    method: "post", path: "/payments/{id}/void", operationId: "voidPayment", summary: "Void an authorized payment", tag, scope: "payments:write",
    params, body: emptyActionSchema, response: paymentSchema,
    errors: ["invalid_state_transition", "service_unavailable"],
    handler: async ({ ctx, params }) => settlePayment({ ...ctx, id: params.id, to: "voided" }),
  }),
  // POST /v1/payments/{id}/increment_authorization: raise a hold for a stay that grew
  defineOperation({
    method: "post", path: "/payments/{id}/increment_authorization", operationId: "incrementAuthorization", summary: "Raise an authorized payment's hold", tag, scope: "payments:write",
    description:
      "Requires scope `payments:write`. For a stay that grew after its card was pre-authorised: `amount` is the new total to hold. Through Stripe's incremental authorization where the card allows it, answering the same payment with its amount raised; where the card's bank does not, the difference is held apart on the stay's card on file, answering that new authorized payment (its own id, its amount the difference); without a card on file that is a 409. A bank that refuses the increase answers 402 and the hold stays as it was. Only an `authorized` payment (409), and only upward (422). An authorization moves no money: no event until it is captured.",
    params, body: holdRaiseSchema, response: paymentSchema,
    errors: ["invalid_state_transition", "service_unavailable", ...cardErrorCodes],
    handler: async ({ ctx, params, body, c }) => raisePaymentHold({ ...ctx, id: params.id, amount: body.amount, idempotencyKey: c.req.header("idempotency-key") }),
  }),
  // GET /v1/refunds: refunds, newest first
  defineOperation({
    method: "get", path: "/refunds", operationId: "listRefunds", summary: "List refunds", tag: "Refunds", scope: "payments:read",
    query: refundListQuery, list: true, response: listSchema(refundSchema, "RefundList"),
    handler: async ({ ctx, query, list }) => list.envelope(await listRefunds({ ...ctx, filters: query, page: list.page }), presentRefund),
  }),
  // POST /v1/refunds: refund a captured payment, fully by default
  defineOperation({
    method: "post", path: "/refunds", operationId: "createRefund", summary: "Create a refund", tag: "Refunds", scope: "payments:write",
    body: refundCreateSchema, response: refundSchema, status: 201,
    errors: ["invalid_state_transition", "amount_exceeds_refundable", "service_unavailable"],
    handler: async ({ ctx, body, c }) => refundPayment({ ...ctx, input: body, idempotencyKey: c.req.header("idempotency-key") }),
  }),
  // GET /v1/refunds/{id}: retrieve a refund
  defineOperation({
    method: "get", path: "/refunds/{id}", operationId: "getRefund", summary: "Retrieve a refund", tag: "Refunds", scope: "payments:read",
    params: idParam("re"), response: refundSchema,
    handler: async ({ ctx, params }) => presentRefund(await getRefund({ ...ctx, id: params.id })),
  }),
];
