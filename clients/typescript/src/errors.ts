import type { ApiErrorBody, ApiErrorCode, ApiErrorType } from "./types.js";

/** The error body every Innkeep error answer carries, as the API's document declares it. */
export type ErrorBody = ApiErrorBody;
type ErrorObject = ErrorBody["error"];
type FaultOf<E> = E extends { errors?: (infer F)[] } ? F : never;
/** One fault of a parameter error that names several (`error.errors`). */
export type ParameterFault = FaultOf<ErrorObject>;
/** The members some error bodies carry, read the same way whichever body it is. */
type Members = { errors?: ParameterFault[]; payment_id?: string; amount?: number; currency?: string };

/**
 * Codes the client itself gives, for failures that are not an answer of the API:
 * `connection_failed` (no answer: refused, reset, DNS, TLS), `timeout` (no answer in time) and
 * `unexpected_response` (an answer that is not the API's JSON, such as a proxy's or another
 * server's HTML page: usually a wrong `baseUrl`).
 */
export type ClientErrorCode = "connection_failed" | "timeout" | "unexpected_response";
/** `error.code`: the document's codes, or the client's own. A misspelt code does not compile. */
export type InnkeepErrorCode = ApiErrorCode | ClientErrorCode;
/** `error.type`: the document's types, or `connection_error` when no answer came. */
export type InnkeepErrorType = ApiErrorType | "connection_error";

type ErrorInit = { status: number; body?: ErrorBody; headers?: Headers; message?: string; code?: ClientErrorCode; type?: InnkeepErrorType };

/** Base of every error the client throws for an answer of the API. */
export class InnkeepError extends Error {
  /** HTTP status of the answer (0 for network failures and timeouts). */
  readonly status: number;
  /** `error.type` of the body, e.g. `invalid_request_error`. */
  readonly type: InnkeepErrorType;
  /** `error.code` of the body, e.g. `parameter_missing`. */
  readonly code: InnkeepErrorCode;
  /** Dotted path of the parameter at fault (`guest.email`), when one is. */
  readonly param: string | undefined;
  /** Every parameter at fault, when the answer names several (each with `code`, `param`, `message`). */
  readonly errors: ParameterFault[] | undefined;
  /**
   * Money errors (`balance_outstanding`, `amount_exceeds_refundable`, `amount_exceeds_balance`): the
   * amount the message states, in minor units of `currency` (a balance is negative when the hotel owes it).
   */
  readonly amount: number | undefined;
  /** Money errors: the ISO 4217 currency of `amount`. */
  readonly currency: string | undefined;
  /** `Service-Request-Id` of the answer: quote it to support. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  readonly body: ErrorBody | undefined;

  constructor({ status, body, headers, message, code, type }: ErrorInit) {
    super(message ?? body?.error.message ?? `HTTP ${status}`);
    this.name = new.target.name;
    this.status = status;
    this.type = type ?? body?.error.type ?? "api_error";
    this.code = code ?? body?.error.code ?? "unexpected_response";
    this.param = body?.error.param;
    this.errors = (body?.error as Members | undefined)?.errors;
    this.amount = (body?.error as Members | undefined)?.amount;
    this.currency = (body?.error as Members | undefined)?.currency;
    this.requestId = body?.error.request_id ?? headers?.get("service-request-id") ?? undefined;
    this.headers = headers;
    this.body = body;
  }
}

/** 400, 413, 415, 422: the request is wrong; `param` names the field. */
export class InvalidRequestError extends InnkeepError {}
/** 404 `resource_missing` or `route_not_found`. */
export class NotFoundError extends InvalidRequestError {}
/** 401: missing, invalid, expired or revoked credential. */
export class AuthenticationError extends InnkeepError {}
/** 403: a scope, IP allow-list or property grant is missing. */
export class PermissionError extends InnkeepError {}
/** 409: no availability, a state that forbids the change, a restriction, a balance outstanding. */
export class ConflictError extends InnkeepError {}
/** 409 `idempotency_key_in_use` or 422 `idempotency_key_reused`. */
export class IdempotencyError extends InnkeepError {}
/** 402: a card was declined; `paymentId` names the failed payment, recorded. */
export class CardError extends InnkeepError {
  readonly paymentId: string | undefined = (this.body?.error as Members | undefined)?.payment_id;
}
/** 429: over the rate limit; `retryAfter` is the server's `Retry-After`, in seconds. */
export class RateLimitError extends InnkeepError {
  readonly retryAfter: number | undefined = retryAfterSeconds(this.headers);
}
/** 500 and 503, and any answer the client cannot read. */
export class ApiError extends InnkeepError {}

/**
 * The request never got an answer: refused or reset connection, unknown host, TLS failure. The
 * message names the cause (`ECONNREFUSED 127.0.0.1:3000`…); `cause` is the underlying error.
 */
export class ConnectionError extends InnkeepError {
  constructor(
    message: string,
    readonly cause?: unknown,
    code: ClientErrorCode = "connection_failed",
  ) {
    super({ status: 0, message, code, type: "connection_error" });
  }
}
/** No answer within the `timeout`. */
export class TimeoutError extends ConnectionError {
  constructor(message: string) {
    super(message, undefined, "timeout");
  }
}

const byType: Record<string, typeof InnkeepError> = {
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  conflict_error: ConflictError,
  idempotency_error: IdempotencyError,
  card_error: CardError,
  rate_limit_exceeded: RateLimitError,
  api_error: ApiError,
};

/**
 * The typed error for an error answer, chosen by its `error.type` (and 404 for NotFoundError).
 * An answer that is not the API's error JSON is an ApiError `unexpected_response` whose message
 * says what came instead, and from where (a wrong `baseUrl` answers someone else's HTML 404).
 */
export function errorFromResponse(status: number, body: unknown, headers: Headers, url?: URL): InnkeepError {
  if (!isErrorBody(body)) {
    const contentType = headers.get("content-type")?.split(";")[0].trim() || "no content type";
    const text = typeof body === "string" ? body.trim().replace(/\s+/g, " ") : "";
    const start = text ? `, starting '${text.length > 60 ? `${text.slice(0, 60)}…` : text}'` : "";
    const where = url ? `${url.origin}${url.pathname}` : "the server";
    const hint =
      status === 404 || /html/i.test(contentType)
        ? " Is `baseUrl` right? It must be the Innkeep server's origin (or `<origin>/v1`), and nothing in between may answer for it."
        : status >= 500
          ? " A proxy or load balancer in front of Innkeep may have answered; retry later."
          : "";
    return new (status === 429 ? RateLimitError : ApiError)({
      status,
      headers,
      code: "unexpected_response",
      message: `${where} answered HTTP ${status} with ${contentType}${start}: not an Innkeep API answer.${hint}`,
    });
  }
  const type = body.error.type;
  const Class = status === 404 ? NotFoundError : type === "invalid_request_error" ? InvalidRequestError : byType[type] || (status === 429 ? RateLimitError : ApiError);
  return new Class({ status, body, headers });
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as ErrorBody | undefined)?.error;
  return typeof error === "object" && error !== null && typeof error.type === "string" && typeof error.code === "string";
}

/** `Retry-After` as whole seconds, when the header holds a number. */
export function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}
