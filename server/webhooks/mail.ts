import { and, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { mailOutbox, type GuestMailKind, type MailAttempt } from "@/db/schema";
import { randomToken } from "@/server/ids";
import { insertRows } from "@/server/prepared";
import { logger } from "@/server/observability/logger";
import { defaultMailRetrySchedule, type WebhookSettings } from "./settings";

const log = logger.child({ component: "mail" });

export type Mail = {
  accountId: string;
  to: string | null;
  subject: string;
  text: string;
  html?: string | null;
  /** Guest e-mails: their environment, kind, guest and reservation (null for the platform's own mail). */
  livemode?: boolean | null;
  kind?: GuestMailKind | null;
  guestId?: string | null;
  reservationId?: string | null;
  /** Kept and shown, never sent (a sandbox guest's mail). */
  hold?: boolean;
};
type MailSettings = Pick<WebhookSettings, "smtpUrl" | "mailFrom" | "mailRetrySchedule">;
type OutboxRow = typeof mailOutbox.$inferSelect;

/** How long a claimed mail is held by the process sending it before another may try. */
const claimSeconds = 120;

/**
 * Writes a mail into the outbox (inside the caller's transaction), due at once. The outbox is the
 * queue: `sendDueMail` sends it, and retries it on the mail schedule until it goes or gives up.
 */
export async function queueMail(tx: Executor, { hold, ...mail }: Mail): Promise<string> {
  const id = `mail_${randomToken(24)}`;
  // With no recipient there is no one to send it to (nor for a held mail): it is only kept, to be shown.
  const due = mail.to && !hold ? new Date() : null;
  const row: Record<string, unknown> = { id, ...mail, ...(due && { nextAttemptAt: due }) };
  // A statement built once per set of columns (a booking queues one); what is left undefined takes its default, as drizzle's insert leaves it out.
  for (const key of Object.keys(row)) if (row[key] === undefined) delete row[key];
  // A kept mail's null goes in the statement's text: a timestamp's encoder takes no null.
  await insertRows(tx, due ? "mail_insert" : "mail_insert_kept", mailOutbox, [row], due ? {} : { sqlValues: () => ({ nextAttemptAt: sql`null` }) });
  return id;
}

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

/** Where a mail stands. Kept: never meant to go (no recipient, a sandbox guest's mail); failed: tried and given up. */
export const mailStatus = (mail: Pick<OutboxRow, "sentAt" | "nextAttemptAt" | "attempts">) =>
  mail.sentAt ? ("sent" as const) : mail.nextAttemptAt ? ("pending" as const) : mail.attempts.length ? ("failed" as const) : ("kept" as const);

/** One outbox mail as the dashboard lists it: where it stands and every attempt made. */
export const presentMail = (mail: OutboxRow) => ({
  id: mail.id,
  to: mail.to,
  subject: mail.subject,
  text: mail.text,
  status: mailStatus(mail),
  sent_at: mail.sentAt?.toISOString() ?? null,
  next_attempt_at: mail.sentAt ? null : (mail.nextAttemptAt?.toISOString() ?? null),
  error: mail.error,
  attempts: mail.attempts,
  created_at: mail.createdAt.toISOString(),
});

/** An account's outbox, newest first, for the dashboard. */
export async function listOutboxMail({ db, accountId, limit = 50 }: { db: Db; accountId: string; limit?: number }) {
  const rows = await db.select().from(mailOutbox).where(eq(mailOutbox.accountId, accountId)).orderBy(sql`${mailOutbox.createdAt} desc, ${mailOutbox.id} desc`).limit(limit);
  return rows.map(presentMail);
}
