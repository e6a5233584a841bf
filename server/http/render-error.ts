import type { Context } from "hono";
import { ApiError } from "@/server/errors";
import type { ApiEnv } from "./env";

/** Connection-level failures of the database: the service is unavailable, not broken. */
const unavailableCodes = new Set(["ECONNREFUSED", "ECONNRESET", "57P01", "57P03", "53300", "CONNECTION_CLOSED", "CONNECTION_ENDED"]);

/** The one place errors become responses: ApiErrors as the contract's envelope, others opaque. */
export function renderError(error: Error, c: Context<ApiEnv>): Response {
  const requestId = c.get("requestId");
  if (error instanceof ApiError) {
    return c.json(error.toJSON(requestId), error.status as 400, error.headers);
  }
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  const unavailable = code !== undefined && unavailableCodes.has(code);
  (c.get("log") ?? console).error({ err: error, request_id: requestId }, unavailable ? "database unavailable" : "unhandled error");
  const answer = unavailable
    ? new ApiError("service_unavailable", "The service is temporarily unavailable. Retry with backoff.")
    : new ApiError("internal_error", "An unexpected error occurred. It has been logged; quote the request id if you contact us.");
  return c.json(answer.toJSON(requestId), answer.status as 500, unavailable ? { "Retry-After": "1" } : undefined);
}
