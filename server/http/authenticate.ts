import type { MiddlewareHandler } from "hono";
import { ApiError } from "@/server/errors";
import { authenticateToken } from "@/server/auth/authenticate-token";
import { ipAllowed } from "@/server/auth/ip-allow-list";
import { clientAddress } from "./client-address";
import type { ApiEnv } from "./context";

const challenge = { "WWW-Authenticate": 'Bearer realm="innkeep"' };

/**
 * Resolves the bearer token, but does not refuse yet: the rate limiter counts failed attempts
 * too (by address), and the 401 must carry its headers. `requireAuth` refuses afterwards.
 */
export const authenticate: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const header = c.req.header("authorization");
  if (!header) {
    c.set("authError", new ApiError("missing_token", "No API key or access token provided. Send 'Authorization: Bearer <token>'.", { headers: challenge }));
    return next();
  }
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) {
    c.set("authError", new ApiError("invalid_token", "The Authorization header must have the form 'Bearer <token>'.", { headers: challenge }));
    return next();
  }
  try {
    const { db, credentials } = c.get("deps");
    const lookup = { db, token: match[1] };
    c.set("principal", await (credentials ? credentials.authenticate(lookup) : authenticateToken(lookup)));
  } catch (error) {
    // A failure to look the token up (the database is down) is answered after the rate-limit
    // step too, so even that 503 carries the X-RateLimit headers.
    c.set("authError", error instanceof ApiError ? new ApiError(error.code, error.message, { headers: challenge }) : (error as Error));
  }
  return next();
};

export const requireAuth: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const principal = c.get("principal");
  if (!principal) throw c.get("authError") ?? new ApiError("missing_token", "Authentication required.", { headers: challenge });
  if (principal.allowedIps.length && !ipAllowed(clientAddress(c), principal.allowedIps)) {
    throw new ApiError("ip_not_allowed", `Requests from ${clientAddress(c) ?? "an unknown address"} are not allowed for this API key.`);
  }
  return next();
};
