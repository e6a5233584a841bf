import type { Db } from "@/db/client";
import { logger } from "@/server/observability/logger";
import { sweepAllAbandoned } from "./guest";

/**
 * The booking engine's timed sweep: once a minute, every guest's form left past its hold's time
 * gives its room back, at every property (before, only the next search or choice at that property
 * did). Run, as the charge reconciler is, by the process that dispatches webhooks
 * (server/process/start.ts); several processes may run it, as each session is taken under a row
 * lock that skips one another process holds.
 */
export function startHoldSweeper({ db, everyMs = 60_000, now = () => new Date() }: { db: Db; everyMs?: number; now?: () => Date }): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = sweepAllAbandoned(db, now())
      .then((released) => {
        if (released) logger.info({ component: "booking-engine", released }, "abandoned booking holds given back");
      })
      .catch((err: unknown) => logger.error({ component: "booking-engine", err }, "sweeping abandoned booking holds failed"))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
