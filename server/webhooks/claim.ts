import { and, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { planEachTime, rowsOf, type Db } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints, webhookSecrets } from "@/db/schema";
import { randomToken } from "@/server/ids";
import type { EngineDeps, WebhookSettings } from "./settings";

type Delivery = typeof webhookDeliveries.$inferSelect;
type Endpoint = typeof webhookEndpoints.$inferSelect;

/** How long a claim holds a delivery: the attempt's timeout and a margin to record it. */
export const leaseMs = (settings: WebhookSettings) => settings.attemptTimeoutMs + 30_000;

/** A leased delivery with everything its attempt needs. */
export type ClaimedDelivery = {
  delivery: Delivery;
  token: string;
  endpoint: Endpoint;
  event: typeof events.$inferSelect;
  /** The endpoint's secrets still valid, newest first, as stored (sealed). */
  secrets: { id: string; secret: string }[];
};

/** What a claim asks for. */
export type ClaimRequest =
  /** The dispatcher's batch: the oldest due deliveries of enabled endpoints, at most `perEndpoint` of one less what it holds (`busy`). */
  | { due: { limit: number; perEndpoint: number; busy: ReadonlyMap<string, number> } }
  /** Inngest's one delivery, when pending and not leased, whether due or not (its function sleeps until it is). */
  | { deliveryId: string };

/** A delivery leased and let go again at once, and why: it waits for its endpoint, or nothing is left to send to. */
export type LetGo = { delivery: Delivery; reason: "endpoint_disabled" | "endpoint_missing" | "event_missing" };

/**
 * Ids as one `text[]` parameter (`= any(…)`): one statement text whatever the batch's size, so
 * each connection prepares it once (an `in (…)` list is a new statement for every length). Ids
 * are prefixed base-62 tokens, never quotes, commas or braces.
 */
export const anyOf = (ids: readonly string[]) => sql`any(${`{${ids.join(",")}}`}::text[])`;

/**
 * THE claim, for the dispatcher's batches and Inngest's single deliveries alike: leases the
 * deliveries asked for (each row is ours until the lease runs out, so two workers never send the
 * same attempt, and a worker that dies mid-attempt leaves a delivery that is simply due again
 * once its lease expires), then loads what their attempts need (endpoints, events, secrets) in
 * four statements for the whole claim. A delivery whose endpoint is disabled or gone is let go at
 * once (it waits for the endpoint) and answered in `letGo`.
 */
export async function claimDeliveries(deps: EngineDeps, request: ClaimRequest): Promise<{ claimed: ClaimedDelivery[]; letGo: LetGo[] }> {
  const token = randomToken(16);
  const leased = "due" in request ? await leaseDue(deps, token, request.due) : await leaseOne(deps, token, request.deliveryId);
  if (!leased.length) return { claimed: [], letGo: [] };
  return loadClaimed(deps.db, token, leased);
}

const leaseFor = (settings: WebhookSettings) => `${leaseMs(settings)} milliseconds`;

/** A leased row as the lease's statement returns it. */
type Leased = { id: string; endpoint_id: string; event_id: string };

/** One delivery, pending and not leased: its id, or none. */
async function leaseOne({ db, settings }: EngineDeps, token: string, deliveryId: string): Promise<Leased[]> {
  return rowsOf<Leased>(
    await db.execute(sql`
      update webhook_deliveries set lease_until = now() + ${leaseFor(settings)}::interval, lease_token = ${token}
      where id = ${deliveryId} and status in ('queued', 'retry_scheduled') and (lease_until is null or lease_until < now())
      returning id, endpoint_id, event_id`),
  );
}

/**
 * Up to `limit` due deliveries of enabled endpoints, at most `room(endpoint)` of any one endpoint.
 *
 * The lease goes endpoint by endpoint: a skip scan of the due index finds the endpoints that have
 * pending deliveries (one index probe each), and each enabled one with room left gives its oldest
 * due deliveries, at most its room, from the same index. So a claim reads about what it takes, and
 * an endpoint whose slots are all busy costs nothing: the claim used to scan every due delivery in
 * time order and skip the full endpoints' rows, which with a burst's thousands of rows, all due
 * and all of busy endpoints, was half of what the burst cost PostgreSQL. One endpoint's backlog
 * still never holds another's deliveries back. Of what the endpoints give, the oldest `limit` are
 * taken, in (next_attempt_at, event_created_at, id) order.
 *
 * FOR UPDATE SKIP LOCKED: two processes never take the same row. A backfill's deliveries wait
 * until every earlier one of the same backfill has had its first attempt, so a backfill arrives in
 * its original order.
 */
