import { LRUCache } from "lru-cache";
import { and, eq } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, type DeliveryStatus } from "@/db/schema";
import { presentEvent } from "@/server/events/present";
import { newId } from "@/server/ids";
import { logger } from "@/server/observability/logger";
import { weighBreaker } from "./breaker";
import { claimDeliveries, releaseLeases, type ClaimedDelivery } from "./claim";
import { sendDueMail } from "./mail";
import { webhookMetrics } from "./metrics";
import { classify, retryAfterSeconds, type Outcome } from "./outcome";
import { openSecret } from "./secret-box";
import { sendWebhook, type Exchange } from "./send";
import { delayBeforeAttempt, maxAttempts, type EngineDeps } from "./settings";
import { signatureHeaderValue } from "./signing";

const log = logger.child({ component: "webhooks" });

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

/** One attempt made and not yet recorded: what was sent, what came back, what follows. */
export type FinishedAttempt = {
  claimed: ClaimedDelivery;
  number: number;
  requestHeaders: Record<string, string>;
  startedAt: Date;
  finishedAt: Date;
  exchange: Exchange;
  outcome: Outcome;
  status: DeliveryStatus;
  /** Seconds until the next attempt; null when none follows. */
  retryInSeconds: number | null;
};

/**
 * Secrets as opened, by row and sealed value (a rotation or a re-seal is a new key): opening the
 * same AES-GCM value for every delivery was a twentieth of the dispatcher's CPU in a burst.
 */
const openedSecrets = new LRUCache<string, string>({ max: 1_000 });
function opened(s: { id: string; secret: string }): string {
  const key = `${s.id}\n${s.secret}`;
  let plain = openedSecrets.get(key);
  if (plain === undefined) openedSecrets.set(key, (plain = openSecret(s.secret, s.id)));
  return plain;
}

/**
 * Signs the event afresh with this attempt's own timestamp, sends it once and works out what
 * follows (succeeded, a retry and when, failed). Records nothing: see `recordAttempt`.
 */
export async function makeAttempt(deps: EngineDeps, claimed: ClaimedDelivery, number: number): Promise<FinishedAttempt> {
  const { settings } = deps;
  const { delivery, endpoint, event, secrets } = claimed;
  const body = JSON.stringify(presentEvent(event));
  const startedAt = new Date();
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const requestHeaders = {
    "content-type": "application/json",
    "user-agent": "Innkeep-Webhooks/1",
    "service-signature": signatureHeaderValue(
      secrets.map((s) => opened(s)),
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
  return { claimed, number, requestHeaders, startedAt, finishedAt: new Date(), exchange, outcome, status, retryInSeconds };
}

/** The attempt's row, as the dashboard's attempt view and "copy as curl" read it (the body is the event's envelope). */
export const attemptRow = (f: FinishedAttempt): typeof webhookAttempts.$inferInsert => ({
  id: newId("attempt"),
  deliveryId: f.claimed.delivery.id,
  endpointId: f.claimed.endpoint.id,
  number: f.number,
  requestUrl: f.claimed.endpoint.url,
  requestHeaders: f.requestHeaders,
  startedAt: f.startedAt,
  latencyMs: f.exchange.latencyMs,
  responseStatus: f.exchange.status,
  responseHeaders: f.exchange.headers,
  responseBody: f.exchange.body.subarray(0, 8 * 1024).toString("utf8").replace(/\u0000/g, "\uFFFD"),
  error: f.exchange.error,
  outcome: f.outcome.result,
  serverError: f.outcome.serverError,
});

/** Where the delivery stands after the attempt. */
export const movedDelivery = (f: FinishedAttempt) => ({
  status: f.status,
  attemptCount: f.number,
  nextAttemptAt: f.retryInSeconds === null ? null : new Date(f.startedAt.getTime() + f.retryInSeconds * 1000),
  firstAttemptAt: f.claimed.delivery.firstAttemptAt ?? f.startedAt,
  updatedAt: f.finishedAt,
});

/**
 * Records one attempt in one transaction: the delivery moves on (only while our lease holds),
 * the attempt is inserted, and a 5xx-like attempt weighs the circuit breaker. Answers null when
 * our lease ran out and another worker took the delivery over (its record wins), else the id of
 * the breaker's notice if this attempt opened it.
 */
export async function recordAttempt(deps: EngineDeps, f: FinishedAttempt): Promise<{ mailId: string | null } | null> {
  const { delivery, endpoint, token } = f.claimed;
  return deps.db.transaction(async (tx) => {
    const [moved] = await tx
      .update(webhookDeliveries)
      .set({ ...movedDelivery(f), leaseUntil: null, leaseToken: null })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.leaseToken, token)))
      .returning({ id: webhookDeliveries.id });
    if (!moved) return null;
    await tx.insert(webhookAttempts).values(attemptRow(f));
    // Only a 5xx-like attempt can push the share over the threshold; others never open the breaker.
    const mailId = f.outcome.serverError ? await weighBreaker(tx, endpoint, deps.settings, f.finishedAt) : null;
    return { mailId };
  });
}

