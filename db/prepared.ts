import { Column, DrizzleQueryError, getTableName, is, noopDecoder, Param, Placeholder as SqlPlaceholder, sql, SQL, Subquery } from "drizzle-orm";
import { PgTransaction, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";

type Decoder = { mapFromDriverValue(value: unknown): unknown };
type SelectedField = { path: string[]; field: unknown };

/** The decoder drizzle's own row mapping picks for a selected field (drizzle-orm/utils, mapResultRow). */
function decoderOf(field: unknown): Decoder {
  // `decoder` is internal to drizzle's types, hence the casts.
  type Decoded = { decoder: Decoder };
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as Decoded).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: Decoded } })._.sql.decoder;
  return (field as { sql: Decoded }).sql.decoder;
}

/** Text, integer, boolean columns and plain `sql` keep the driver's value: no call needed. */
const passesThrough = (decoder: Decoder) =>
  decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue || decoder.mapFromDriverValue === noopDecoder.mapFromDriverValue;

/**
 * Maps a statement's rows (arrays, in the order of its fields) to objects as drizzle's
 * `mapResultRow` does, with what drizzle works out per row and per column (which decoder, the
 * field's path, which joined objects may be null) worked out once per statement: on a list of
 * 240 rates that was two thirds of the mapping's time. Joined objects (`{ reservation, guest }`)
 * are nulled as drizzle nulls them: an object of one table that a join may leave empty is null
 * when its first column is. Paths deeper than two levels are left to drizzle (`undefined`).
 */
export function compileRowMapper(
  fields: SelectedField[],
  joinsNotNullableMap?: Record<string, boolean>,
): ((rows: unknown[][]) => Record<string, unknown>[]) | undefined {
  if (!fields.length || fields.some((f) => f.path.length > 2)) return undefined;
  const columns = fields.map((f) => {
    const decoder = decoderOf(f.field);
    return { outer: f.path[0], inner: f.path.length === 2 ? f.path[1] : undefined, decoder: passesThrough(decoder) ? null : decoder };
  });
  // drizzle's rule for joined objects: the first table column of an object names its table; a
  // column of another table in the same object means it is never nulled; otherwise it is null
  // when that first column is, unless its table is one the joins never leave empty.
  const nullable: { object: string; index: number }[] = [];
  if (joinsNotNullableMap) {
    const objects = new Map<string, { index: number; table: string; mixed: boolean }>();
    fields.forEach((f, index) => {
      if (f.path.length !== 2 || !is(f.field, Column)) return;
      const table = getTableName(f.field.table);
      const seen = objects.get(f.path[0]);
      if (!seen) objects.set(f.path[0], { index, table, mixed: false });
      else if (seen.table !== table) seen.mixed = true;
    });
    for (const [object, { index, table, mixed }] of objects) if (!mixed && !joinsNotNullableMap[table]) nullable.push({ object, index });
  }
  const mapRow = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    const decoded = nullable.length ? new Array<unknown>(columns.length) : undefined;
    for (let i = 0; i < columns.length; i++) {
      const { outer, inner, decoder } = columns[i];
      const raw = row[i];
      const value = raw === null ? null : decoder ? decoder.mapFromDriverValue(raw) : raw;
      if (decoded) decoded[i] = value;
      if (inner === undefined) result[outer] = value;
      else ((result[outer] ??= {}) as Record<string, unknown>)[inner] = value;
    }
    for (const { object, index } of nullable) if (decoded![index] === null) result[object] = null;
    return result;
  };
  return (rows) => rows.map(mapRow);
}

/**
 * Gives a freshly prepared statement the compiled mapping. Both drivers' prepared queries call
 * `customResultMapper(rows)` with the rows as arrays when it is set (drizzle's relational
 * queries set it for their own rows; a statement that has one keeps it).
 */
function withCompiledRows<S>(statement: S): S {
  const target = statement as { fields?: SelectedField[]; customResultMapper?: unknown; joinsNotNullableMap?: Record<string, boolean> };
  if (target.fields && !target.customResultMapper) {
    const mapper = compileRowMapper(target.fields, target.joinsNotNullableMap);
    if (mapper) target.customResultMapper = mapper;
  }
  return statement;
}

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
  if (!statement) byName.set(name, (statement = withCompiledRows(build())));
  return statement;
}

/** Whether `db` is the database itself rather than an open transaction. */
const outsideTransaction = (db: Executor) => !(db instanceof PgTransaction);

/** What `p(key)` gives a builder: it stands in for a value of whatever column it meets. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Placeholder = any;

type Statement<R> = { execute(values?: Record<string, unknown>): Promise<R> };
type Query<R> = PromiseLike<R> & { prepare(name: string): Statement<R> };

/**
 * Statements for transactions, built once per driver: a drizzle prepared statement holds the
 * SQL text, its parameters' encoders and the result mapping, plus the `client` it runs on. Each
 * transaction has its own client (a connection of the pool, or PGlite's transaction), so the
 * statement built in the first transaction is run in later ones through a copy bound to theirs.
 * Keyed by the session's class because PGlite's and postgres.js's statements call their client
 * differently.
 */
const transactionStatements = new WeakMap<object, Map<string, Statement<unknown>>>();

type Bound = { session: { client: unknown; constructor: object } };

