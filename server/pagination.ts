import { asc, desc, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

/**
 * A place in a list: the row at the edge of a page, and which way to go. `createdAt` is the value
 * of the list's sort key at that row: its creation time, or (for `ListOrder` on a date) that date
 * at midnight UTC.
 */
export type CursorPosition = { direction: "next" | "prev"; createdAt: Date; id: string };
export type PageRequest = { limit: number; cursor: CursorPosition | null };
export type Page<T> = { data: T[]; hasMore: boolean; next: CursorPosition | null; prev: CursorPosition | null };

type Keyed = { createdAt: PgColumn; id: PgColumn };

/**
 * An order other than newest first: ascending on a date column, the id breaking ties (the
 * reservations' stay order: arrival date, then id). Rows are paged by (key, id) as below.
 */
export type ListOrder = { key: PgColumn; id: PgColumn; type: "date" };

/** A date column's value as a cursor carries it: that date at midnight UTC. */
export const dateKey = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * Keyset conditions for one page. Lists are ordered by (created_at, id) descending; a "next"
 * page takes rows strictly older than the cursor, a "prev" page rows strictly newer (read
 * ascending, then flipped). Rows inserted meanwhile are newer than any cursor's row, so a walk
 * in either direction never skips nor repeats a row. With an ascending `order`, the same walk
 * runs the other way round: "next" takes rows strictly after the cursor's (key, id).
 */
export function keyset(table: Keyed, page: PageRequest, order?: ListOrder): { where: SQL | undefined; orderBy: SQL[]; limit: number } {
  const cursor = page.cursor;
  const limit = page.limit + 1;
  if (order) {
    const forward = [asc(order.key), asc(order.id)];
    if (!cursor) return { where: undefined, orderBy: forward, limit };
    const at = sql`(${cursor.createdAt.toISOString().slice(0, 10)}::date, ${cursor.id}::text)`;
    return cursor.direction === "next"
      ? { where: sql`(${order.key}, ${order.id}) > ${at}`, orderBy: forward, limit }
      : { where: sql`(${order.key}, ${order.id}) < ${at}`, orderBy: [desc(order.key), desc(order.id)], limit };
  }
  if (!cursor) return { where: undefined, orderBy: [desc(table.createdAt), desc(table.id)], limit };
  const at = sql`(${cursor.createdAt.toISOString()}::timestamptz, ${cursor.id}::text)`;
  return cursor.direction === "next"
    ? { where: sql`(${table.createdAt}, ${table.id}) < ${at}`, orderBy: [desc(table.createdAt), desc(table.id)], limit }
    : { where: sql`(${table.createdAt}, ${table.id}) > ${at}`, orderBy: [asc(table.createdAt), asc(table.id)], limit };
}

/**
 * The same keyset conditions with placeholders (`at`, `cursor_id`, `limit`) instead of values,
 * for statements prepared once and run with `keysetValues`: one shape per direction.
 */
export function keysetShape(table: Keyed, direction: CursorPosition["direction"] | "first"): { where: SQL | undefined; orderBy: SQL[]; limit: ReturnType<typeof sql.placeholder> } {
  const limit = sql.placeholder("limit");
  if (direction === "first") return { where: undefined, orderBy: [desc(table.createdAt), desc(table.id)], limit };
  const at = sql`(${sql.placeholder("at")}::timestamptz, ${sql.placeholder("cursor_id")}::text)`;
  return direction === "next"
    ? { where: sql`(${table.createdAt}, ${table.id}) < ${at}`, orderBy: [desc(table.createdAt), desc(table.id)], limit }
    : { where: sql`(${table.createdAt}, ${table.id}) > ${at}`, orderBy: [asc(table.createdAt), asc(table.id)], limit };
}

/** The placeholder values of `keysetShape` for one page request, and the shape's direction. */
export function keysetValues(page: PageRequest) {
  const cursor = page.cursor;
  return {
    direction: cursor?.direction ?? ("first" as const),
    values: { limit: page.limit + 1, at: cursor?.createdAt.toISOString() ?? null, cursor_id: cursor?.id ?? null },
  };
}

const position = (direction: CursorPosition["direction"], row: { createdAt: Date; id: string }): CursorPosition => ({
  direction,
  createdAt: row.createdAt,
  id: row.id,
});

/**
 * Cuts the fetched rows (one more than asked) to a page, in the list's order, with cursors both
 * ways. `hasMore` speaks of the direction travelled. `createdAt` is the row's sort key (see
 * `CursorPosition`).
 */
export function toPage<T extends { createdAt: Date; id: string }>(rows: T[], page: PageRequest): Page<T> {
  const hasMore = rows.length > page.limit;
  const slice = rows.slice(0, page.limit);
  const cursor = page.cursor;
  if (cursor?.direction === "prev") {
    const data = slice.reverse();
    return {
      data,
      hasMore,
      prev: hasMore ? position("prev", data[0]) : null,
      next: data.length ? position("next", data[data.length - 1]) : { ...cursor, direction: "next" },
    };
  }
  return {
    data: slice,
    hasMore,
    next: hasMore ? position("next", slice[slice.length - 1]) : null,
    prev: cursor ? (slice.length ? position("prev", slice[0]) : { ...cursor, direction: "prev" }) : null,
  };
}
