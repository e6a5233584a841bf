import type { MiddlewareHandler } from "hono";
import { newId } from "@/server/ids";
import { logger } from "@/server/observability/logger";
import { metrics } from "@/server/observability/metrics";
import type { ApiEnv } from "./context";
import { clientClosedRequest } from "./render-error";
import { latestApiVersion } from "./versions";

/**
 * Outermost step: gives the request its id and logger, and on the way out stamps the headers
 * every response carries (errors included) and records metrics and one log line. A request its
 * client abandoned mid-body is counted as 499 and logged at debug: nobody got an answer, and no
 * server error happened.
 */
export const observe: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const started = performance.now();
  const requestId = newId("request");
  c.set("requestId", requestId);
  c.set("log", logger.child({ request_id: requestId }));
  await next();
  const res = c.res;
  res.headers.set("Service-Request-Id", requestId);
  res.headers.set("Service-Version", c.get("version") ?? latestApiVersion);
  const rate = c.get("rate");
  if (rate) {
    res.headers.set("X-RateLimit-Limit", String(rate.limit));
    res.headers.set("X-RateLimit-Remaining", String(rate.remaining));
    res.headers.set("X-RateLimit-Reset", String(rate.reset));
  }
  const seconds = (performance.now() - started) / 1000;
  const route = c.get("route") ?? "unmatched";
  const m = metrics();
  m.httpRequests.inc({ route, method: c.req.method, status: String(res.status) });
  m.httpDuration.observe({ route, method: c.req.method }, seconds);
  const log = c.get("log");
  (res.status === clientClosedRequest ? log.debug.bind(log) : log.info.bind(log))({ method: c.req.method, path: c.req.path, route, status: res.status, ms: Math.round(seconds * 1000) }, "request");
};
