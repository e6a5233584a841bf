import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";
import { newId } from "@/server/ids";
import { latestApiVersion } from "@/server/http/versions";
import { seedSandbox } from "@/server/sandbox/seed-sandbox";
import type { Plan } from "@/server/plans";

export type CreateAccountInput = {
  name: string;
  plan?: Plan;
  developerContact?: string | null;
  limits?: { perSecond?: number; perMinute?: number; perDay?: number };
};

/** A new account, pinned to the newest API version, with its own copy of the sandbox hotel. */
export async function createAccount({ db, input }: { db: Db; input: CreateAccountInput }) {
  return db.transaction(async (tx) => {
    const [account] = await tx
      .insert(accounts)
      .values({
        id: newId("account"),
        name: input.name,
        plan: input.plan ?? "starter",
        developerContact: input.developerContact ?? null,
        ratePerSecond: input.limits?.perSecond ?? null,
        ratePerMinute: input.limits?.perMinute ?? null,
        ratePerDay: input.limits?.perDay ?? null,
        apiVersion: latestApiVersion,
      })
      .returning();
    await seedSandbox({ db: tx, accountId: account.id });
    return account;
  });
}
