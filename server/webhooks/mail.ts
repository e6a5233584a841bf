import { eq } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { mailOutbox } from "@/db/schema";
import { randomToken } from "@/server/ids";
import { logger } from "@/server/observability/logger";

const log = logger.child({ component: "mail" });

export type Mail = { accountId: string; to: string | null; subject: string; text: string };

/** Writes a mail into the outbox (inside the caller's transaction); `sendQueuedMail` sends it. */
export async function queueMail(tx: Executor, mail: Mail): Promise<string> {
  const id = `mail_${randomToken(24)}`;
  await tx.insert(mailOutbox).values({ id, ...mail });
  return id;
}

/**
 * Sends one outbox mail through SMTP_URL with nodemailer and marks it sent. Without SMTP, or
 * without a recipient, the mail simply stays in the outbox, where the dashboard shows it.
 */
export async function sendQueuedMail(db: Db, id: string, smtp: { smtpUrl?: string; mailFrom: string }): Promise<boolean> {
  if (!smtp.smtpUrl) return false;
  const [mail] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  if (!mail || mail.sentAt || !mail.to) return false;
  try {
    const { createTransport } = await import("nodemailer");
    const transport = createTransport(smtp.smtpUrl);
    await transport.sendMail({ from: smtp.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    transport.close();
    await db.update(mailOutbox).set({ sentAt: new Date(), error: null }).where(eq(mailOutbox.id, id));
    return true;
  } catch (error) {
    log.warn({ err: error, mail_id: id }, "SMTP delivery failed; the mail stays in the outbox");
    await db.update(mailOutbox).set({ error: String((error as Error).message).slice(0, 500) }).where(eq(mailOutbox.id, id));
    return false;
  }
}
