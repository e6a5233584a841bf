import { sql } from "drizzle-orm";
import { planEachTime, rowsOf } from "@/db/client";
import { isoTime } from "@/lib/dates";
import { attemptRow, movedDelivery, type FinishedAttempt } from "./attempt-delivery";
import { anyOf } from "./claim";
import type { EngineDeps } from "./settings";


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
