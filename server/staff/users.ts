import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, users } from "@/db/schema";
import { createUser, type StaffRole } from "@/server/auth/users";
import { ApiError, notFound } from "@/server/errors";
import type { StaffInvite } from "./schemas";
import { presentStaffUser } from "./present";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import { unlockAccount } from "./sign-in";

type UserRow = typeof users.$inferSelect;

/** The account's staff, owners first, then by e-mail. */
export async function listStaffUsers({ db, accountId }: { db: Executor; accountId: string }) {
  return db
    .select()
    .from(users)
    .where(eq(users.accountId, accountId))
    .orderBy(sql`case ${users.role} when 'owner' then 0 when 'manager' then 1 when 'front_desk' then 2 else 3 end`, asc(users.email));
}

async function findStaffUser(db: Executor, accountId: string, id: string, lock = false) {
  const query = db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.accountId, accountId)));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("user", id);
  return row;
}

/**
 * The account's row is locked before owners are counted, so two owners demoting or removing each
 * other at once cannot both succeed and leave the account without one.
 */
async function assertKeepsAnOwner(tx: Executor, accountId: string, user: UserRow, param: string) {
  if (user.role !== "owner") return;
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for("update");
  const [{ n }] = await tx
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.role, "owner")));
  if (n <= 1) throw new ApiError("parameter_invalid", "The account must keep at least one owner: make someone else an owner first.", { param });
}

/** Invites a staff member: a user of the account with a role and an initial password to hand over. */
export async function inviteStaffUser({ db, tenant, actor, input }: ChangeCtx & { input: StaffInvite }) {
  const accountId = tenant.accountId;
  const email = input.email.toLowerCase();
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (taken) throw new ApiError("parameter_invalid", `A user with the e-mail ${email} already exists.`, { param: "email" });
  return inTransaction(db, async (tx) => {
    const created = await createUser({ db: tx, input: { accountId, email, password: input.password, role: input.role, name: input.name || null } });
    const user = await findStaffUser(tx, accountId, created.id);
    await audit(tx, { tenant, actor }, { action: "user.invited", objectType: "user", objectId: user.id, after: presentStaffUser(user) });
    return user;
  });
}

/** Gives a staff member another role; the last owner keeps theirs. Returns the user before and after. */
export async function changeStaffRole({ db, tenant, actor, id, role }: ChangeCtx & { id: string; role: StaffRole }) {
  const accountId = tenant.accountId;
  return inTransaction(db, async (tx) => {
    const before = await findStaffUser(tx, accountId, id, true);
    if (role !== "owner") await assertKeepsAnOwner(tx, accountId, before, "role");
    const [after] = await tx.update(users).set({ role }).where(eq(users.id, id)).returning();
    await audit(
      tx,
      { tenant, actor },
      { action: "user.role_changed", objectType: "user", objectId: id, before: presentStaffUser(before), after: presentStaffUser(after) },
    );
    return { before, after };
  });
}

/** Removes a staff member (their sessions end on their next request); the last owner stays. */
export async function removeStaffUser({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  const accountId = tenant.accountId;
  return inTransaction(db, async (tx) => {
    const user = await findStaffUser(tx, accountId, id, true);
    await assertKeepsAnOwner(tx, accountId, user, "id");
    await tx.delete(users).where(eq(users.id, id));
    await audit(tx, { tenant, actor }, { action: "user.removed", objectType: "user", objectId: id, before: presentStaffUser(user) });
    return user;
  });
}

/** Lifts the lock failed sign-ins put on a staff member of the account, on the trail when there was one to lift. */
export async function unlockStaffUser({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const user = await findStaffUser(tx, tenant.accountId, id);
    if (await unlockAccount(tx, user.email))
      await audit(tx, { tenant, actor }, { action: "user.sign_in_unlocked", objectType: "user", objectId: user.id });
    return user;
  });
}

/** The current account and role of a signed-in user, or null once they have been removed. */
export async function currentStaffUser({ db, id }: { db: Executor; id: string }) {
  const [row] = await db
    .select({ id: users.id, accountId: users.accountId, role: users.role, email: users.email, name: users.name })
    .from(users)
    .where(eq(users.id, id));
  return row ?? null;
}
