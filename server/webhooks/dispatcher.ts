import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/client";
import { randomToken } from "@/server/ids";
import { logger } from "@/server/observability/logger";
import { attemptDelivery, leaseMs, type EngineDeps } from "./attempt-delivery";
import { advanceBackfills } from "./backfill";
import { fanOutBatch, fanOutEvents } from "./fan-out";
import { sendDueMail } from "./mail";
import { countWaitingIn } from "./metrics";
import { onDeliveriesQueued } from "./queue";

const log = logger.child({ component: "webhook-dispatcher" });

export type Dispatcher = { stop(): Promise<void>; wake(): void };

export type DispatcherOptions = EngineDeps & {
  /** Attempts in flight at once. */
  concurrency?: number;
  /** How often to look for work when idle. */
  pollMs?: number;
  /**
   * Who makes the attempts: this process (no Inngest), or Inngest, in which case this process
   * only fans out and advances backfills and hands each new delivery to `handOff`.
   */
  handOff?: (deliveryIds: string[], reason: string) => Promise<void>;
};

/**
 * Leases up to `limit` due deliveries of enabled endpoints (FOR UPDATE SKIP LOCKED: two
 * processes never take the same row). A backfill's deliveries wait until every earlier one
 * of the same backfill has had its first attempt, so a backfill arrives in its original order.
 */
export async function claimDueDeliveries(deps: EngineDeps, limit: number): Promise<{ ids: string[]; token: string }> {
  const token = randomToken(16);
  const lease = `${leaseMs(deps.settings)} milliseconds`;
  const rows = await deps.db.execute<{ id: string }>(sql`
    update webhook_deliveries set lease_until = now() + ${lease}::interval, lease_token = ${token}
    where id in (
      select d.id from webhook_deliveries d
      join webhook_endpoints e on e.id = d.endpoint_id
      where d.status in ('queued', 'retry_scheduled')
        and d.next_attempt_at <= now()
        and (d.lease_until is null or d.lease_until < now())
        and e.status = 'enabled'
        and (d.backfill_id is null or not exists (
          select 1 from webhook_deliveries p
          where p.backfill_id = d.backfill_id and p.backfill_seq < d.backfill_seq and p.status = 'queued' and p.attempt_count = 0
        ))
      order by d.next_attempt_at, d.event_created_at, d.id
      limit ${limit}
      for update of d skip locked
    )
    returning id`);
  const list = rowsOf<{ id: string }>(rows);
  return { ids: list.map((r) => r.id), token };
}

/** Outbox mail due for a (re)try; an SMTP or database fault must not stop the deliveries. */
async function sendDueMailSafely(deps: EngineDeps) {
  try {
    await sendDueMail(deps.db, deps.settings);
  } catch (error) {
    log.error({ err: error }, "sending due mail failed");
  }
}

/**
 * The in-process engine: fans new events out into deliveries, advances backfills, and (without
 * Inngest) makes every due attempt through the same `attemptDelivery` the Inngest function
 * uses. All state is in the database, so a process that dies loses nothing: its leased
 * deliveries become due again when their lease runs out.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 100;
  const inFlight = new Set<Promise<unknown>>();
  let running = true;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  let mailCheckedAt = 0;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const unsubscribe = onDeliveriesQueued(() => wake());
  countWaitingIn(options.db);

  async function tick(): Promise<boolean> {
    let busy = false;
    const fanned = await fanOutEvents(options.db);
    const backfilled = await advanceBackfills(options.db);
    // Mail is rare and its schedule counts in minutes: a look once a second is plenty.
    if (Date.now() - mailCheckedAt >= 1_000) {
      mailCheckedAt = Date.now();
      await sendDueMailSafely(options);
    }
    // Only a full batch says more events are waiting. Going round again after any event made the
    // loop spin under a steady flow of bookings: a fan-out transaction every few milliseconds,
    // which at 500 API requests a second took more of the process than the requests did. A
    // partial batch drained the backlog; the next poll (or a queued delivery) wakes the loop.
    const backlog = fanned.events >= fanOutBatch;
    if (options.handOff) {
      const ids = [...fanned.deliveryIds, ...backfilled];
      if (ids.length) await options.handOff(ids, "queued");
      return backlog;
    }
    busy = backlog;
    const free = concurrency - inFlight.size;
    if (free > 0) {
      const { ids, token } = await claimDueDeliveries(options, free);
      for (const id of ids) {
        const work = attemptDelivery(options, { deliveryId: id, leaseToken: token })
          .catch((error) => log.error({ err: error, delivery_id: id }, "attempt failed unexpectedly; the delivery is retried after its lease"))
          .finally(() => {
            inFlight.delete(work);
            wake();
          });
        inFlight.add(work);
      }
      busy ||= ids.length === free;
    }
    return busy;
  }

  const loop = (async () => {
    while (running) {
      woken = false;
      try {
        if (await tick()) continue;
      } catch (error) {
        if (!running) break;
        log.error({ err: error }, "dispatcher tick failed");
      }
      if (woken || !running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  })();

  return {
    wake,
    async stop() {
      running = false;
      unsubscribe();
      wakeUp?.();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}
