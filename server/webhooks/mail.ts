import { and, eq, inArray, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailOutbox, mailSettings, type MailAttempt } from "@/db/schema";
import { logger } from "@/server/observability/logger";
import { accountServer, getMailSettings, sendThrough, type MailServer } from "./mail-settings";
import { defaultMailRetrySchedule, type WebhookSettings } from "./settings";

const log = logger.child({ component: "mail" });

type MailSettings = Pick<WebhookSettings, "smtpUrl" | "mailFrom" | "mailRetrySchedule">;
type OutboxRow = typeof mailOutbox.$inferSelect;

/** How long a claimed mail is held by the process sending it before another may try. */
const claimSeconds = 120;

/**
 * Claims due outbox mail (FOR UPDATE SKIP LOCKED: two processes never take the same one) by
 * pushing its `next_attempt_at` out by the claim time, so a process that dies mid-send only
 * delays it. `id` limits the claim to one mail. Without SMTP_URL only the mail of accounts with a
 * mail server of their own is claimed; the rest stays held.
 */
async function claimDueMail(db: Db, limit: number, id: string | undefined, ownServersOnly: boolean): Promise<OutboxRow[]> {
  const due = and(
    isNull(mailOutbox.sentAt),
    isNotNull(mailOutbox.to),
    lte(mailOutbox.nextAttemptAt, sql`now()`),
    id ? eq(mailOutbox.id, id) : undefined,
    ownServersOnly ? inArray(mailOutbox.accountId, db.select({ accountId: mailSettings.accountId }).from(mailSettings)) : undefined,
  );
  return db.transaction(async (tx) => {
    const rows = await tx.select({ id: mailOutbox.id }).from(mailOutbox).where(due).orderBy(mailOutbox.nextAttemptAt).limit(limit).for("update", { skipLocked: true });
    if (!rows.length) return [];
    const claimed: OutboxRow[] = [];
    for (const row of rows) {
      const [updated] = await tx
        .update(mailOutbox)
        .set({ nextAttemptAt: sql`now() + ${`${claimSeconds} seconds`}::interval` })
        .where(eq(mailOutbox.id, row.id))
        .returning();
      claimed.push(updated);
    }
    return claimed;
  });
}

/** One SMTP attempt at a claimed mail, recorded with its outcome and, on failure, the next try or none. */
async function attemptMail(db: Db, mail: OutboxRow, settings: MailSettings, server: MailServer): Promise<boolean> {
  const schedule = settings.mailRetrySchedule ?? defaultMailRetrySchedule;
  const number = mail.attempts.length + 1;
  let error: string | null = null;
  try {
    await sendThrough(server, { to: mail.to!, subject: mail.subject, text: mail.text, html: mail.html ?? undefined });
  } catch (failure) {
    error = String((failure as Error).message ?? failure).slice(0, 500);
  }
  const attempts: MailAttempt[] = [...mail.attempts, { number, at: new Date().toISOString(), error }];
  if (!error) {
    await db.update(mailOutbox).set({ sentAt: new Date(), error: null, attempts, nextAttemptAt: null }).where(eq(mailOutbox.id, mail.id));
    return true;
  }
  const delay = schedule[number - 1];
  const nextAttemptAt = delay === undefined ? null : new Date(Date.now() + delay * 1000);
  log.warn({ mail_id: mail.id, attempt: number, err: error, next_attempt_at: nextAttemptAt }, nextAttemptAt ? "SMTP delivery failed; retrying later" : "SMTP delivery failed; giving up");
  await db.update(mailOutbox).set({ error, attempts, nextAttemptAt }).where(eq(mailOutbox.id, mail.id));
  return false;
}

/**
 * Sends the outbox mail that is due (or only mail `id`), each once; a failure is recorded and
 * retried on the mail schedule. Each account's mail goes through the mail server its owner set in
 * Settings, else through SMTP_URL; with neither the mail stays due, shown in the dashboard as
 * held, and goes out once one is set. Answers how many were sent.
 */
export async function sendDueMail(db: Db, settings: MailSettings, options: { id?: string; limit?: number } = {}): Promise<number> {
  const envServer: MailServer | null = settings.smtpUrl ? { transport: settings.smtpUrl, from: settings.mailFrom } : null;
  const servers = new Map<string, MailServer | null>();
  const serverOf = async (accountId: string) => {
    if (!servers.has(accountId)) {
      const own = await getMailSettings(db, accountId);
      servers.set(accountId, own ? accountServer(own) : envServer);
    }
    return servers.get(accountId)!;
  };
  let sent = 0;
  for (const mail of await claimDueMail(db, options.limit ?? 10, options.id, !envServer)) {
    const server = await serverOf(mail.accountId);
    if (server && (await attemptMail(db, mail, settings, server))) sent++;
  }
  return sent;
}
