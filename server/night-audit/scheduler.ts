import type { Db } from "@/db/client";
import { logger } from "@/server/observability/logger";
import { runDueAudits } from "./run-audit";

/**
 * The embedded scheduler of the night audit (when Inngest is not configured): once a minute,
 * every property whose audit hour has come gets its audit. Several processes may run it; the
 * property's row lock makes each business day close once.
 */
export function startNightAuditScheduler({ db, everyMs = 60_000 }: { db: Db; everyMs?: number }): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = runDueAudits(db)
      .then((ran) => {
        if (ran.length) logger.info({ component: "night-audit", audits: ran }, "night audits ran");
      })
      .catch((err: unknown) => logger.error({ component: "night-audit", err }, "night audit failed"))
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  setTimeout(tick, 1_000).unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
