import type { MiddlewareHandler } from "hono";
import { ApiError } from "@/server/errors";
import type { ApiEnv } from "./context";
import { apiVersions, isApiVersion, latestApiVersion } from "./versions";

/** `Service-Environment: live|sandbox` (absent: live) and `Service-Version: YYYY-MM-DD`. */
export const serviceHeaders: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const env = c.req.header("service-environment");
  if (env !== undefined && env !== "live" && env !== "sandbox") {
    throw new ApiError("invalid_environment", `Service-Environment must be 'live' or 'sandbox', not '${env}'.`, { param: "Service-Environment" });
  }
  c.set("livemode", env !== "sandbox");
  const requested = c.req.header("service-version");
  if (requested !== undefined && !isApiVersion(requested)) {
    throw new ApiError("invalid_version", `Unknown API version '${requested}'. The versions are ${apiVersions.join(", ")} (latest: ${latestApiVersion}).`, { param: "Service-Version" });
  }
  c.set("version", requested ?? c.get("principal")?.apiVersion ?? latestApiVersion);
  return next();
};
