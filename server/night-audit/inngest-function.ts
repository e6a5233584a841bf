import type { Db } from "@/db/client";
import { inngest } from "@/server/jobs/inngest-client";
import { runDueAudits } from "./run-audit";

/**
 * With Inngest configured, the night audit runs here: every minute, the properties whose audit hour
 * has come, through the same `runDueAudits` as the embedded scheduler (so each business date is
 * closed once, under the property's row lock). `now` is the clock, a test's to set.
 */
export function createRunNightAudits(db: () => Promise<Db>, now: () => Date = () => new Date()) {
  return inngest.createFunction({ id: "run-night-audits", name: "Run due night audits", triggers: [{ cron: "* * * * *" }] }, async ({ step }) =>
    step.run("run-due-night-audits", async () => runDueAudits(await db(), now())),
  );
}
