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
