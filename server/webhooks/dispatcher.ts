import { logger } from "@/server/observability/logger";
import { afterAttempt, makeAttempt, recordAttempt, type FinishedAttempt } from "./attempt-delivery";
import { advanceBackfills } from "./backfill";
import { recordAttempts } from "./batch";
import { claimDeliveries, releaseLeases, type ClaimedDelivery } from "./claim";
import { eventsWaiting, fanOutBatch, fanOutEvents, type FanOutState } from "./fan-out";
import { sendDueMail } from "./mail";
import { countWaitingIn } from "./metrics";
import { onDeliveriesQueued } from "./queue";
import type { EngineDeps } from "./settings";

const log = logger.child({ component: "webhook-dispatcher" });

export type Dispatcher = { stop(): Promise<void>; wake(): void };

export type DispatcherOptions = EngineDeps & {
  /** Attempts in flight at once, in all. */
  concurrency?: number;
  /** Attempts in flight at once to any one endpoint. */
  perEndpoint?: number;
  /** How often to look for work when idle: due retries, backfills, mail. */
  pollMs?: number;
  /** How often to ask whether new events are waiting for the fan-out (a cheap read). */
  peekMs?: number;
  /**
   * Who makes the attempts: this process (no Inngest), or Inngest, in which case this process
   * only fans out and advances backfills and hands each new delivery to `handOff`.
   */
  handOff?: (deliveryIds: string[], reason: string) => Promise<void>;
};

