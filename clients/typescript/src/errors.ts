/** The error body every Innkeep error answer carries. */
export type ErrorBody = {
  error: { type: string; code: string; message: string; param?: string; request_id: string; payment_id?: string; reason?: string };
};

type ErrorInit = { status: number; body?: ErrorBody; headers?: Headers; message?: string };

/** Base of every error the client throws for an answer of the API. */
export class InnkeepError extends Error {
  /** HTTP status of the answer (0 for network failures and timeouts). */
  readonly status: number;
  /** `error.type` of the body, e.g. `invalid_request_error`. */
  readonly type: string;
  /** `error.code` of the body, e.g. `parameter_missing`. */
  readonly code: string;
  /** Dotted path of the parameter at fault (`guest.email`), when one is. */
  readonly param: string | undefined;
  /** `Service-Request-Id` of the answer: quote it to support. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  readonly body: ErrorBody | undefined;

  constructor({ status, body, headers, message }: ErrorInit) {
    super(message ?? body?.error.message ?? `HTTP ${status}`);
    this.name = new.target.name;
    this.status = status;
    this.type = body?.error.type ?? "api_error";
    this.code = body?.error.code ?? "unknown";
    this.param = body?.error.param;
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
  readonly paymentId: string | undefined = this.body?.error.payment_id;
}
/** 429: over the rate limit; `retryAfter` is the server's `Retry-After`, in seconds. */
export class RateLimitError extends InnkeepError {
  readonly retryAfter: number | undefined = retryAfterSeconds(this.headers);
}
/** 500 and 503, and any answer the client cannot read. */
export class ApiError extends InnkeepError {}

/** The request never got an answer: DNS, refused or reset connection. */
export class ConnectionError extends InnkeepError {
  constructor(message: string, readonly cause?: unknown) {
    super({ status: 0, message });
    (this as { type: string }).type = "connection_error";
  }
}
/** No answer within the `timeout`. */
export class TimeoutError extends ConnectionError {}

const byType: Record<string, typeof InnkeepError> = {
  authentication_error: AuthenticationError,
  permission_error: PermissionError,
  conflict_error: ConflictError,
  idempotency_error: IdempotencyError,
  card_error: CardError,
  rate_limit_exceeded: RateLimitError,
  api_error: ApiError,
};

/** The typed error for an error answer, chosen by its `error.type` (and 404 for NotFoundError). */
export function errorFromResponse(status: number, body: unknown, headers: Headers): InnkeepError {
  const parsed = isErrorBody(body) ? body : undefined;
  const type = parsed?.error.type;
  const Class =
    status === 404 ? NotFoundError : type === "invalid_request_error" ? InvalidRequestError : (type && byType[type]) || (status === 429 ? RateLimitError : ApiError);
  return new Class({ status, body: parsed, headers, message: parsed ? undefined : `Unexpected answer: HTTP ${status}` });
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
