import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { randomToken } from "@/server/ids";

export const onPostgres = process.env.TEST_DB === "postgres";
/** The PostgreSQL server of this run (tests/support/services.ts): TEST_DATABASE_URL's, or the run's own. */
export const testDatabaseUrl = onPostgres ? inject("testDatabaseUrl") : "";
/**
 * The migrated database every file's own starts from: a template database, or a PGlite image
 * file. A project without the global setup that makes it (the unit tests) migrates its own.
 */
const template: string | undefined = onPostgres ? inject("testTemplateDatabase") : inject("pgliteImage");
/** A Redis server of this run, or null where none could be had (the setup said so, and CI fails instead). */
export const testRedisUrl = onPostgres ? inject("testRedisUrl") : null;

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL server that is dropped again on close. Both are copies of one the run's global setup
 * migrated (tests/support/pglite-image.ts, tests/support/services.ts); the migrations still run
 * on the copy and find nothing left to do.
 */
export async function testDatabase(options: { max?: number } = {}): Promise<Database & { url?: string }> {
  if (!onPostgres) return openDatabase({ dataDir: "memory://", ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}) });
  const name = `innkeep_test_${randomToken(10).toLowerCase()}`;
  const admin = postgres(testDatabaseUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
  } catch (error) {
    await admin.end();
    throw new Error(`Cannot create a test database on ${testDatabaseUrl} (is PostgreSQL running?): ${(error as Error).message}`);
  }
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: options.max ?? 10 });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