/** After the record: metrics, the breaker's notice (its first try at once; the outbox retries it), a log line for a failure. */
export async function afterAttempt(deps: EngineDeps, f: FinishedAttempt, mailId: string | null): Promise<AttemptResult> {
  const { delivery, endpoint } = f.claimed;
  const m = webhookMetrics();
  m.attempts.inc({ outcome: f.outcome.result });
  if (f.number === 1 && delivery.source === "event") m.lag.observe(Math.max(0, (f.startedAt.getTime() - delivery.eventCreatedAt.getTime()) / 1000));
  if (mailId) await sendDueMail(deps.db, deps.settings, { id: mailId });
  if (f.outcome.result !== "succeeded") {
    log.info({ delivery_id: delivery.id, endpoint_id: endpoint.id, number: f.number, status: f.exchange.status, error: f.exchange.error, next: f.status }, "webhook attempt failed");
  }
  return {
    kind: "attempted",
    number: f.number,
    result: f.outcome.result,
    status: f.status,
    responseStatus: f.exchange.status,
    retryInSeconds: f.retryInSeconds,
    breakerOpened: !!mailId,
  };
}

/**
 * One attempt of one delivery, as the Inngest function makes it: claims it through the same
 * `claimDeliveries` as the in-process dispatcher's batches (server/webhooks/claim.ts), makes the
 * attempt (`makeAttempt`), records it (`recordAttempt`). The dispatcher records its attempts in
 * batches (server/webhooks/batch.ts) around the same `makeAttempt`.
 *
 * `number`: the attempt the caller means to make (Inngest passes it, so a re-run step never
 * sends twice).
 */
export async function attemptDelivery(deps: EngineDeps, args: { deliveryId: string; number?: number }): Promise<AttemptResult> {
  const { db } = deps;
  const { claimed: [claimed], letGo: [let_go] } = await claimDeliveries(deps, { deliveryId: args.deliveryId });
  const delivery = claimed?.delivery ?? let_go?.delivery;
  if (!delivery) {
    const [row] = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.id, args.deliveryId));
    return { kind: "skipped", reason: !row ? "missing" : pending.includes(row.status as never) ? "leased" : "finished" };
  }
  const number = delivery.attemptCount + 1;
  if (args.number !== undefined && args.number !== number) {
    if (claimed) await releaseLeases(db, [claimed]);
    return { kind: "skipped", reason: "other_attempt" };
  }
  if (!claimed) return let_go.reason === "endpoint_disabled" ? { kind: "waiting" } : { kind: "skipped", reason: "missing" };
  const finished = await makeAttempt(deps, claimed, number);
  const recorded = await recordAttempt(deps, finished);
  if (!recorded) return { kind: "skipped", reason: "leased" };
  return afterAttempt(deps, finished, recorded.mailId);
}
