import { Inngest, eventType } from "inngest";
import { z } from "zod";
import { getConfig, type Config } from "@/server/config";

/** Inngest drives retry timing when it is configured (contract §7); else the in-process dispatcher does. */
export const inngestConfigured = (config: Config = getConfig()) =>
  Boolean(config.INNGEST_EVENT_KEY || config.INNGEST_SIGNING_KEY || (config.INNGEST_DEV && config.INNGEST_BASE_URL));

function createClient() {
  const config = getConfig();
  return new Inngest({
    id: "innkeep",
    ...(config.INNGEST_DEV ? { isDev: true } : {}),
    ...(config.INNGEST_BASE_URL ? { baseUrl: config.INNGEST_BASE_URL } : {}),
    ...(config.INNGEST_EVENT_KEY ? { eventKey: config.INNGEST_EVENT_KEY } : {}),
    ...(config.INNGEST_SIGNING_KEY ? { signingKey: config.INNGEST_SIGNING_KEY } : {}),
  });
}

export const inngest = createClient();

/** A delivery is due (new, replayed, backfilled, resumed): run its attempts. */
export const deliveryQueued = eventType("innkeep/webhook.delivery.queued", {
  schema: z.object({ delivery_id: z.string() }),
});

/** Hands deliveries to Inngest; the event id makes a repeated hand-off of the same state a no-op. */
export async function sendDeliveriesToInngest(deliveryIds: string[], reason: string): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += 500) {
    const batch = deliveryIds.slice(i, i + 500);
    await inngest.send(batch.map((id) => deliveryQueued.create({ delivery_id: id }, { id: `${reason}:${id}` })));
  }
}
