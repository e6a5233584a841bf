import { Hono } from "hono";
import type { ApiDeps, ApiEnv } from "./context";
import { observe } from "./observe";
import { renderError } from "./render-error";

/**
 * A Hono app for routes outside `/v1` that callers without Innkeep's credentials reach (Stripe's
 * events, the booking engine's guests): the contract's errors, the process's dependencies, and
 * the same metrics and logging as every request.
 */
export function outsideApp(deps: ApiDeps) {
  const app = new Hono<ApiEnv>();
  app.onError(renderError);
  app.use("*", async (c, next) => {
    c.set("deps", deps);
    return next();
  });
  app.use("*", observe);
  return app;
}
