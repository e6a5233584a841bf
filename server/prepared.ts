import { inArray, sql } from "drizzle-orm";
import { PgTransaction, type PgColumn } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";

const statements = new WeakMap<Executor, Map<string, unknown>>();

/**
 * A statement built and prepared once per database handle and name, then only executed: drizzle
 * otherwise rebuilds the SQL text of every query on every request. Only for queries whose shape
 * never changes; everything that varies goes in as a placeholder.
 */
export function prepared<T>(db: Executor, name: string, build: () => T): T {
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let statement = byName.get(name) as T | undefined;
  if (!statement) byName.set(name, (statement = build()));
  return statement;
}

/**
 * Whether `db` is the database itself rather than an open transaction: a statement prepared on
 * the database runs on its pool, so only queries outside a transaction may use one.
 */
export const outsideTransaction = (db: Executor) => !(db instanceof PgTransaction);

type Query<R> = PromiseLike<R> & { prepare(name: string): { execute(values?: Record<string, unknown>): Promise<R> } };

/**
 * Runs a query prepared once (outside a transaction) or built with the values (inside one).
 * `build` gets `p(key)`: a placeholder when prepared, else the value; write `anyOf` for lists.
 */
export function preparedQuery<R>(db: Executor, name: string, values: Record<string, unknown>, build: (p: (key: string) => any) => Query<R>): Promise<R> { // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!outsideTransaction(db)) return Promise.resolve(build((key) => values[key]));
  return prepared(db, name, () => build((key) => sql.placeholder(key)).prepare(name)).execute(values);
}

/** `column = any(list)`: one array parameter when prepared, `in (…)` when built with the list. */
export const anyOf = (column: PgColumn, list: unknown) => (Array.isArray(list) ? inArray(column, list) : sql`${column} = any(${list})`);
