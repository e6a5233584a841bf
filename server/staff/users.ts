import { and, asc, eq, sql } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { accounts, users } from "@/db/schema";
import { createUser, type StaffRole } from "@/server/auth/users";
import { ApiError, notFound } from "@/server/errors";
import type { StaffInvite } from "@/server/accounts/schemas";

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
  const query = db.select().from(users).where(and(eq(users.id, id), eq(users.accountId, accountId)));
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
export async function inviteStaffUser({ db, accountId, input }: { db: Executor; accountId: string; input: StaffInvite }) {
  const email = input.email.toLowerCase();
  const [taken] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (taken) throw new ApiError("parameter_invalid", `A user with the e-mail ${email} already exists.`, { param: "email" });
  const created = await createUser({ db, input: { accountId, email, password: input.password, role: input.role, name: input.name || null } });
  return findStaffUser(db, accountId, created.id);
}

/** Gives a staff member another role; the last owner keeps theirs. Returns the user before and after. */
export async function changeStaffRole({ db, accountId, id, role }: { db: Db; accountId: string; id: string; role: StaffRole }) {
  return db.transaction(async (tx) => {
    const before = await findStaffUser(tx, accountId, id, true);
    if (role !== "owner") await assertKeepsAnOwner(tx, accountId, before, "role");
    const [after] = await tx.update(users).set({ role }).where(eq(users.id, id)).returning();
    return { before, after };
  });
}

/** Removes a staff member (their sessions end on their next request); the last owner stays. */
export async function removeStaffUser({ db, accountId, id }: { db: Db; accountId: string; id: string }) {
  return db.transaction(async (tx) => {
    const user = await findStaffUser(tx, accountId, id, true);
    await assertKeepsAnOwner(tx, accountId, user, "id");
    await tx.delete(users).where(eq(users.id, id));
    return user;
  });
}

/** The current account and role of a signed-in user, or null once they have been removed. */
export async function currentStaffUser({ db, id }: { db: Executor; id: string }) {
  const [row] = await db.select({ id: users.id, accountId: users.accountId, role: users.role, email: users.email, name: users.name }).from(users).where(eq(users.id, id));
  return row ?? null;
}
