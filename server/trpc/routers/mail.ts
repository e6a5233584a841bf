import { z } from "zod";
import { access } from "@/lib/access";
import { listOutboxMail } from "@/server/events/mail-outbox";
import { countWaitingMail } from "@/server/webhook-endpoints/outbox";
import { webhookSettings } from "@/server/webhooks/settings";
import { roles, router, staffProcedure } from "../init";

export const mailRouter = router({
  /** The account's mail outbox (circuit-breaker notices), newest first, each with its SMTP attempts. */
  list: staffProcedure
    .use(roles(...access.developers))
    .input(z.strictObject({ limit: z.number().int().min(1).max(100).default(50) }).default({ limit: 50 }))
    .query(({ ctx, input }) => listOutboxMail({ db: ctx.db, accountId: ctx.tenant.accountId, limit: input.limit })),
  /** Whether mail can go at all (a mail server is configured), and how many mails wait for one: the banners' facts. */
  status: staffProcedure
    .use(roles(...access.settings))
    .query(async ({ ctx }) => ({ mail_server: Boolean(webhookSettings().smtpUrl), waiting: await countWaitingMail({ db: ctx.db, tenant: ctx.tenant }) })),
});
