import { count, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accounts } from "@/db/schema";
import { createApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { createUser } from "@/server/auth/users";
import { addDays, todayIn } from "@/lib/dates";
import { createHotel, demoHotel } from "@/server/sandbox/hotel";
import { seedRatePlans } from "@/server/sandbox/seed-sandbox";
import { createAccount } from "./create-account";

/** The password the seeded owner gets: ADMIN_PASSWORD, else the default outside production. */
export const defaultAdminPassword = "innkeep-admin";
export const seedPassword = (ctx: { production: boolean; adminPassword?: string }) => ctx.adminPassword ?? (ctx.production ? null : defaultAdminPassword);

export const demoAccountName = "Demo Hotels";
export const demoAdminEmail = "admin@example.com";

/** Arbitrary constant naming the seed's advisory lock. */
const seedLockId = 7_240_001;

export type SeedResult = {
  accountId: string;
  /** The owner's sign-in; null when no password was given (production without ADMIN_PASSWORD). */
  admin: { email: string; password: string } | null;
  /** The demo API key with every scope, shown once. */
  apiKey: string;
} | null;

/**
 * The first start's data (contract §0): Demo Hotels with a live and a sandbox property, the
 * owner admin@example.com (only when a password is given: production has no default one) and an
 * API key with every scope. Does nothing if any account exists. One transaction under an advisory
 * lock, so two servers starting together on one PostgreSQL seed once, and a failed seed leaves nothing.
 */
export async function seedDemo({ db, adminPassword }: { db: Db; adminPassword: string | null }): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${seedLockId})`);
    const [{ n }] = await tx.select({ n: count() }).from(accounts);
    if (Number(n) > 0) return null;
    const input = { name: demoAccountName, plan: "growth" as const, developerContact: "dev@example.com" };
    const account = await createAccount({ db: tx, input });
    const live = { accountId: account.id, livemode: true, propertyIds: null };
    const hotel = await createHotel(tx, live, demoHotel);
    // Sellable from the first minute: a year of BAR and NRF rates in euro cents.
    const today = todayIn(hotel.property.timezone);
    await seedRatePlans(tx, live, hotel, { DBL: 12000, TWN: 11000 }, today, addDays(today, 365));
    if (adminPassword !== null) {
      await createUser({ db: tx, input: { accountId: account.id, email: demoAdminEmail, password: adminPassword, role: "owner", name: "Admin" } });
    }
    const key = await createApiKey({ db: tx, input: { accountId: account.id, scopes: [...scopes], name: "Demo key (all scopes)" } });
    return { accountId: account.id, admin: adminPassword === null ? null : { email: demoAdminEmail, password: adminPassword }, apiKey: key.key };
  });
}
