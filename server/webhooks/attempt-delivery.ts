import { and, desc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookSecrets, type DeliveryStatus } from "@/db/schema";
import { presentEvent } from "@/server/events/present";
import { newId, randomToken } from "@/server/ids";
import { logger } from "@/server/observability/logger";
import { weighBreaker } from "./breaker";
import { sendDueMail } from "./mail";
import { webhookMetrics } from "./metrics";
import { classify, retryAfterSeconds } from "./outcome";
import { openSecret } from "./secret-box";
import { sendWebhook } from "./send";
import { delayBeforeAttempt, maxAttempts, type WebhookSettings } from "./settings";
import { signatureHeaderValue } from "./signing";
import type { Lookup } from "./url-guard";

const log = logger.child({ component: "webhooks" });

/** What the attempt function needs; the dispatcher and the Inngest functions pass the same. */
export type EngineDeps = { db: Db; settings: WebhookSettings; lookup?: Lookup };

export type AttemptResult =
  /** Nothing was sent: the delivery is gone, finished, held by another worker, or not at this attempt. */
  | { kind: "skipped"; reason: "missing" | "finished" | "leased" | "other_attempt" }
  /** Nothing was sent: its endpoint is disabled, and the delivery waits for it to be re-enabled. */
  | { kind: "waiting" }
  | {
      kind: "attempted";
      number: number;
      result: "succeeded" | "retry" | "failed";
      status: DeliveryStatus;
      responseStatus: number | null;
      /** Seconds until the next attempt; null when none follows. */
      retryInSeconds: number | null;
      breakerOpened: boolean;
    };

const pending = ["queued", "retry_scheduled"] as const;
/** The most a 429/503 `Retry-After` may push the next attempt beyond the schedule. */
const maxRetryAfterSeconds = 3_600;

export const leaseMs = (settings: WebhookSettings) => settings.attemptTimeoutMs + 30_000;

/**
 * Takes the lease of a pending delivery: the row is ours until the lease runs out, so two
 * workers never send the same attempt, and a worker that dies mid-attempt leaves a delivery
 * that is simply due again once its lease expires.
 */
async function claim(db: Db, deliveryId: string, settings: WebhookSettings, leaseToken?: string) {
  const token = leaseToken ?? randomToken(16);
  const free = or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, sql`now()`));
  const [row] = await db
    .update(webhookDeliveries)
    .set({ leaseUntil: sql`now() + ${`${leaseMs(settings)} milliseconds`}::interval`, leaseToken: token })
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        inArray(webhookDeliveries.status, [...pending]),
        leaseToken ? eq(webhookDeliveries.leaseToken, leaseToken) : free,
      ),
    )
    .returning();
  return row ? { delivery: row, token } : null;
}

const release = (db: Db, id: string, token: string) =>
  db.update(webhookDeliveries).set({ leaseUntil: null, leaseToken: null }).where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.leaseToken, token)));

/**
 * THE attempt: used by the in-process dispatcher and by the Inngest function alike. Signs the
 * event afresh with this attempt's own timestamp, sends it once, records the attempt, moves the
 * delivery on (succeeded, retry scheduled, failed) and weighs the circuit breaker.
 *
 * `number`: the attempt the caller means to make (Inngest passes it, so a re-run step never
 * sends twice); `leaseToken`: a lease the caller already holds (the dispatcher claims in bulk).
 */
