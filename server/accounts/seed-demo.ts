import { count } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";
import { createApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { createUser } from "@/server/auth/users";
import { createHotel, demoHotel } from "@/server/sandbox/hotel";
import { createAccount } from "./create-account";

export type SeedResult = { accountId: string; email: string; password: string; apiKey: string } | null;

/**
 * The first start's data (contract §0): Demo Hotels with a live and a sandbox property, the
 * owner admin@example.com and an API key with every scope. Does nothing if any account exists.
 */
export async function seedDemo({ db, adminPassword }: { db: Db; adminPassword: string }): Promise<SeedResult> {
  const [{ n }] = await db.select({ n: count() }).from(accounts);
  if (Number(n) > 0) return null;
  const account = await createAccount({ db, input: { name: "Demo Hotels", plan: "growth", developerContact: "dev@example.com" } });
  await createHotel(db, { accountId: account.id, livemode: true, propertyIds: null }, demoHotel);
  await createUser({ db, input: { accountId: account.id, email: "admin@example.com", password: adminPassword, role: "owner", name: "Admin" } });
  const key = await createApiKey({ db, input: { accountId: account.id, scopes: [...scopes], name: "Demo key (all scopes)" } });
  return { accountId: account.id, email: "admin@example.com", password: adminPassword, apiKey: key.key };
}