function boundToTransaction<R>(tx: Executor, name: string, build: () => Statement<R>): Statement<R> {
  const session = (tx as unknown as Bound).session;
  let byName = transactionStatements.get(session.constructor);
  if (!byName) transactionStatements.set(session.constructor, (byName = new Map()));
  let statement = byName.get(name) as Statement<R> | undefined;
  if (!statement) byName.set(name, (statement = withCompiledRows(build())));
  // The copy reads everything from the shared statement but runs on this transaction's client.
  const client = session.client as PostgresJsClient;
  if (typeof client.unsafe === "function" && (statement as unknown as PostgresJsStatement).queryString !== undefined) {
    return { execute: (values) => executeOnPostgresJs(statement as unknown as PostgresJsStatement, client, values ?? {}) as Promise<R> };
  }
  return Object.assign(Object.create(statement) as Statement<R>, { client });
}

type PostgresJsClient = {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): PromiseLike<unknown> & { values(): PromiseLike<unknown[][]> };
};

/** What drizzle's postgres.js prepared query holds (drizzle-orm/postgres-js/session.js). */
type PostgresJsStatement = {
  queryString: string;
  params: unknown[];
  prepare: boolean;
  fields?: unknown[];
  customResultMapper?: (rows: unknown[][]) => unknown;
  execute(values?: Record<string, unknown>): Promise<unknown>;
};

/** Each statement's parameters as functions of the placeholder values, worked out once. */
const fillers = new WeakMap<PostgresJsStatement, (values: Record<string, unknown>) => unknown[]>();

/** drizzle's `fillPlaceholders`, with the class checks (`is`, a walk up the prototypes per parameter) made once per statement. */
function fillerOf(statement: PostgresJsStatement) {
  let filler = fillers.get(statement);
  if (filler) return filler;
  const take = (name: string, values: Record<string, unknown>) => {
    if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return values[name];
  };
  const parts = statement.params.map((p): ((values: Record<string, unknown>) => unknown) => {
    if (is(p, SqlPlaceholder)) return (values) => take(p.name, values);
    if (is(p, Param) && is(p.value, SqlPlaceholder)) {
      const { encoder, value } = p;
      return (values) => encoder.mapToDriverValue(take(value.name, values));
    }
    return () => p;
  });
  filler = (values) => parts.map((part) => part(values));
  fillers.set(statement, filler);
  return filler;
}

/**
 * Runs a prepared statement on a postgres.js transaction as drizzle's `execute` does (the same
 * text, parameters, options and errors), without its per-call wrappers: no-op tracing spans, a
 * cache that is off, and the class checks of every parameter. A booking runs about fifteen.
 */
async function executeOnPostgresJs(statement: PostgresJsStatement, client: PostgresJsClient, values: Record<string, unknown>) {
  const { queryString, prepare, fields, customResultMapper } = statement;
  // A statement whose rows drizzle maps itself (see `compileRowMapper`) goes the way drizzle goes.
  if (fields && !customResultMapper) return Object.assign(Object.create(statement) as PostgresJsStatement, { client }).execute(values);
  const params = fillerOf(statement)(values);
  try {
    if (!customResultMapper) return await client.unsafe(queryString, params, { prepare });
    return customResultMapper(await client.unsafe(queryString, params, { prepare }).values());
  } catch (error) {
    throw new DrizzleQueryError(queryString, params, error as Error);
  }
}

/**
 * Runs a query whose SQL text is built once per name and then only executed, inside or outside
 * a transaction. `build` gets `p(key)`, a placeholder for `values[key]`; write `anyOf` for lists.
 * Only for queries whose shape never changes; everything that varies goes in as a placeholder.
 */
export function preparedQuery<R>(
  db: Executor,
  name: string,
  values: Record<string, unknown>,
  build: (p: (key: string) => Placeholder) => Query<R>,
): Promise<R> {
  const make = () => build((key) => sql.placeholder(key)).prepare(name);
  if (!outsideTransaction(db)) return boundToTransaction(db, name, make).execute(values);
  const statement = prepared(db, name, make) as unknown as PostgresJsStatement & { client: PostgresJsClient };
  if (typeof statement.client?.unsafe === "function" && statement.queryString !== undefined) return executeOnPostgresJs(statement, statement.client, values) as Promise<R>;
  return (statement as unknown as Statement<R>).execute(values);
}

/** `column = any($n)`: a list as one array parameter, so the text does not depend on its length. */
export const anyOf = (column: PgColumn, list: unknown) => sql`${column} = any(${list})`;

/** Statements are cached per row count; a larger insert is built each time. */
const maxPreparedRows = 64;

/**
 * Inserts rows through a statement built once per name, row count and set of columns: every
 * value goes in as a placeholder, so nothing that varies may be hidden in the statement's text.
 * `sqlValues` adds columns computed in SQL from placeholders (the same for every row).
 */
export function insertRows<R = unknown>(
  db: Executor,
  name: string,
  table: PgTable,
  rows: Record<string, unknown>[],
  options: { returning?: boolean; sqlValues?: (p: (key: string) => unknown) => Record<string, SQL>; values?: Record<string, unknown> } = {},
): Promise<R> {
  const columns = Object.keys(rows[0]);
  const width = columns.length;
  const build = (p: (key: string) => unknown) => {
    const extra = options.sqlValues?.(p) ?? {};
    const insert = db.insert(table).values(rows.map((_, i) => ({ ...Object.fromEntries(columns.map((c, k) => [c, p(String(i * width + k))])), ...extra })));
    return (options.returning ? insert.returning() : insert) as unknown as Query<R>;
  };
  // The rows' values in order, each placeholder named by its place: no key to build per value.
  const values: unknown[] & Record<string, unknown> = Object.assign([], options.values);
  for (const row of rows) for (const c of columns) values.push(row[c]);
  if (rows.length > maxPreparedRows) return Promise.resolve(build((key) => values[key]));
  return preparedQuery(db, `${name}_${rows.length}_${columns.join("_")}`, values, build);
}