export async function attemptDelivery(deps: EngineDeps, args: { deliveryId: string; number?: number; leaseToken?: string }): Promise<AttemptResult> {
  const { db, settings } = deps;
  const claimed = await claim(db, args.deliveryId, settings, args.leaseToken);
  if (!claimed) {
    const [row] = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.id, args.deliveryId));
    return { kind: "skipped", reason: !row ? "missing" : pending.includes(row.status as never) ? "leased" : "finished" };
  }
  const { delivery, token } = claimed;
  const number = delivery.attemptCount + 1;
  if (args.number !== undefined && args.number !== number) {
    await release(db, delivery.id, token);
    return { kind: "skipped", reason: "other_attempt" };
  }
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId));
  if (!endpoint || endpoint.status !== "enabled") {
    await release(db, delivery.id, token);
    return endpoint ? { kind: "waiting" } : { kind: "skipped", reason: "missing" };
  }
  const [event] = await db.select().from(events).where(eq(events.id, delivery.eventId));
  const secrets = await db
    .select({ id: webhookSecrets.id, secret: webhookSecrets.secret })
    .from(webhookSecrets)
    .where(and(eq(webhookSecrets.endpointId, endpoint.id), or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, sql`now()`))))
    .orderBy(desc(webhookSecrets.createdAt));

  const body = JSON.stringify(presentEvent(event));
  const startedAt = new Date();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const requestHeaders = {
    "content-type": "application/json",
    "user-agent": "Innkeep-Webhooks/1",
    "service-signature": signatureHeaderValue(
      secrets.map((s) => openSecret(s.secret, s.id)),
      timestamp,
      body,
    ),
    "service-request-id": newId("request"),
    "service-delivery-id": delivery.id,
  };
  const exchange = await sendWebhook({
    url: endpoint.url,
    body,
    headers: requestHeaders,
    timeoutMs: settings.attemptTimeoutMs,
    blockPrivateNetworks: settings.blockPrivateNetworks,
    lookup: deps.lookup,
  });
  const outcome = classify(exchange);

  let status: DeliveryStatus;
  let retryInSeconds: number | null = null;
  if (outcome.result === "succeeded") status = "succeeded";
  else if (outcome.result === "failed" || number >= maxAttempts) status = "failed";
  else {
    status = "retry_scheduled";
    retryInSeconds = delayBeforeAttempt(settings, number + 1);
    const asked = exchange.status === 429 || exchange.status === 503 ? retryAfterSeconds(exchange.headers) : null;
    if (asked !== null) retryInSeconds = Math.max(retryInSeconds, Math.min(asked, maxRetryAfterSeconds));
  }
  const finishedAt = new Date();

  const recorded = await db.transaction(async (tx) => {
    const [moved] = await tx
      .update(webhookDeliveries)
      .set({
        status,
        attemptCount: number,
        nextAttemptAt: retryInSeconds === null ? null : new Date(startedAt.getTime() + retryInSeconds * 1000),
        leaseUntil: null,
        leaseToken: null,
        firstAttemptAt: delivery.firstAttemptAt ?? startedAt,
        updatedAt: finishedAt,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leaseToken, token)))
      .returning({ id: webhookDeliveries.id });
    // Our lease ran out and another worker took the delivery over: its record wins.
    if (!moved) return null;
    await tx.insert(webhookAttempts).values({
      id: newId("attempt"),
      deliveryId: delivery.id,
      endpointId: endpoint.id,
      number,
      // What was sent, for the dashboard's attempt view and "copy as curl" (the body is the event's envelope).
      requestUrl: endpoint.url,
      requestHeaders,
      startedAt,
      latencyMs: exchange.latencyMs,
      responseStatus: exchange.status,
      responseHeaders: exchange.headers,
      responseBody: exchange.body.subarray(0, 8 * 1024).toString("utf8").replace(/\u0000/g, "\uFFFD"),
      error: exchange.error,
      outcome: outcome.result,
      serverError: outcome.serverError,
    });
    // Only a 5xx-like attempt can push the share over the threshold; others never open the breaker.
    const mailId = outcome.serverError ? await weighBreaker(tx, endpoint, settings, finishedAt) : null;
    return { mailId };
  });
  if (!recorded) return { kind: "skipped", reason: "leased" };

  const m = webhookMetrics();
  m.attempts.inc({ outcome: outcome.result });
  if (number === 1 && delivery.source === "event") m.lag.observe(Math.max(0, (startedAt.getTime() - delivery.eventCreatedAt.getTime()) / 1000));
  // The notice's first try at once; if it fails, the outbox retries it on its own schedule.
  if (recorded.mailId) await sendDueMail(db, settings, { id: recorded.mailId });
  if (outcome.result !== "succeeded") {
    log.info({ delivery_id: delivery.id, endpoint_id: endpoint.id, number, status: exchange.status, error: exchange.error, next: status }, "webhook attempt failed");
  }
  return { kind: "attempted", number, result: outcome.result, status, responseStatus: exchange.status, retryInSeconds, breakerOpened: !!recorded.mailId };
}
