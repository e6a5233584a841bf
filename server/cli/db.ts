import { sql } from "drizzle-orm";
import { migrateDatabase, rowsOf, type Database } from "@/db/client";
import { seedDemo, seedPassword } from "@/server/accounts/seed-demo";
import { defineCommand } from "./command";

async function appliedMigrations(database: Database): Promise<number> {
  try {
    const result = await database.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    const rows = rowsOf<{ n: number }>(result);
    return Number(rows[0]?.n ?? 0);
  } catch {
    return 0; // Not migrated yet: the bookkeeping table does not exist.
  }
}

// db migrate: brings the schema up to date (the server also does this on every start).
export const dbMigrate = defineCommand({
  name: "db migrate",
  summary: "Apply pending database migrations.",
  usage: "db migrate",
  options: {},
  parse: () => ({}),
  async run({ database }) {
    const before = await appliedMigrations(database);
    await migrateDatabase(database);
    const after = await appliedMigrations(database);
    return { applied: after - before, total: after, database: database.kind };
  },
  print: (r) => (r.applied ? `Applied ${r.applied} migration(s); ${r.total} in all (${r.database}).` : `The schema is up to date: ${r.total} migration(s) applied (${r.database}).`),
});

// db seed: the first start's demo data, if the database has no account yet.
export const dbSeed = defineCommand({
  name: "db seed",
  summary: "Seed Demo Hotels, its hotels, the owner admin@example.com and an API key (only into an empty database).",
  usage: "db seed",
  options: {},
  parse: () => ({}),
  async run(ctx) {
    const result = await seedDemo({ db: ctx.database.db, adminPassword: seedPassword(ctx) });
    if (!result) return { seeded: false as const };
    // A password the operator chose is not echoed back; only the well-known default is.
    const admin = result.admin && { email: result.admin.email, password: ctx.adminPassword ? null : result.admin.password };
    return { seeded: true as const, account_id: result.accountId, api_key: result.apiKey, admin };
  },
  print: (r) => {
    if (!r.seeded) return "The database already has accounts; nothing was seeded.";
    return [
      `Seeded account ${r.account_id} (Demo Hotels).`,
      r.admin
        ? `Sign in as ${r.admin.email} with ${r.admin.password ? `password ${r.admin.password}` : "the password in ADMIN_PASSWORD"}.`
        : `No staff user was created (production without ADMIN_PASSWORD); create one with: npm run innkeep -- users create --email E --password P --role owner`,
      `Demo API key (all scopes, shown only now): ${r.api_key}`,
    ].join("\n");
  },
});
