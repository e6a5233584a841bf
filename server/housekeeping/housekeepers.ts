import { and, asc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";

/**
 * The account's staff with the housekeeping role, to assign rooms to. An assignment names its
 * housekeeper by e-mail (`assignee`), which is how a signed-in housekeeper finds their own.
 */
export async function listHousekeepers({ db, accountId }: { db: Executor; accountId: string }) {
  const rows = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.accountId, accountId), eq(users.role, "housekeeping")))
    .orderBy(asc(users.email));
  return rows.map((u) => ({ id: u.id, email: u.email, name: u.name }));
}
