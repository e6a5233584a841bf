// The browser suite's PostgreSQL database (E2E_DB=postgres): a throwaway one per run, made before
// the server starts and dropped after the run. Plain ESM so that the Playwright config (at load)
// and its global teardown share it; run as a script it creates or drops by its arguments.
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

export const adminUrl = () => process.env.E2E_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Creates `innkeep_e2e_<random>` on the admin server and returns its URL (synchronously, for the config). */
export function createThrowawayDatabase() {
  const name = `innkeep_e2e_${randomBytes(5).toString("hex")}`;
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), "create", name], { stdio: ["ignore", "inherit", "inherit"] });
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the run's database, even while a server still holds connections to it. */
export async function dropDatabase(databaseUrl) {
  const name = new URL(databaseUrl).pathname.slice(1);
  if (!/^innkeep_e2e_[0-9a-f]+$/.test(name)) throw new Error(`refusing to drop '${name}': not a browser-suite database`);
  const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${name}" with (force)`);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === "create") {
  const name = process.argv[3];
  if (!/^innkeep_e2e_[0-9a-f]+$/.test(name ?? "")) throw new Error(`not a browser-suite database name: ${name}`);
  const sql = postgres(adminUrl(), { max: 1, onnotice: () => {} });
  await sql.unsafe(`create database "${name}"`);
  await sql.end({ timeout: 2 });
}
