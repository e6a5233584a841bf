import { eq, sql } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { mailOutbox, type GuestMailKind } from "@/db/schema";
import { insertRows } from "@/db/prepared";
import { randomToken } from "@/server/ids";

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
type OutboxRow = typeof mailOutbox.$inferSelect;

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
