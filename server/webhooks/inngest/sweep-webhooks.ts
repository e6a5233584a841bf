import { and, eq, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "@/db/schema";
import type { EngineDeps } from "../settings";
import { advanceBackfills } from "../backfill";
import { fanOutEvents } from "../fan-out";
import { sendDueMail } from "../mail";
import { inngest, sendDeliveriesToInngest } from "@/server/jobs/inngest-client";

/**
 * Every minute: fans out events no process has fanned out yet, advances backfills, and hands
 * Inngest again any delivery that should be running and is not (never started after a minute,
 * or overdue by ten), so nothing waits forever on a lost hand-off. Serverless hosts, with no
 * long-running dispatcher, rely on it alone.
 */
export function createSweepWebhooks(deps: () => Promise<EngineDeps>) {
  return inngest.createFunction({ id: "sweep-webhooks", name: "Sweep webhook deliveries", triggers: [{ cron: "* * * * *" }] }, async ({ step }) => {
    const fannedOut = await step.run("fan-out-new-events", async () => {
      const { db } = await deps();
      const ids: string[] = [];
      for (let round = 0; round < 20; round++) {
        const batch = await fanOutEvents(db);
        ids.push(...batch.deliveryIds);
        if (!batch.events) break;
      }
      ids.push(...(await advanceBackfills(db)));
      await sendDeliveriesToInngest(ids, "queued");
      return ids.length;
    });
    const requeued = await step.run("requeue-stalled-deliveries", async () => {
      const { db } = await deps();
      const rows = await db
        .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attemptCount })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          and(
            inArray(webhookDeliveries.status, ["queued", "retry_scheduled"]),
            eq(webhookEndpoints.status, "enabled"),
            or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, sql`now()`)),
            or(
              and(eq(webhookDeliveries.attemptCount, 0), lt(webhookDeliveries.createdAt, sql`now() - interval '1 minute'`)),
              lt(webhookDeliveries.nextAttemptAt, sql`now() - interval '10 minutes'`),
            ),
          ),
        )
        .limit(1_000);
      for (const row of rows) await sendDeliveriesToInngest([row.id], `sweep-${row.attempts}`);
      return rows.length;
    });
    // Outbox mail (breaker notices) due for a first try or a retry.
    const mailed = await step.run("send-due-mail", async () => {
      const { db, settings } = await deps();
      return sendDueMail(db, settings, { limit: 100 });
    });
    return { fannedOut, requeued, mailed };
  });
}
