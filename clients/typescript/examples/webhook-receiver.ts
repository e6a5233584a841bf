// A webhook receiver in Hono: verify the signature on the raw body, then act on the typed event.
// INNKEEP_WEBHOOK_SECRET=whsec_… npx tsx examples/webhook-receiver.ts
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import Innkeep, { SignatureVerificationError } from "@innkeep/node";

const app = new Hono();

app.post("/innkeep/webhooks", async (c) => {
  const rawBody = await c.req.text(); // the exact bytes: never re-serialize parsed JSON
  try {
    // constructEventAsync uses WebCrypto, so the same handler runs on edge runtimes too.
    const event = await Innkeep.webhooks.constructEventAsync(rawBody, c.req.header("service-signature"), process.env.INNKEEP_WEBHOOK_SECRET!);
    switch (event.type) {
      case "reservation.created":
        console.log(`new booking ${event.data.object.id} from ${event.data.object.check_in}`);
        break;
      case "payment.failed":
        console.log(`payment ${event.data.object.id} failed`);
        break;
      default:
        console.log(`${event.type} ${event.id}`);
    }
    return c.body(null, 204);
  } catch (error) {
    if (error instanceof SignatureVerificationError) return c.text(error.reason, 400);
    throw error;
  }
});

serve({ fetch: app.fetch, port: 4242 });
