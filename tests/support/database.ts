import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, type Database } from "@/db/client";
import { randomToken } from "@/server/ids";

export const onPostgres = process.env.TEST_DB === "postgres";
/** This worker's entry of a list with one per worker (tests/support/services.ts); VITEST_POOL_ID counts from 1. */
const ours = <T>(list: T[]): T => list[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % list.length];
/** The PostgreSQL server of this worker (tests/support/services.ts): TEST_DATABASE_URL's, or one of the run's own. */
export const testDatabaseUrl = (): string => (onPostgres ? ours(inject("testDatabaseUrls")) : "");
/**
 * The migrated database every file's own starts from: a template database, or a PGlite image
 * file. A project without the global setup that makes it (the unit tests) migrates its own.
 */
const template: string | undefined = onPostgres ? inject("testTemplateDatabase") : inject("pgliteImage");
/** This worker's Redis server, or null where none could be had (the setup said so, and CI fails instead). */
export const testRedisUrl = (): string | null => (onPostgres ? ours(inject("testRedisUrls")) : null);

/**
 * Where workers share a server (one named by TEST_DATABASE_URL that is not on this machine), one
 * file at a time uses it: a file's open transaction holds back the webhook fan-out in every
 * database of its server. The worker holds a session lock on the server while any database it
 * made is open; on a server of its own nobody else asks for it.
 */
let hold: Promise<{ sql: postgres.Sql; databases: number }> | undefined;
async function takeServer(): Promise<() => Promise<void>> {
  const held = await (hold ??= (async () => {
    const sql = postgres(testDatabaseUrl(), { max: 1, onnotice: () => {} });
    await sql`select pg_advisory_lock(${0x1_4e_4b})`;
    return { sql, databases: 0 };
  })());
  held.databases++;
  return async () => {
    if (--held.databases > 0) return;
    hold = undefined;
    await held.sql.end();
  };
}

/**
 * A fresh, migrated database for one test file: an in-memory PGlite, or a new database on the
 * PostgreSQL server that is dropped again on close. Both are copies of one the run's global setup
 * migrated (tests/support/pglite-image.ts, tests/support/services.ts); the migrations still run
 * on the copy and find nothing left to do.
 */
export async function testDatabase(options: { max?: number } = {}): Promise<Database & { url?: string }> {
  if (!onPostgres) return openDatabase({ dataDir: "memory://", ...(template ? { loadDataDir: new Blob([readFileSync(template)]) } : {}) });
  const name = `innkeep_test_${randomToken(10).toLowerCase()}`;
  const server = testDatabaseUrl();
  const leave = await takeServer();
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ""}`);
  } catch (error) {
    await admin.end();
    await leave();
    throw new Error(`Cannot create a test database on ${server} (is PostgreSQL running?): ${(error as Error).message}`);
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), max: options.max ?? 10 });
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
      await leave();
    },
  };
}
