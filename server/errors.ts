/**
 * The one table of error codes (contract §2). The REST envelope, the tRPC errors and the
 * OpenAPI document are all derived from it.
 */
export const errorCodes = {
  invalid_json: { status: 400, type: "invalid_request_error" },
  invalid_cursor: { status: 400, type: "invalid_request_error" },
  invalid_environment: { status: 400, type: "invalid_request_error" },
  invalid_version: { status: 400, type: "invalid_request_error" },
  /** The request line or headers could not be parsed (Node's HTTP parser refused them). */
  malformed_request: { status: 400, type: "invalid_request_error" },
  missing_token: { status: 401, type: "authentication_error" },
  invalid_token: { status: 401, type: "authentication_error" },
  token_expired: { status: 401, type: "authentication_error" },
  token_revoked: { status: 401, type: "authentication_error" },
  card_declined: { status: 402, type: "card_error" },
  insufficient_funds: { status: 402, type: "card_error" },
  expired_card: { status: 402, type: "card_error" },
  incorrect_cvc: { status: 402, type: "card_error" },
  insufficient_scope: { status: 403, type: "permission_error" },
  ip_not_allowed: { status: 403, type: "permission_error" },
  property_not_granted: { status: 403, type: "permission_error" },
  resource_missing: { status: 404, type: "invalid_request_error" },
  route_not_found: { status: 404, type: "invalid_request_error" },
  method_not_allowed: { status: 405, type: "invalid_request_error" },
  no_availability: { status: 409, type: "conflict_error" },
  invalid_state_transition: { status: 409, type: "conflict_error" },
  restriction_violated: { status: 409, type: "conflict_error" },
  balance_outstanding: { status: 409, type: "conflict_error" },
  idempotency_key_in_use: { status: 409, type: "idempotency_error" },
  request_too_large: { status: 413, type: "invalid_request_error" },
  unsupported_content_type: { status: 415, type: "invalid_request_error" },
  headers_too_large: { status: 431, type: "invalid_request_error" },
  parameter_missing: { status: 422, type: "invalid_request_error" },
  /** 422 in a body; 400 when the parameter is a header or in the query string. */
  parameter_invalid: { status: 422, type: "invalid_request_error" },
  parameter_unknown: { status: 422, type: "invalid_request_error" },
  outside_replay_window: { status: 422, type: "invalid_request_error" },
  amount_exceeds_refundable: { status: 422, type: "invalid_request_error" },
  /** A payment on an invoiced (closed) folio of more than its invoice left due. */
  amount_exceeds_balance: { status: 422, type: "invalid_request_error" },
  url_not_allowed: { status: 422, type: "invalid_request_error" },
  idempotency_key_reused: { status: 422, type: "idempotency_error" },
  too_many_requests: { status: 429, type: "rate_limit_exceeded" },
  internal_error: { status: 500, type: "api_error" },
  service_unavailable: { status: 503, type: "api_error" },
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof errorCodes;
/** A card the bank refuses answers 402 with the decline's code (a payment, a card put on file). */
export const cardErrorCodes = (Object.keys(errorCodes) as ErrorCode[]).filter((code) => errorCodes[code].type === "card_error");

/**
 * Codes whose error object always states the money it is about, as `amount` (minor units) and
 * `currency` beside the message: the balance a check-out was refused for (positive: the guest
 * owes it; negative: the hotel owes it to the guest), the most a payment can still refund, the most
 * a payment on an invoiced folio may take.
 */
export const moneyErrorCodes = ["balance_outstanding", "amount_exceeds_refundable", "amount_exceeds_balance"] as const satisfies readonly ErrorCode[];
export type ErrorType = (typeof errorCodes)[ErrorCode]["type"];

/** Where a parameter came from: query and header faults are 400, body faults 422. */
export type ParamLocation = "body" | "query" | "header" | "path";

export type ApiErrorOptions = {
  param?: string;
  location?: ParamLocation;
  headers?: Record<string, string>;
  /** Extra members of the error object, such as `payment_id` on card errors. */
  extra?: Record<string, unknown>;
  /** The money the error is about (an outstanding balance): `amount` and `currency` of the error object. */
  amount?: { amount: number; currency: string };
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly type: ErrorType;
  readonly param?: string;
  readonly headers?: Record<string, string>;
  readonly extra?: Record<string, unknown>;
  readonly amount?: { amount: number; currency: string };

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.type = errorCodes[code].type;
    const queryOrHeader = options.location === "query" || options.location === "header";
    this.status = code === "parameter_invalid" && queryOrHeader ? 400 : errorCodes[code].status;
    this.param = options.param;
    this.headers = options.headers;
    this.extra = options.extra;
    this.amount = options.amount;
  }

  toJSON(requestId?: string) {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param !== undefined ? { param: this.param } : {}),
        ...(this.amount ? { amount: this.amount.amount, currency: this.amount.currency } : {}),
        ...this.extra,
        ...(requestId ? { request_id: requestId } : {}),
      },
    };
  }
}

/** "No such guest: 'gst_…'", the one wording for every missing or foreign object. */
export function notFound(resource: string, id: string, param = "id"): ApiError {
  return new ApiError("resource_missing", `No such ${resource}: '${id}'`, { param, location: "path" });
}

/** SQLSTATE the database raises for a posting into a closed business day (migration 0028). */
const closedDayState = "IK409";

/**
 * The contract's error behind a database refusal that is a rule, not a fault: a posting into a
 * closed business day (the floor under the services' own checks) is 409 with the database's words.
 */
export function ruleErrorOf(error: unknown): ApiError | undefined {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  const refusal = e?.code === closedDayState ? e : e?.cause?.code === closedDayState ? e.cause : undefined;
  return refusal ? new ApiError("invalid_state_transition", refusal.message ?? "The business day is closed.") : undefined;
}
