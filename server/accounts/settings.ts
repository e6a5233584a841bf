import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts } from "@/db/schema";
import { ApiError } from "@/server/errors";
import type { Plan } from "@/server/plans";
import type { AccountSettingsUpdate } from "./schemas";
import { presentAccount } from "./present";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";

/** The signed-in staff member's account. */
export async function getAccount({ db, accountId }: { db: Executor; accountId: string }) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new ApiError("resource_missing", `No such account: '${accountId}'`);
  return account;
}

/** Sets the developer contact (circuit-breaker notices go there). */
export async function updateAccountSettings({ db, tenant, actor, input }: ChangeCtx & { input: AccountSettingsUpdate }) {
  return changeAccount({ db, tenant, actor }, "account.updated", {
    developerContact: input.developer_contact ? input.developer_contact.toLowerCase() : null,
  });
}

/** Changes the account's row (locked), on the trail with the account before and after; a change of nothing is no entry. */
function changeAccount({ db, tenant, actor }: ChangeCtx, action: string, values: Partial<typeof accounts.$inferInsert>) {
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select().from(accounts).where(eq(accounts.id, tenant.accountId)).for("update");
    if (!before) throw new ApiError("resource_missing", `No such account: '${tenant.accountId}'`);
    const [row] = await tx.update(accounts).set(values).where(eq(accounts.id, before.id)).returning();
    await audit(
      tx,
      { tenant, actor },
      { action, objectType: "account", objectId: row.id, before: presentAccount(before), after: presentAccount(row) },
    );
    return row;
  });
}

/**
 * Moves the account to another plan. Custom limits stay as they are: they were set for this
 * account on purpose, and a plan change should not silently undo them.
 */
export async function changePlan({ plan, ...ctx }: ChangeCtx & { plan: Plan }) {
  return changeAccount(ctx, "account.plan_changed", { plan });
}
