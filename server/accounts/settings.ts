import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts } from "@/db/schema";
import { ApiError } from "@/server/errors";
import type { Plan } from "./plans";
import type { AccountSettingsUpdate } from "./schemas";

/** The signed-in staff member's account. */
export async function getAccount({ db, accountId }: { db: Executor; accountId: string }) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new ApiError("resource_missing", `No such account: '${accountId}'`);
  return account;
}

/** Sets the developer contact (circuit-breaker notices go there). */
export async function updateAccountSettings({ db, accountId, input }: { db: Executor; accountId: string; input: AccountSettingsUpdate }) {
  await getAccount({ db, accountId });
  const [row] = await db
    .update(accounts)
    .set({ developerContact: input.developer_contact ? input.developer_contact.toLowerCase() : null })
    .where(eq(accounts.id, accountId))
    .returning();
  return row;
}

/**
 * Moves the account to another plan. Custom limits stay as they are: they were set for this
 * account on purpose, and a plan change should not silently undo them.
 */
export async function changePlan({ db, accountId, plan }: { db: Executor; accountId: string; plan: Plan }) {
  await getAccount({ db, accountId });
  const [row] = await db.update(accounts).set({ plan }).where(eq(accounts.id, accountId)).returning();
  return row;
}
