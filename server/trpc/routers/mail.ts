import { z } from "zod";
import { access } from "@/lib/access";
import { listOutboxMail } from "@/server/events/mail-outbox";
import { countWaitingMail } from "@/server/webhook-endpoints/outbox";
import { webhookSettings } from "@/server/webhooks/settings";
import { getMailSettings, mailServerSet, mailSettingsInput, presentMailSettings, removeMailSettings, saveMailSettings, sendTestMail } from "@/server/webhooks/mail-settings";
import { roles, router, staffProcedure } from "../init";

const ownerProcedure = staffProcedure.use(roles(...access.mailServer));

export const mailRouter = router({
  /** The account's mail outbox (circuit-breaker notices), newest first, each with its SMTP attempts. */
  list: staffProcedure
    .use(roles(...access.developers))
    .input(z.strictObject({ limit: z.number().int().min(1).max(100).default(50) }).default({ limit: 50 }))
    .query(({ ctx, input }) => listOutboxMail({ db: ctx.db, accountId: ctx.tenant.accountId, limit: input.limit })),
  /** Whether mail can go at all (a mail server is configured), and how many mails wait for one: the banners' facts. */
  status: staffProcedure
    .use(roles(...access.settings))
    .query(async ({ ctx }) => ({
      mail_server: await mailServerSet(ctx.db, ctx.tenant.accountId, webhookSettings().smtpUrl),
      waiting: await countWaitingMail({ db: ctx.db, tenant: ctx.tenant }),
    })),
  /** The account's own mail server as saved (never its password), and whether the process has SMTP_URL to fall back on. */
  settings: ownerProcedure.query(async ({ ctx }) => {
    const row = await getMailSettings(ctx.db, ctx.tenant.accountId);
    return { settings: row ? presentMailSettings(row) : null, process_server: Boolean(webhookSettings().smtpUrl) };
  }),
  saveSettings: ownerProcedure
    .input(mailSettingsInput)
    .mutation(async ({ ctx, input }) => presentMailSettings(await saveMailSettings({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor, input }))),
  removeSettings: ownerProcedure.mutation(async ({ ctx }) => ({ removed: await removeMailSettings({ db: ctx.db, tenant: ctx.tenant, actor: ctx.actor }) })),
  /** "Send test e-mail": through the saved server at once; answers sent, or the server's refusal in words. */
  sendTest: ownerProcedure
    .input(z.strictObject({ to: z.string().trim().toLowerCase().email("Give an e-mail address to send the test to.").max(320) }))
    .mutation(({ ctx, input }) => sendTestMail({ db: ctx.db, tenant: ctx.tenant, to: input.to })),
});
