import { eq } from "drizzle-orm";
import { webhookDeliveries } from "@/db/schema";
import { attemptDelivery } from "../attempt-delivery";
import type { EngineDeps } from "../settings";
import { deliveryQueued, inngest } from "@/server/jobs/inngest-client";

/** Where a pending delivery stands: the attempt it needs next, and how long until it is due. */
async function planNextAttempt(deps: EngineDeps, deliveryId: string): Promise<{ number: number; waitSeconds: number } | null> {
  const [d] = await deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  if (!d || (d.status !== "queued" && d.status !== "retry_scheduled")) return null;
  const waitMs = d.nextAttemptAt ? d.nextAttemptAt.getTime() - Date.now() : 0;
  return { number: d.attemptCount + 1, waitSeconds: Math.max(0, Math.ceil(waitMs / 1000)) };
}

/**
 * One delivery's whole life on Inngest: attempt, sleep the schedule's delay, attempt again,
 * until it succeeds, fails for good, or its endpoint is disabled (the run ends; re-enabling
 * starts a new one). Each attempt is `attemptDelivery`, the same function the in-process
 * dispatcher uses; it is told the attempt number, so a re-run step never sends twice.
 */
export function createDeliverWebhook(deps: () => Promise<EngineDeps>) {
  return inngest.createFunction(
    { id: "deliver-webhook", name: "Deliver a webhook", triggers: [deliveryQueued], retries: 5 },
    async ({ event, step }) => {
      const deliveryId = event.data.delivery_id;
      let plan = await step.run("plan-next-attempt", async () => planNextAttempt(await deps(), deliveryId));
      while (plan) {
        const { number, waitSeconds } = plan;
        if (waitSeconds > 0) await step.sleep(`wait-before-attempt-${number}`, `${waitSeconds}s`);
        const result = await step.run(`attempt-${number}`, async () => attemptDelivery(await deps(), { deliveryId, number }));
        if (result.kind !== "attempted" || result.retryInSeconds === null) return result;
        plan = { number: number + 1, waitSeconds: result.retryInSeconds };
      }
      return { kind: "skipped" as const, reason: "finished" as const };
    },
  );
}
