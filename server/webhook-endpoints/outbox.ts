import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { mailOutbox } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { queueMail, mailStatus } from "@/server/events/mail-outbox";
import { keyset, toPage, type PageRequest } from "@/server/pagination";
import type { Ctx } from "@/server/tenancy";

/** The account's mail outbox, newest first: guest e-mails and the platform's notices, sent or held. */
export async function listOutbox({ db, tenant, page }: Ctx & { page: PageRequest }) {
  const q = keyset(mailOutbox, page);
  const rows = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.accountId, tenant.accountId), q.where))
    .orderBy(...q.orderBy)
    .limit(q.limit);
  return toPage(rows, page);
}

export type OutboxMail = typeof mailOutbox.$inferSelect;

/**
 * Why a mail has not gone, or that it went, for staff: `sent`; `queued` (due, a mail server will
 * take it); `held` (due, but no mail server is configured, so nothing can go); `retrying` (an
 * attempt failed, another is due); `failed` (given up); `no_address` (nobody to send it to: no
 * developer contact set, or the guest's address erased); `sandbox` (a sandbox guest's mail, kept).
 */
export function outboxState(mail: OutboxMail, mailServer: boolean) {
  const status = mailStatus(mail);
  if (status === "sent") return "sent" as const;
  if (status === "failed") return "failed" as const;
  if (status === "pending") return !mailServer ? ("held" as const) : mail.attempts.length ? ("retrying" as const) : ("queued" as const);
  if (mail.livemode === false) return "sandbox" as const;
  return "no_address" as const;
}

/** Mail that waits for a mail server: due, never sent (what a banner counts when none is configured). */
export async function countWaitingMail({ db, tenant }: Ctx) {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.accountId, tenant.accountId), isNull(mailOutbox.sentAt), isNotNull(mailOutbox.nextAttemptAt)));
  return row?.n ?? 0;
}

/**
 * Sends a mail of the outbox again: a new mail with the same recipient and content, queued at once
 * (the first keeps its own record). A mail with nobody to send it to cannot be sent again (409),
 * and a sandbox guest's mail is kept again, never sent.
 */
export async function resendMail({ db, tenant, id }: Ctx & { id: string }) {
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.accountId, tenant.accountId)));
  if (!mail) throw new ApiError("resource_missing", "No such mail.", { param: "id" });
  if (!mail.to) throw new ApiError("invalid_state_transition", "This mail has no recipient: there is no one to send it to.");
  const copy = await queueMail(db, {
    accountId: mail.accountId,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    livemode: mail.livemode,
    kind: mail.kind,
    guestId: mail.guestId,
    reservationId: mail.reservationId,
    hold: mail.livemode === false,
  });
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, copy));
  return row;
}
