import { sql } from "drizzle-orm";
import { planEachTime, rowsOf } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { isoTime } from "@/lib/dates";
import { randomToken } from "@/server/ids";
import { anyOf, attemptRow, leaseMs, movedDelivery, releaseLeases, validSecretsOf, type ClaimedDelivery, type EngineDeps, type FinishedAttempt } from "./attempt-delivery";

type Delivery = typeof webhookDeliveries.$inferSelect;


/**
 * Leases up to `limit` due deliveries of enabled endpoints, at most `room(endpoint)` of any one
 * endpoint, and loads what their attempts need (endpoints, events, secrets): four statements for
 * the whole batch, where each attempt used to make five of its own before sending.
 *
 * The claim goes endpoint by endpoint: a skip scan of the due index finds the endpoints that have
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
 * its original order. A delivery whose endpoint was disabled between the claim and the load is
 * let go at once (it waits for the endpoint).
 */
export async function claimBatch(deps: EngineDeps, options: { limit: number; perEndpoint: number; busy: ReadonlyMap<string, number> }): Promise<ClaimedDelivery[]> {
  const { db } = deps;
  const token = randomToken(16);
  const lease = `${leaseMs(deps.settings)} milliseconds`;
  const busy = JSON.stringify(Object.fromEntries(options.busy));
  const claimed = rowsOf<{ id: string; endpoint_id: string; event_id: string }>(
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
      update webhook_deliveries set lease_until = now() + ${lease}::interval, lease_token = ${token}
      where id in (select id from chosen)
      returning id, endpoint_id, event_id`),
  );
  if (!claimed.length) return [];
  // The rows as drizzle maps them (dates as Dates) and what their attempts need: four statements at once.
  const endpointIds = [...new Set(claimed.map((d) => d.endpoint_id))];
  const [deliveries, endpoints, eventRows, secrets] = await Promise.all([
    db.select().from(webhookDeliveries).where(sql`${webhookDeliveries.id} = ${anyOf(claimed.map((r) => r.id))}`) as Promise<Delivery[]>,
    db.select().from(webhookEndpoints).where(sql`${webhookEndpoints.id} = ${anyOf(endpointIds)}`),
    db.select().from(events).where(sql`${events.id} = ${anyOf([...new Set(claimed.map((d) => d.event_id))])}`),
    validSecretsOf(db, endpointIds),
  ]);
  const endpointById = new Map(endpoints.map((e) => [e.id, e]));
  const eventById = new Map(eventRows.map((e) => [e.id, e]));
  const out: ClaimedDelivery[] = [];
  const letGo: string[] = [];
  for (const delivery of deliveries.sort((a, b) => +a.nextAttemptAt! - +b.nextAttemptAt! || +a.eventCreatedAt - +b.eventCreatedAt || (a.id < b.id ? -1 : 1))) {
    const endpoint = endpointById.get(delivery.endpointId);
    const event = eventById.get(delivery.eventId);
    if (!endpoint || endpoint.status !== "enabled" || !event) {
      letGo.push(delivery.id);
      continue;
    }
    out.push({ delivery, token, endpoint, event, secrets: secrets.filter((s) => s.endpointId === endpoint.id) });
  }
  await releaseLeases(db, letGo.map((id) => ({ delivery: { id }, token })));
  return out;
}

/**
 * Records attempts that cannot open the circuit breaker (anything but 5xx, timeouts and network
 * errors) in ONE statement: each delivery moves on only while our lease holds (a delivery another
 * worker took over after our lease ran out keeps its record), and the attempt rows of those
 * that moved are inserted. Answers the ids of the deliveries recorded.
 *
 * The ids are given twice, the second time as an array: PostgreSQL counts the array's elements
 * and finds the rows by primary key, where the rows of `jsonb_to_recordset` it guesses at 100
 * and read the whole table to join them (1 ms a record at 3,000 deliveries, growing with it).
 */
export async function recordAttempts(deps: EngineDeps, list: FinishedAttempt[]): Promise<Set<string>> {
  if (!list.length) return new Set();
  const rows = list.map((f) => {
    const moved = movedDelivery(f);
    const attempt = attemptRow(f);
    return {
      id: f.claimed.delivery.id,
      token: f.claimed.token,
      status: moved.status,
      attempt_count: moved.attemptCount,
      next_attempt_at: moved.nextAttemptAt && isoTime(moved.nextAttemptAt),
      first_attempt_at: isoTime(moved.firstAttemptAt),
      updated_at: isoTime(moved.updatedAt),
      attempt_id: attempt.id,
      endpoint_id: attempt.endpointId,
      number: attempt.number,
      request_url: attempt.requestUrl,
      request_headers: attempt.requestHeaders,
      started_at: isoTime(attempt.startedAt),
      latency_ms: attempt.latencyMs,
      response_status: attempt.responseStatus,
      response_headers: attempt.responseHeaders,
      response_body: attempt.responseBody,
      error: attempt.error,
      outcome: attempt.outcome,
      server_error: attempt.serverError,
    };
  });
  const recorded = rowsOf<{ delivery_id: string }>(
    await deps.db.execute(sql`${planEachTime}
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v(
          id text, token text, status text, attempt_count int, next_attempt_at timestamptz, first_attempt_at timestamptz, updated_at timestamptz,
          attempt_id text, endpoint_id text, number int, request_url text, request_headers jsonb, started_at timestamptz, latency_ms int,
          response_status int, response_headers jsonb, response_body text, error text, outcome text, server_error boolean)
      ), moved as (
        update webhook_deliveries d
        set status = v.status, attempt_count = v.attempt_count, next_attempt_at = v.next_attempt_at, lease_until = null, lease_token = null,
            first_attempt_at = v.first_attempt_at, updated_at = v.updated_at
        from v where d.id = ${anyOf(list.map((f) => f.claimed.delivery.id))} and d.id = v.id and d.lease_token = v.token
        returning d.id
      )
      insert into webhook_attempts (id, delivery_id, endpoint_id, number, request_url, request_headers, started_at, latency_ms,
                                    response_status, response_headers, response_body, error, outcome, server_error)
      select v.attempt_id, v.id, v.endpoint_id, v.number, v.request_url, v.request_headers, v.started_at, v.latency_ms,
             v.response_status, v.response_headers, v.response_body, v.error, v.outcome, v.server_error
      from v join moved on moved.id = v.id
      returning delivery_id`),
  );
  return new Set(recorded.map((r) => r.delivery_id));
}