async function leaseDue({ db, settings }: EngineDeps, token: string, options: { limit: number; perEndpoint: number; busy: ReadonlyMap<string, number> }): Promise<Leased[]> {
  const busy = JSON.stringify(Object.fromEntries(options.busy));
  return rowsOf<Leased>(
    await db.execute(sql`${planEachTime}
      with recursive pending_endpoints(id) as (
        (select d.endpoint_id from webhook_deliveries d where d.status in ('queued', 'retry_scheduled') order by d.endpoint_id limit 1)
        union all
        select (select d.endpoint_id from webhook_deliveries d where d.status in ('queued', 'retry_scheduled') and d.endpoint_id > p.id order by d.endpoint_id limit 1)
        from pending_endpoints p where p.id is not null
      ), open_endpoints as (
        select id, room from (
          select e.id, least(${options.perEndpoint}::int - coalesce((${busy}::jsonb ->> e.id)::int, 0), ${options.limit}::int) as room
          from pending_endpoints p join webhook_endpoints e on e.id = p.id
          where e.status = 'enabled'
        ) r
        where room > 0
      ), candidates as (
        select c.* from open_endpoints o cross join lateral (
          select d.id, d.next_attempt_at, d.event_created_at from webhook_deliveries d
          where d.endpoint_id = o.id
            and d.status in ('queued', 'retry_scheduled')
            and d.next_attempt_at <= now()
            and (d.lease_until is null or d.lease_until < now())
            and (d.backfill_id is null or not exists (
              select 1 from webhook_deliveries p
              where p.backfill_id = d.backfill_id and p.backfill_seq < d.backfill_seq and p.status = 'queued' and p.attempt_count = 0
            ))
          order by d.next_attempt_at, d.event_created_at, d.id
          limit o.room
          for update of d skip locked
        ) c
      ), chosen as (
        select id from candidates order by next_attempt_at, event_created_at, id limit ${options.limit}
      )
      update webhook_deliveries set lease_until = now() + ${leaseFor(settings)}::interval, lease_token = ${token}
      where id in (select id from chosen)
      returning id, endpoint_id, event_id`),
  );
}

/** The leased rows as drizzle maps them (dates as Dates) and what their attempts need: four statements at once. */
async function loadClaimed(db: Db, token: string, leased: Leased[]): Promise<{ claimed: ClaimedDelivery[]; letGo: LetGo[] }> {
  const endpointIds = [...new Set(leased.map((d) => d.endpoint_id))];
  const [deliveries, endpoints, eventRows, secrets] = await Promise.all([
    db.select().from(webhookDeliveries).where(sql`${webhookDeliveries.id} = ${anyOf(leased.map((r) => r.id))}`),
    db.select().from(webhookEndpoints).where(sql`${webhookEndpoints.id} = ${anyOf(endpointIds)}`),
    db.select().from(events).where(sql`${events.id} = ${anyOf([...new Set(leased.map((d) => d.event_id))])}`),
    validSecretsOf(db, endpointIds),
  ]);
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const eventById = new Map(eventRows.map((e) => [e.id, e]));
  const claimed: ClaimedDelivery[] = [];
  const letGo: LetGo[] = [];
  for (const delivery of deliveries.sort((a, b) => +a.nextAttemptAt! - +b.nextAttemptAt! || +a.eventCreatedAt - +b.eventCreatedAt || (a.id < b.id ? -1 : 1))) {
    const endpoint = endpointById.get(delivery.endpointId);
    const event = eventById.get(delivery.eventId);
    if (!endpoint) letGo.push({ delivery, reason: "endpoint_missing" });
    else if (endpoint.status !== "enabled") letGo.push({ delivery, reason: "endpoint_disabled" });
    else if (!event) letGo.push({ delivery, reason: "event_missing" });
    else claimed.push({ delivery, token, endpoint, event, secrets: secrets.filter((s) => s.endpointId === endpoint.id) });
  }
  await releaseLeases(db, letGo.map(({ delivery }) => ({ delivery, token })));
  return { claimed, letGo };
}

/** Lets go of leased deliveries not sent: each is due again at once, for any process. Only leases still ours are touched. */
export async function releaseLeases(db: Db, list: readonly { delivery: { id: string }; token: string }[]): Promise<void> {
  const byToken = new Map<string, string[]>();
  for (const c of list) {
    const ids = byToken.get(c.token);
    if (ids) ids.push(c.delivery.id);
    else byToken.set(c.token, [c.delivery.id]);
  }
  for (const [token, ids] of byToken) {
    await db
      .update(webhookDeliveries)
      .set({ leaseUntil: null, leaseToken: null })
      .where(and(sql`${webhookDeliveries.id} = ${anyOf(ids)}`, eq(webhookDeliveries.leaseToken, token)));
  }
}

/** The endpoint's secrets still valid, newest first: one `v1` each in the signature. */
export const validSecretsOf = (db: Db, endpointIds: string[]) =>
  db
    .select({ id: webhookSecrets.id, endpointId: webhookSecrets.endpointId, secret: webhookSecrets.secret })
    .from(webhookSecrets)
    .where(and(sql`${webhookSecrets.endpointId} = ${anyOf(endpointIds)}`, or(isNull(webhookSecrets.expiresAt), gt(webhookSecrets.expiresAt, sql`now()`))))
    .orderBy(desc(webhookSecrets.createdAt));
