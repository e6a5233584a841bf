import { createRunNightAudits } from "@/server/night-audit/inngest-function";
import { getDatabase } from "@/server/runtime";
import { webhookSettings, type EngineDeps } from "@/server/webhooks/settings";
import { createDeliverWebhook } from "@/server/webhooks/inngest/deliver-webhook";
import { createSweepWebhooks } from "@/server/webhooks/inngest/sweep-webhooks";

const runtimeDeps = async (): Promise<EngineDeps> => ({ db: (await getDatabase()).db, settings: webhookSettings() });

/** Every Inngest function of the app, served at /api/inngest (webhook delivery and the night audit). */
export const inngestFunctions = [createDeliverWebhook(runtimeDeps), createSweepWebhooks(runtimeDeps), createRunNightAudits(async () => (await getDatabase()).db)];
