import type { Context } from "hono";
import { ApiError, ruleErrorOf } from "@/server/errors";
import { ClientAborted } from "./body";
import type { ApiEnv } from "./context";

/**
 * nginx's "client closed request": the status of an answer nobody receives, so that metrics and
 * the access log tell a client's abort from a server error (`observe` counts it as such).
 */
export const clientClosedRequest = 499;

/** Connection-level failures of the database: the service is unavailable, not broken. */
const unavailableCodes = new Set(["ECONNREFUSED", "ECONNRESET", "57P01", "57P03", "53300", "CONNECTION_CLOSED", "CONNECTION_ENDED"]);

/** The one place errors become responses: ApiErrors as the contract's envelope, others opaque. */
export function renderError(thrown: Error, c: Context<ApiEnv>): Response {
  const requestId = c.get("requestId");
  const error = ruleErrorOf(thrown) ?? thrown;
  if (error instanceof ApiError) {
    return c.json(error.toJSON(requestId), error.status as 400, error.headers);
  }
  if (error instanceof ClientAborted) {
    // Nobody is there to answer; not the server's fault, so not an error in the logs.
    (c.get("log") ?? console).debug({ request_id: requestId, cause: (error.cause as Error | undefined)?.message }, "client closed the request before its body ended");
    return new Response(null, { status: clientClosedRequest });
  }
  const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  const unavailable = code !== undefined && unavailableCodes.has(code);
  (c.get("log") ?? console).error({ err: error, request_id: requestId }, unavailable ? "database unavailable" : "unhandled error");
  const answer = unavailable
    ? new ApiError("service_unavailable", "The service is temporarily unavailable. Retry with backoff.")
    : new ApiError("internal_error", "An unexpected error occurred. It has been logged; quote the request id if you contact us.");
  return c.json(answer.toJSON(requestId), answer.status as 500, unavailable ? { "Retry-After": "1" } : undefined);
}
