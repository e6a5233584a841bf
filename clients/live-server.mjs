#!/usr/bin/env node
/**
 * The production server on a throwaway PostgreSQL database, for the client libraries' live
 * suites (clients/live-tests.sh). `npm run build` must have run.
 *
 *   node clients/live-server.mjs <env-file>
 *
 * Creates `innkeep_clients_<random>` on the PostgreSQL server of LIVE_ADMIN_DATABASE_URL (default
 * postgres://postgres@127.0.0.1:5432/postgres), starts `dist/server.mjs` on it (it migrates and
 * seeds), makes the accounts and keys the suites need with the CLI, writes them to <env-file> as
 * `NAME=value` lines, and runs until SIGINT/SIGTERM; then it stops the server and drops the database.
 * The variables: INNKEEP_LIVE_URL; INNKEEP_LIVE_API_KEY (every scope, generous limits);
 * INNKEEP_LIVE_LIMITED_KEY (same account, `rooms:read` only); INNKEEP_LIVE_SLOW_KEY (another
 * account, one request per second).
 */
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import postgres from "postgres";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const envFile = process.argv[2];
if (!envFile) throw new Error("usage: node clients/live-server.mjs <env-file>");
const adminUrl = process.env.LIVE_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const name = `innkeep_clients_${randomBytes(5).toString("hex")}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString();
const scopes = "reservations:read reservations:write rooms:read rooms:write payments:read payments:write webhooks:manage reports:read";

async function admin(statement) {
  const sql = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end({ timeout: 2 });
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });

/** One CLI command against the database, answered as JSON. */
async function cli(...argv) {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/innkeep.ts", ...argv, "--json"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent", NODE_ENV: "production" },
  });
  return JSON.parse(stdout);
}

await admin(`create database "${name}"`);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["dist/server.mjs"], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: databaseUrl,
    ADMIN_PASSWORD: "live-clients-admin-password",
    NEXTAUTH_SECRET: "live-clients-only-secret-0123456789abcdef",
    WEBHOOK_SECRET_KEYS: "live:bGl2ZS1jbGllbnRzLXdlYmhvb2sta2V5LTAxMjM0NTY=",
    NEXTAUTH_URL: url,
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // The suites' webhook receivers listen on 127.0.0.1; a failed delivery is retried after 2 s.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
    WEBHOOK_RETRY_SCHEDULE: "2",
  },
});

let stopping = false;
async function stop(code) {
  if (stopping) return;
  stopping = true;
  server.kill("SIGTERM");
  await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once("exit", resolve)));
  await admin(`drop database if exists "${name}" with (force)`).catch((error) => console.error(`could not drop ${name}: ${error.message}`));
  process.exit(code);
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));
server.on("exit", (code) => {
  if (!stopping) {
    console.error(`the server exited (${code})`);
    stop(1);
  }
});

try {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) throw new Error("the server was not ready within 120 s");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const main = await cli("accounts", "create", "--name", "Client libraries", "--plan", "enterprise", "--per-minute", "100000", "--per-second", "2000", "--per-day", "10000000");
  const key = await cli("api-keys", "create", "--account", main.id, "--scopes", scopes, "--name", "live suite");
  const limited = await cli("api-keys", "create", "--account", main.id, "--scopes", "rooms:read", "--name", "live suite, rooms:read only");
  const slow = await cli("accounts", "create", "--name", "One a second", "--plan", "enterprise", "--per-minute", "1000", "--per-second", "1", "--per-day", "100000");
  const slowKey = await cli("api-keys", "create", "--account", slow.id, "--scopes", scopes, "--name", "live suite, slow");
  writeFileSync(
    envFile,
    [`INNKEEP_LIVE_URL=${url}`, `INNKEEP_LIVE_API_KEY=${key.key}`, `INNKEEP_LIVE_LIMITED_KEY=${limited.key}`, `INNKEEP_LIVE_SLOW_KEY=${slowKey.key}`, ""].join("\n"),
  );
  console.error(`live server at ${url} on database ${name}; variables in ${envFile}`);
} catch (error) {
  console.error(error);
  await stop(1);
}
