import { z } from "@hono/zod-openapi";
import { errorCodes, moneyErrorCodes, type ErrorCode } from "@/server/errors";

const codes = Object.keys(errorCodes) as [ErrorCode, ...ErrorCode[]];
const types = [...new Set(Object.values(errorCodes).map((e) => e.type))] as [string, ...string[]];

const fields = {
  message: z.string().openapi({ description: "A sentence for the developer; branch on `code`, never on `message`." }),
  param: z.string().optional().openapi({ description: "Dotted path of the parameter at fault, e.g. `guest.email`; absent when no single parameter is." }),
  request_id: z.string().openapi({ example: "req_1a2B3c4D5e6F7g8H9i0J1k2L" }),
};
const paymentId = z.string().openapi({ description: "Card errors: the failed payment, recorded.", example: "pay_1a2B3c4D5e6F7g8H9i0J1k2L" });
/** 400 and 422: every parameter at fault, where there are several (contract-client's decision, docs/decisions.md). */
const faults = z
  .array(
    z
      .object({
        code: z.enum(codes),
        param: z.string().optional().openapi({ description: "Dotted path of this parameter, e.g. `guest.email`." }),
        message: z.string(),
      })
      .openapi("ParameterFault"),
  )
  .optional()
  .openapi({
    description:
      "400 and 422 parameter errors where several parameters are at fault: every fault (the first, repeated in `code`, `param` and `message`, included), so one answer names every field to fix.",
  });
/** Money errors (`moneyErrorCodes`): the amount the message states, as fields to compute with. */
const money = {
  amount: z.number().int().openapi({
    description:
      "Money errors (`balance_outstanding`, `amount_exceeds_refundable`, `amount_exceeds_balance`): the amount the message states, in minor units of `currency`. For `balance_outstanding` the folio's balance: positive when the guest owes it, negative when the hotel owes it to the guest. For `amount_exceeds_refundable` the most that can still be refunded; for `amount_exceeds_balance` the most a payment may take (what is still due).",
    example: 22700,
  }),
  currency: z.string().length(3).openapi({ description: "Money errors: the ISO 4217 currency of `amount`.", example: "USD" }),
};
const isMoney = (code: ErrorCode) => (moneyErrorCodes as readonly ErrorCode[]).includes(code);
const reason = z.string().optional().openapi({ description: "`restriction_violated`: which restriction (stop_sell, closed_to_arrival, closed_to_departure, min_stay, no_rate)." });

/** The error object with every code and type of the one table (contract §2). */
export const errorSchema = z
  .object({ error: z.object({ type: z.enum(types), code: z.enum(codes), ...fields, payment_id: paymentId.optional(), errors: faults, reason, amount: money.amount.optional(), currency: money.currency.optional() }) })
  .openapi("Error");

/**
 * The error object as one operation answers it at one status: `type` and `code` only those it can
 * give, `payment_id` only beside card errors (always there, but for an operation whose declines record no payment), `reason` only beside `restriction_violated`,
 * `amount` and `currency` beside money errors (`moneyErrorCodes`; always there when every code is one).
 */
export function errorSchemaFor(status: number, list: ErrorCode[], { declinesRecordPayment = true } = {}) {
  const own = [...new Set(list.map((c) => errorCodes[c].type))];
  const card = list.every((c) => errorCodes[c].type === "card_error") && declinesRecordPayment;
  const anyCard = list.some((c) => errorCodes[c].type === "card_error") && declinesRecordPayment;
  const object = z.object({
    type: z.enum(own as [string, ...string[]]),
    code: z.enum(list as [ErrorCode, ...ErrorCode[]]),
    ...fields,
    ...(anyCard ? { payment_id: card ? paymentId : paymentId.optional() } : {}),
    ...(status === 400 || status === 422 ? { errors: faults } : {}),
    ...(list.includes("restriction_violated") ? { reason } : {}),
    ...(list.some(isMoney) ? (list.every(isMoney) ? money : { amount: money.amount.optional(), currency: money.currency.optional() }) : {}),
  });
  const example = {
    type: errorCodes[list[0]].type,
    code: list[0],
    message: `${statusText[status]}.`,
    request_id: "req_1a2B3c4D5e6F7g8H9i0J1k2L",
    ...(card ? { payment_id: "pay_1a2B3c4D5e6F7g8H9i0J1k2L" } : {}),
    ...(isMoney(list[0]) ? { amount: 22700, currency: "USD" } : {}),
  };
  return z.object({ error: object }).openapi({ title: "Error", example: { error: example } });
}

export const statusText: Record<number, string> = {
  400: "Bad request",
  401: "Missing or invalid credentials",
  402: "Card error",
  403: "Permission denied",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Request too large",
  415: "Unsupported content type",
  431: "Request headers too large",
  422: "Invalid parameters",
  429: "Rate limit exceeded",
  500: "Internal error",
  503: "Service unavailable",
};
