import { and, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { mailOutbox, type MailAttempt } from "@/db/schema";
import { logger } from "@/server/observability/logger";
import { defaultMailRetrySchedule, type WebhookSettings } from "./settings";

const log = logger.child({ component: "mail" });

type MailSettings = Pick<WebhookSettings, "smtpUrl" | "mailFrom" | "mailRetrySchedule">;
type OutboxRow = typeof mailOutbox.$inferSelect;

/** How long a claimed mail is held by the process sending it before another may try. */
const claimSeconds = 120;

/**
 * Claims due outbox mail (FOR UPDATE SKIP LOCKED: two processes never take the same one) by
 * pushing its `next_attempt_at` out by the claim time, so a process that dies mid-send only
 * delays it. `id` limits the claim to one mail.
 */
async function claimDueMail(db: Db, limit: number, id?: string): Promise<OutboxRow[]> {
  const due = and(isNull(mailOutbox.sentAt), isNotNull(mailOutbox.to), lte(mailOutbox.nextAttemptAt, sql`now()`), id ? eq(mailOutbox.id, id) : undefined);
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
async function attemptMail(db: Db, mail: OutboxRow, settings: MailSettings): Promise<boolean> {
  const schedule = settings.mailRetrySchedule ?? defaultMailRetrySchedule;
  const number = mail.attempts.length + 1;
  let error: string | null = null;
  try {
    const { createTransport } = await import("nodemailer");
    const transport = createTransport(settings.smtpUrl);
    try {
      await transport.sendMail({ from: settings.mailFrom, to: mail.to!, subject: mail.subject, text: mail.text, html: mail.html ?? undefined });
    } finally {
      transport.close();
    }
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
 * retried on the mail schedule. Without SMTP_URL nothing is sent: the mail stays due, shown in the
 * dashboard, and goes out once SMTP is configured. Answers how many were sent.
 */
export async function sendDueMail(db: Db, settings: MailSettings, options: { id?: string; limit?: number } = {}): Promise<number> {
  if (!settings.smtpUrl) return 0;
  let sent = 0;
  for (const mail of await claimDueMail(db, options.limit ?? 10, options.id)) if (await attemptMail(db, mail, settings)) sent++;
  return sent;
}
