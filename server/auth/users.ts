import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { users } from "@/db/schema";
import { newId } from "@/server/ids";
import type { StaffRole } from "@/lib/access";

export { staffRoles, type StaffRole } from "@/lib/access";

export type CreateUserInput = { accountId: string; email: string; password: string; role: StaffRole; name?: string | null };

export async function createUser({ db, input }: { db: Executor; input: CreateUserInput }) {
  if (input.password.length < 8) throw new Error("The password must have at least 8 characters.");
  const [row] = await db
    .insert(users)
    .values({
      id: newId("user"),
      accountId: input.accountId,
      email: input.email.trim().toLowerCase(),
      name: input.name ?? null,
      passwordHash: await bcrypt.hash(input.password, 12),
      role: input.role,
    })
    .returning();
  return { id: row.id, email: row.email, role: row.role, account_id: row.accountId };
}

/** The user for an e-mail and password, or null; the hash is compared even for unknown e-mails. */
export async function verifyUserPassword({ db, email, password }: { db: Executor; email: string; password: string }) {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  const ok = await bcrypt.compare(password, row?.passwordHash ?? "$2b$12$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva");
  return ok && row ? { id: row.id, email: row.email, role: row.role, accountId: row.accountId, name: row.name } : null;
}
