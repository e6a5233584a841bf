import { and, count, eq, gte, sql } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { accounts, webhookAttempts, webhookEndpoints } from "@/db/schema";
import { logger } from "@/server/observability/logger";
import { queueMail } from "@/server/events/mail-outbox";
import type { WebhookSettings } from "./settings";

const log = logger.child({ component: "webhooks" });

type Endpoint = typeof webhookEndpoints.$inferSelect;

/**
 * The rule of contract §7: at least `minAttempts` attempts in the window and more than 95 %
 * of them 5xx (or timeouts and network errors). Pure, so the threshold is tested on its own.
 */
export function breakerShouldOpen(stats: { attempts: number; serverErrors: number }, minAttempts: number): boolean {
  return stats.attempts >= minAttempts && stats.serverErrors * 100 > stats.attempts * 95;
}

/**
 * Weighs the endpoint's recent attempts (since the window start, and never before its last
 * re-enable) right after one is recorded, in the same transaction. When the breaker opens the
 * endpoint is disabled with `circuit_breaker` and the developer contact's e-mail is queued;
 * the conditional update makes sure only one attempt opens it. Returns the queued mail's id.
 */
export async function weighBreaker(tx: Tx, endpoint: Endpoint, settings: WebhookSettings, now: Date): Promise<string | null> {
  // Attempts finishing at once must be weighed one after the other: each counts in its own
  // transaction, and without the endpoint's row lock ten concurrent failures could each see
  // fewer than ten attempts and none open the breaker. Once the lock is ours, the count's fresh
  // snapshot (READ COMMITTED) includes every attempt committed before us.
  const [current] = await tx.select({ status: webhookEndpoints.status }).from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id)).for("update");
  if (current?.status !== "enabled") return null;
  const windowStart = new Date(Math.max(now.getTime() - settings.breakerWindowSeconds * 1000, endpoint.enabledAt.getTime()));
  const [stats] = await tx
    .select({ attempts: count(), serverErrors: sql<number>`count(*) filter (where ${webhookAttempts.serverError})` })
    .from(webhookAttempts)
    .where(and(eq(webhookAttempts.endpointId, endpoint.id), gte(webhookAttempts.startedAt, windowStart)));
  const figures = { attempts: Number(stats.attempts), serverErrors: Number(stats.serverErrors) };
  if (!breakerShouldOpen(figures, settings.breakerMinAttempts)) return null;

  const [opened] = await tx
    .update(webhookEndpoints)
    .set({ status: "disabled", disabledReason: "circuit_breaker", disabledAt: now, updatedAt: now })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.status, "enabled")))
    .returning();
  if (!opened) return null;
  log.warn({ endpoint_id: endpoint.id, ...figures }, "circuit breaker opened: endpoint disabled");
  const [account] = await tx.select().from(accounts).where(eq(accounts.id, endpoint.accountId));
  const percent = Math.round((figures.serverErrors / figures.attempts) * 100);
  return queueMail(tx, {
    accountId: endpoint.accountId,
    to: account?.developerContact ?? null,
    subject: `Innkeep disabled your webhook endpoint ${endpoint.url}`,
    text: [
      `Your ${endpoint.livemode ? "live" : "sandbox"} webhook endpoint ${endpoint.id} (${endpoint.url}) answered ${percent} % of ${figures.attempts} delivery attempts`,
      `over the last ${Math.round(settings.breakerWindowSeconds / 60)} minutes with a server error or no answer, so Innkeep disabled it.`,
      ``,
      `No event is lost: deliveries to it wait, and events that arrive meanwhile are kept as waiting deliveries.`,
      `When the endpoint works again, re-enable it (POST /v1/webhook_endpoints/${endpoint.id}/enable, or from the dashboard)`,
      `and the waiting deliveries go out.`,
    ].join("\n"),
  });
}
