import { mkdirSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";

/** Both drivers share drizzle's PostgreSQL surface; code is written against this one type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/**
 * Anything a query can run on: the database or an open transaction. A function handed a
 * transaction says so with this type (drizzle's transaction is also a `Db` to TypeScript, and
 * `inTransaction` opens a savepoint when given one), never with a cast.
 */
export type Executor = Db | Tx;

export type Database = {
  db: Db;
  kind: "pglite" | "postgres";
  /**
   * Calls `onMessage` for every NOTIFY on `channel` from any process on the server (PostgreSQL;
   * postgres.js keeps one connection for it and reconnects). The embedded database has one process.
   */
  listen?(channel: string, onMessage: () => void): Promise<void>;
  close(): Promise<void>;
};

const migrationsFolder = path.join(process.cwd(), "db", "migrations");

export type OpenOptions = {
  /** postgres://… to use a server; absent for the embedded database. */
  url?: string;
  /** Folder of the embedded database, or "memory://" for a throwaway one. */
  dataDir?: string;
  /** An image of an embedded database (PGlite's `dumpDataDir`) to start from, instead of an empty one. */
  loadDataDir?: Blob;
  migrate?: boolean;
  /** Connections in the postgres.js pool. */
  max?: number;
  /** Called with each statement's text just before postgres.js sends it (tests count and interrupt them). */
  onStatement?: (text: string) => void;
};

/** Opens a database and brings its schema up to date. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  const database = options.url ? await openPostgres(options.url, options.max, options.onStatement) : await openPglite(options.dataDir ?? ".data/pglite", options.loadDataDir);
  if (options.migrate !== false) await migrateDatabase(database);
  return database;
}

async function openPostgres(url: string, max = 10, onStatement?: (text: string) => void): Promise<Database> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  // JIT compilation costs tens of milliseconds and our statements run in one or two: measured
  // on the inventory upsert, 85 ms with JIT against 1.8 ms without (docs/benchmarks.md).
  const debug = onStatement && ((_connection: number, text: string) => onStatement(text));
  const client = postgres(url, { max, onnotice: () => {}, connection: { jit: "off" }, ...(debug ? { debug } : {}) });
  const db = drizzle(preparing(client), { schema }) as unknown as Db;
  return {
    db,
    kind: "postgres",
    listen: async (channel, onMessage) => void (await client.listen(channel, () => onMessage())),
    close: () => client.end({ timeout: 5 }),
  };
}

type PostgresClient = import("postgres").Sql;

/** Rows of a raw `db.execute(sql…)`: postgres.js answers an array, PGlite an object holding them. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

const planEachTimeMark = "/* plan each time */";

/**
 * Put first in a statement whose best plan depends on how many rows its tables hold right now
 * (the webhook queue's claim and record): it is sent unnamed, so PostgreSQL plans it for its
 * parameters and the table as it is at each call. A prepared statement settles on a generic
 * plan after five calls; the queue's, made while its table was nearly empty (a new database, a
 * quiet night), read the whole table once it held a burst's thousands of rows: 7 ms a claim.
 */
export const planEachTime = sql.raw(`${planEachTimeMark}\n`);

/**
 * drizzle sends its statements unnamed, which costs postgres.js a second round trip per query
 * (describe, then execute). Asking it to prepare every statement that has parameters lets each
 * connection reuse the plan and answer in one trip; migrations (no parameters) and statements
 * marked `planEachTime` are untouched.
 * Transactions get their own connection-bound client, so `begin` and `savepoint` pass it on.
 */
function preparing<T extends PostgresClient>(client: T): T {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === "unsafe") {
        return (query: string, params?: unknown[], options?: { prepare?: boolean }) =>
          target.unsafe(query, params as never, params?.length && !query.startsWith(planEachTimeMark) ? { ...options, prepare: true } : options);
      }
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => {
          const callback = args[args.length - 1] as (tx: PostgresClient) => unknown;
          return (value as (...a: unknown[]) => unknown).apply(target, [...args.slice(0, -1), (tx: PostgresClient) => callback(preparing(tx))]);
        };
      }
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function openPglite(dataDir: string, loadDataDir?: Blob): Promise<Database> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  // The contrib extensions the migrations create (search: db/migrations/0012_find_anyone.sql).
  const [{ pg_trgm }, { unaccent }] = await Promise.all([import("@electric-sql/pglite/contrib/pg_trgm"), import("@electric-sql/pglite/contrib/unaccent")]);
  if (!dataDir.startsWith("memory://")) mkdirSync(path.dirname(path.resolve(dataDir)), { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent }, ...(loadDataDir ? { loadDataDir } : {}) });
  const db = drizzle(client, { schema }) as unknown as Db;
  return { db, kind: "pglite", close: () => client.close() };
}

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(database.db as never, { migrationsFolder });
  } else {
    const { migrate } = await import("drizzle-orm/postgres-js/migrator");
    await migrate(database.db as never, { migrationsFolder });
  }
}

type Holder = { __innkeepDatabase?: Promise<Database> };

/**
 * The process's one database. It lives on globalThis so that Next's bundled modules, dev hot
 * reload and the custom server all share one PGlite instance: two instances on one folder corrupt it.
 */
export function processDatabase(open: () => Promise<Database>): Promise<Database> {
  const holder = globalThis as Holder;
  holder.__innkeepDatabase ??= open();
  return holder.__innkeepDatabase;
}

/** The process's database if something opened it, without opening one. */
export function processDatabaseIfOpen(): Promise<Database> | undefined {
  return (globalThis as Holder).__innkeepDatabase;
}