/** Attempts in flight at once from one process: in all, and to one endpoint (docs/webhooks.md). */
const defaultConcurrency = 64;
const defaultPerEndpoint = 16;
/** How long a delivery leased ahead may wait for a slot before it is let go and claimed afresh. */
const readyMs = 1_000;

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
 * Inngest) makes every due attempt with the same `makeAttempt` the Inngest function uses. All
 * state is in the database, so a process that dies loses nothing: its leased deliveries become
 * due again when their lease runs out.
 *
 * Two paces. The fan-out (and backfills, and mail) runs once per poll, at once when a delivery is
 * queued, and again at once while its batch comes back full; between polls a read that takes no
 * lock asks every `peekMs` whether new events wait, and only then does the fan-out run. Claims run whenever attempts may be
 * due and a slot is free: after a fan-out that made deliveries, after an attempt's exchange ends
 * (its slot is free), and once a poll (retries come due). Claims and records are
 * batched: a claim (server/webhooks/claim.ts, the one Inngest's attempts use too) leases a batch and loads it in four statements at once, and
 * the attempts that end while a record is being written are written together in one.
 */
export function startDispatcher(options: DispatcherOptions): Dispatcher {
  const concurrency = options.concurrency ?? defaultConcurrency;
  const perEndpoint = Math.min(options.perEndpoint ?? defaultPerEndpoint, concurrency);
  const pollMs = options.pollMs ?? 100;
  const peekMs = Math.min(options.peekMs ?? 20, pollMs);
  const busy = new Map<string, number>();
  let inFlight = 0;
  const settling = new Set<Promise<unknown>>();
  let running = true;
  let wakeUp: (() => void) | undefined;
  let woken = false;
  /** Set when due deliveries may be waiting that no claim has looked for yet. */
  let claimWanted = true;
  let fanOutWanted = true;
  let lastFanOut = 0;
  let lastPeek = 0;
  let mailCheckedAt = 0;
  const wake = () => {
    woken = true;
    wakeUp?.();
  };
  const unsubscribe = onDeliveriesQueued(() => {
    fanOutWanted = true;
    claimWanted = true;
    wake();
  });
  const stopCounting = countWaitingIn(options.db);
  const recorder = batchRecorder(options);
  /** How far this process's fan-out went ahead of the cursor: events committed beyond it go out at once. */
  const fanOutState: FanOutState = { ahead: null };

  const release = (endpointId: string) => {
    inFlight--;
    const n = (busy.get(endpointId) ?? 1) - 1;
    if (n > 0) busy.set(endpointId, n);
    else busy.delete(endpointId);
  };

  /** The fan-out; with `everything`, also backfills and mail (once a poll). */
  async function fanOut(everything: boolean): Promise<boolean> {
    lastPeek = Date.now();
    if (everything) lastFanOut = lastPeek;
    fanOutWanted = false;
    const fanned = await fanOutEvents(options.db, fanOutBatch, fanOutState);
    const backfilled = everything ? await advanceBackfills(options.db) : [];
    // Mail is rare and its schedule counts in minutes: a look once a second is plenty.
    if (everything && Date.now() - mailCheckedAt >= 1_000) {
      mailCheckedAt = Date.now();
      await sendDueMailSafely(options);
    }
    if (options.handOff) {
      const ids = [...fanned.deliveryIds, ...backfilled];
      if (ids.length) await options.handOff(ids, "queued");
    } else if (fanned.deliveryIds.length || backfilled.length) {
      claimWanted = true;
    }
    // Only a full batch says more events are waiting. Going round again after any event made the
    // loop spin under a steady flow of bookings: a fan-out transaction every few milliseconds,
    // which at 500 API requests a second took more of the process than the requests did.
    return fanned.events >= fanOutBatch;
  }

  /**
   * Leased deliveries waiting for a slot of their endpoint, oldest first. A claim leases up to
   * twice each endpoint's slots, so that when an exchange ends its slot starts the next attempt at
   * once, without waiting for a claim's round trips: with the claim on the way, a slot stood idle
   * about as long as an exchange to a nearby receiver took. The limits on attempts in flight are
   * unchanged; a lease only reserves the delivery, as it did between a claim and its send.
   */
  const ready = new Map<string, { claimed: ClaimedDelivery; at: number }[]>();
  let readyCount = 0;

  /**
   * Starts the ready deliveries that have a free slot, each endpoint's oldest first. One that
   * waited longer than `readyMs` (its endpoint answers slowly) is let go instead, and a claim takes
   * it afresh: a claim checks that the endpoint is still enabled, so one disabled meanwhile gets
   * nothing more than it would have without the lease ahead.
   */
  function pump() {
    if (!running) return;
    const stale: ClaimedDelivery[] = [];
    const now = Date.now();
    for (const [endpointId, queue] of ready) {
      while (queue.length && inFlight < concurrency && (busy.get(endpointId) ?? 0) < perEndpoint) {
        readyCount--;
        const { claimed, at } = queue.shift()!;
        if (now - at > readyMs) stale.push(claimed);
        else start(claimed);
      }
      if (!queue.length) ready.delete(endpointId);
    }
    if (stale.length) {
      claimWanted = true;
      void releaseLeases(options.db, stale)
        .catch((error) => log.warn({ err: error }, "letting go of ready deliveries failed; they are due again when their lease runs out"))
        .finally(wake);
    }
  }

  /** Lets go of an endpoint's ready deliveries (its breaker opened): another claim takes them when it is enabled again. */
  async function dropReady(endpointId: string) {
    const queue = ready.get(endpointId) ?? [];
    ready.delete(endpointId);
    readyCount -= queue.length;
    await releaseLeases(options.db, queue.map((r) => r.claimed));
  }

  function start(claimed: ClaimedDelivery) {
    inFlight++;
    busy.set(claimed.endpoint.id, (busy.get(claimed.endpoint.id) ?? 0) + 1);
    let released = false;
    // The slot is free once the exchange is over: the record keeps the lease until it is written.
    const free = () => {
      if (released) return;
      released = true;
      release(claimed.endpoint.id);
      pump();
      claimWanted = true;
      wake();
    };
    const work = attempt(claimed, free)
      .catch((error) => log.error({ err: error, delivery_id: claimed.delivery.id }, "attempt failed unexpectedly; the delivery is retried after its lease"))
      .finally(() => {
        settling.delete(work);
        free();
      });
    settling.add(work);
  }

  async function claim(): Promise<void> {
    const room = 2 * concurrency - inFlight - readyCount;
    if (room <= 0 || !running) return;
    claimWanted = false;
    // What each endpoint holds: its attempts in flight and its ready deliveries.
    const held = new Map(busy);
    for (const [endpointId, queue] of ready) held.set(endpointId, (held.get(endpointId) ?? 0) + queue.length);
    // A claim takes everything it may: each endpoint with pending deliveries gives up to its room.
    // So nothing is claimed again until something changes what it would find: a slot frees up, a
    // fan-out queues deliveries, or a poll comes (retries come due, leases run out). Claiming
    // again while any endpoint was busy made a claim every turn of the loop that found nothing.
    const { claimed: batch } = await claimDeliveries(options, { due: { limit: room, perEndpoint: 2 * perEndpoint, busy: held } });
    if (!running) {
      await releaseLeases(options.db, batch);
      return;
    }
    const at = Date.now();
    for (const claimed of batch) {
      const queue = ready.get(claimed.endpoint.id);
      if (queue) queue.push({ claimed, at });
      else ready.set(claimed.endpoint.id, [{ claimed, at }]);
      readyCount++;
    }
    pump();
  }

  /**
   * One attempt of a claimed delivery, recorded in a batch unless it weighs on the breaker (an
   * endpoint's failures are weighed one after the other, in their own transactions); `sent` is
   * called once the exchange is over.
   */
  async function attempt(claimed: ClaimedDelivery, sent: () => void): Promise<void> {
    const finished = await makeAttempt(options, claimed, claimed.delivery.attemptCount + 1);
    if (finished.outcome.serverError) {
      const recorded = await recordAttempt(options, finished);
      if (recorded?.mailId) await dropReady(claimed.endpoint.id);
      sent();
      if (recorded) await afterAttempt(options, finished, recorded.mailId);
      return;
    }
    sent();
    if (await recorder.record(finished)) await afterAttempt(options, finished, null);
  }

  const loop = (async () => {
    while (running) {
      woken = false;
      try {
        let again = false;
        if (fanOutWanted || Date.now() - lastFanOut >= pollMs) {
          again = await fanOut(true);
          fanOutWanted ||= again;
          // Retries come due with time, not with a new event: a poll looks for them.
          if (!options.handOff) claimWanted = true;
        } else if (Date.now() - lastPeek >= peekMs) {
          // Between polls, new events are looked for with a read that takes no lock.
          lastPeek = Date.now();
          if (await eventsWaiting(options.db, fanOutState)) {
            again = await fanOut(false);
            fanOutWanted ||= again;
          }
        }
        if (!options.handOff && claimWanted) await claim();
        if (again) continue;
      } catch (error) {
        if (!running) break;
        log.error({ err: error }, "dispatcher tick failed");
      }
      if (woken || !running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, Math.min(pollMs - (Date.now() - lastFanOut), peekMs - (Date.now() - lastPeek))));
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
      stopCounting();
      wakeUp?.();
      await loop;
      // Ready deliveries are let go at once, not left leased until their lease runs out.
      const waiting = [...ready.values()].flat().map((r) => r.claimed);
      ready.clear();
      readyCount = 0;
      await releaseLeases(options.db, waiting).catch((error) => log.warn({ err: error }, "letting go of ready deliveries failed; they are due again when their lease runs out"));
      await Promise.allSettled([...settling]);
      await recorder.drained();
    },
  };
}

/**
 * Writes finished attempts in batches: those that end while a batch is being written wait for
 * the next one, written as soon as it is done (no timer: under a trickle every attempt is
 * written alone, at once). `record` answers whether the attempt was recorded (false: our lease
 * had run out and another worker's record stands). If a batch's statement fails, its attempts are
 * recorded one by one, so one bad row does not leave the others leased until their lease runs out.
 */
function batchRecorder(deps: EngineDeps) {
  let waiting: { finished: FinishedAttempt; done: (recorded: boolean) => void; failed: (error: unknown) => void }[] = [];
  let writing: Promise<void> | null = null;
  const maxBatch = 500;

  async function writeAll() {
    while (waiting.length) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(maxBatch);
      try {
        const recorded = await recordAttempts(deps, batch.map((w) => w.finished));
        for (const w of batch) w.done(recorded.has(w.finished.claimed.delivery.id));
      } catch (error) {
        // One row the statement refused must not hold the others' leases: each on its own.
        log.warn({ err: error, attempts: batch.length }, "recording a batch of attempts failed; recording them one by one");
        for (const w of batch) await recordAttempt(deps, w.finished).then((r) => w.done(r !== null), w.failed);
      }
    }
    writing = null;
  }

  return {
    record(finished: FinishedAttempt): Promise<boolean> {
      return new Promise((done, failed) => {
        waiting.push({ finished, done, failed });
        writing ??= Promise.resolve().then(writeAll);
      });
    },
    async drained() {
      await writing;
    },
  };
}
