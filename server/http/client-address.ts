import type { Context } from "hono";
import type { ApiEnv } from "./env";

/**
 * The caller's address: from the socket, or the left-most X-Forwarded-For entry when the app
 * is told it sits behind a proxy (TRUST_PROXY=1). Undefined when neither is known.
 */
export function clientAddress(c: Context<ApiEnv>): string | undefined {
  if (c.get("deps").trustProxy) {
    const forwarded = c.req.header("x-forwarded-for");
    const first = forwarded?.split(",")[0]?.trim();
    if (first) return first;
  }
  return c.env?.incoming?.socket?.remoteAddress;
}
