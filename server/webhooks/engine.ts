import type { Db } from "@/db/client";
import { getConfig } from "@/server/config";
import { logger } from "@/server/observability/logger";
import { startDispatcher } from "./dispatcher";
import { inngestConfigured, sendDeliveriesToInngest } from "@/server/jobs/inngest-client";
import { onDeliveriesQueued } from "./queue";
import { webhookSettings } from "./settings";

/**
 * Starts this process's share of webhook delivery (server/main.ts calls it): the in-process
 * dispatcher makes the attempts, or, when Inngest is configured, fans out and hands each
 * delivery to Inngest. WEBHOOK_DISPATCHER=0 starts nothing. Returns the stop function.
 */
export function startWebhookEngine({ db }: { db: Db }): { stop(): Promise<void> } {
  const config = getConfig();
  if (!config.WEBHOOK_DISPATCHER) return { stop: async () => {} };
  const settings = webhookSettings(config);
  if (!inngestConfigured(config)) {
    logger.info({ component: "webhooks", mode: "in-process" }, "webhook dispatcher started");
    return startDispatcher({ db, settings });
  }
  const dispatcher = startDispatcher({ db, settings, handOff: sendDeliveriesToInngest });
  const unsubscribe = onDeliveriesQueued((ids, reason) => (ids.length ? sendDeliveriesToInngest(ids, reason) : dispatcher.wake()));
  logger.info({ component: "webhooks", mode: "inngest" }, "webhook dispatcher started; attempts run on Inngest");
  return {
    async stop() {
      unsubscribe();
      await dispatcher.stop();
    },
  };
}
