import { getDatabase } from "@/server/runtime";
import type { EngineDeps } from "../attempt-delivery";
import { webhookSettings } from "../settings";
import { createDeliverWebhook } from "./deliver-webhook";
import { createSweepWebhooks } from "./sweep-webhooks";

const runtimeDeps = async (): Promise<EngineDeps> => ({ db: (await getDatabase()).db, settings: webhookSettings() });

/** Every Inngest function of the app, served at /api/inngest. */
export const inngestFunctions = [createDeliverWebhook(runtimeDeps), createSweepWebhooks(runtimeDeps)];
