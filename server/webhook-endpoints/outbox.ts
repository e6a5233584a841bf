import { and, eq } from "drizzle-orm";
import { mailOutbox } from "@/db/schema";
import { keyset, toPage, type PageRequest } from "@/server/pagination";
import type { Ctx } from "@/server/tenancy";

/**
 * The account's mail outbox, newest first (breaker notices, sent or held). Every column is read,
 * so columns added to the table later (retry attempts, say) reach the dashboard without a change here.
 */
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
