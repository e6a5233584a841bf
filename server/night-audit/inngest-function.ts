import type { Db } from "@/db/client";
import { inngest } from "@/server/webhooks/inngest/client";
import { runDueAudits } from "./run-audit";

/** With Inngest configured, the night audit runs here: every minute, the properties whose audit hour has come. */
export function createRunNightAudits(db: () => Promise<Db>) {
  return inngest.createFunction({ id: "run-night-audits", name: "Run due night audits", triggers: [{ cron: "* * * * *" }] }, async ({ step }) =>
    step.run("run-due-night-audits", async () => runDueAudits(await db())),
  );
}
