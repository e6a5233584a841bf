import { createHash, timingSafeEqual } from "node:crypto";
import type { Context } from "hono";
import { getConfig, isProduction } from "@/server/config";
import type { ApiDeps, MetricsAccess } from "./context";

const digest = (text: string) => createHash("sha256").update(text).digest();

function accessOf(deps: ApiDeps): MetricsAccess {
  if (deps.metricsAccess) return deps.metricsAccess;
  const config = getConfig();
  return { token: config.METRICS_TOKEN, production: isProduction(config) };
}

/**
 * Who may read /metrics (request counts by route, delivery lag, heap): with `METRICS_TOKEN` set only
 * `Authorization: Bearer <token>` (401 otherwise); without it, anyone outside production and no one
 * in production (404, as if the route did not exist). Answers the refusal, or null to go on.
 */
export function refuseMetrics(c: Context, deps: ApiDeps): Response | null {
  const { token, production } = accessOf(deps);
  if (!token) return production ? c.text("Not Found", 404) : null;
  const presented = /^Bearer\s+(.+)$/i.exec(c.req.header("authorization") ?? "")?.[1]?.trim() ?? "";
  // Compared as digests: equal lengths for timingSafeEqual, and no early exit on the first wrong byte.
  if (presented && timingSafeEqual(digest(presented), digest(token))) return null;
  return c.text("Unauthorized", 401, { "WWW-Authenticate": 'Bearer realm="metrics"' });
}
