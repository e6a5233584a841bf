import { ApiError } from "@/server/errors";
import { maxBodyBytes } from "@/server/http/body";
import type { ApiDeps } from "@/server/http/context";
import { outsideApp } from "@/server/http/outside-app";
import { receiveProcessorEvent } from "@/server/payments/processor-events";

/** Where an owner points Stripe's webhook endpoint: `<Innkeep's address>/stripe/webhooks/<ppr_ id>`. */
export const stripeWebhooksPath = "/stripe/webhooks";

/**
 * Stripe's own events in (issue 37, point 4), outside `/v1`: Stripe calls it, with no credential of
 * Innkeep's, only its signature, so it is not an operation of the API's document and no client
 * calls it. The answer's errors are the contract's (a bad signature: 400 on `Stripe-Signature`).
 */
export function createStripeWebhooks(deps: ApiDeps) {
  const app = outsideApp(deps);
  // POST /stripe/webhooks/{id}: one event Stripe sent for the connection `ppr_…`, verified over its raw body
  app.post("/:id", async (c) => {
    c.set("route", `${stripeWebhooksPath}/{id}`);
    if (Number(c.req.header("content-length") ?? 0) > maxBodyBytes) throw new ApiError("request_too_large", `The body is larger than ${maxBodyBytes} bytes.`);
    const payload = Buffer.from(await c.req.arrayBuffer());
    if (payload.length > maxBodyBytes) throw new ApiError("request_too_large", `The body is larger than ${maxBodyBytes} bytes.`);
    const received = await receiveProcessorEvent({ db: deps.db, processorId: c.req.param("id"), payload, signature: c.req.header("stripe-signature") });
    return c.json({ received: true, event: received.event, duplicate: received.duplicate, outcome: received.outcome, payment_id: received.paymentId });
  });
  app.all("*", (c) => {
    if (/^\/stripe\/webhooks\/[^/]+$/.test(c.req.path)) {
      throw new ApiError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}; use POST.`, { headers: { Allow: "POST" } });
    }
    throw new ApiError("route_not_found", `Unrecognized request URL (${c.req.method} ${c.req.path}).`);
  });
  return app;
}
