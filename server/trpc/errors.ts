import { TRPCError, type TRPC_ERROR_CODE_KEY } from "@trpc/server";
import { ZodError } from "zod";
import { ApiError, errorCodes, ruleErrorOf, type ErrorCode } from "@/server/errors";
import { toApiError } from "@/server/http/validation";

type ApiStatus = (typeof errorCodes)[ErrorCode]["status"];

/**
 * tRPC's name for each status of the code table in server/errors.ts. Keyed by that table's
 * statuses, so a new status there does not compile until it is mapped here.
 */
const trpcCodeByStatus: Record<ApiStatus, TRPC_ERROR_CODE_KEY> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  402: "PAYMENT_REQUIRED",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  405: "METHOD_NOT_SUPPORTED",
  409: "CONFLICT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
  431: "BAD_REQUEST",
  422: "UNPROCESSABLE_CONTENT",
  429: "TOO_MANY_REQUESTS",
  500: "INTERNAL_SERVER_ERROR",
  503: "SERVICE_UNAVAILABLE",
};

/** An ApiError as tRPC's error: same message, the ApiError kept as the cause. */
export function toTRPCError(error: ApiError): TRPCError {
  return new TRPCError({ code: trpcCodeByStatus[error.status as ApiStatus] ?? "INTERNAL_SERVER_ERROR", message: error.message, cause: error });
}

/**
 * The contract error behind a failed call, if it has one: an ApiError thrown by a service, or
 * the input's zod error worded exactly as `/v1` words it (same code, same dotted `param`).
 */
export function apiErrorOf(error: TRPCError, rawInput: unknown): ApiError | undefined {
  if (error.cause instanceof ApiError) return error.cause;
  const rule = ruleErrorOf(error.cause);
  if (rule) return rule;
  if (error.cause instanceof ZodError) return toApiError(error.cause, rawInput, "body");
  return undefined;
}

/** What the client sees of a contract error, beside tRPC's own shape. */
export type ApiErrorData = { type: string; code: ErrorCode; param: string | null; amount: { amount: number; currency: string } | null };

export const apiErrorData = (error: ApiError): ApiErrorData => ({ type: error.type, code: error.code, param: error.param ?? null, amount: error.amount ?? null });
