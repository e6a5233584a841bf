import { isoTime } from "@/lib/dates";
import type { paymentProcessors } from "@/db/schema";

/** A connected processor as the API and Settings show it: hints of its keys, never the keys. */
export const presentProcessor = (p: typeof paymentProcessors.$inferSelect) => ({
  id: p.id,
  object: "payment_processor" as const,
  livemode: p.livemode,
  type: p.type,
  property_id: p.propertyId,
  mode: p.processorMode,
  secret_key_hint: p.secretKeyHint,
  webhook_secret_hint: p.webhookSecretHint,
  publishable_key: p.publishableKey,
  processor_account_id: p.processorAccountId,
  created_at: isoTime(p.createdAt),
  updated_at: isoTime(p.updatedAt),
});
