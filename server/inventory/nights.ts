import { and, asc, count, eq, gte, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { inventoryNights } from "@/db/schema";
import { anyOf, preparedQuery } from "@/db/prepared";
import { ApiError } from "@/server/errors";
import { daysBetween, type IsoDate } from "@/lib/dates";
import { sideBySide } from "@/server/side-by-side";

/** Whether `rows` night rows are one per room type and night of [from, to): none is missing. */
export const hasEveryNight = (rows: number, roomTypeCount: number, from: IsoDate, to: IsoDate) => rows >= roomTypeCount * daysBetween(from, to);

/**
 * How many night rows the room types have over [from, to). Started early, it shares a round trip
 * with the reads before it; `ensureNights` then takes the count instead of asking again.
 */
export async function countNights(tx: Executor, roomTypeIds: string[], from: IsoDate, to: IsoDate): Promise<number> {
  const [present] = await preparedQuery(tx, "nights_present", { types: roomTypeIds, from, to }, (p) =>
    tx
      .select({ n: count() })
      .from(inventoryNights)
      .where(and(anyOf(inventoryNights.roomTypeId, p("types")), gte(inventoryNights.date, p("from")), lt(inventoryNights.date, p("to")))),
  );
  return Number(present.n);
}

/** A room counts for a night unless it was retired on or before that night's date at the property. */
const inService = sql`(r.retired_at is null or d::date < (r.retired_at at time zone p.timezone)::date)`;

/**
 * Makes sure a night row exists for each room type and night of [from, to), counting the
 * type's rooms (and those out of order that night) when a row is first made.
 */
export async function ensureNights(tx: Executor, roomTypeIds: string[], from: IsoDate, to: IsoDate, counted?: Promise<number>): Promise<void> {
  if (!roomTypeIds.length || daysBetween(from, to) <= 0) return;
  // Nearly always every row exists already: one index-only count spares the insert-select,
  // which counts rooms per night.
  const present = await (counted ?? countNights(tx, roomTypeIds, from, to));
  if (hasEveryNight(present, roomTypeIds.length, from, to)) return;
  await tx.execute(sql`
    insert into inventory_nights (room_type_id, date, account_id, livemode, property_id, total, out_of_order)
    select rt.id, d::date, rt.account_id, rt.livemode, rt.property_id,
      (select count(*) from rooms r where r.room_type_id = rt.id and ${inService}),
      (select count(*) from rooms r where r.room_type_id = rt.id and ${inService} and r.housekeeping_status = 'out-of-order'
         and (r.out_of_order_until is null or r.out_of_order_until > d::date)
         -- A room out of order now says nothing about nights already past at the property.
         and d::date >= (now() at time zone p.timezone)::date)
    from room_types rt
    join properties p on p.id = rt.property_id
    cross join generate_series(${from}::date, ${to}::date - 1, interval '1 day') as d
    where rt.id in (${sql.join(
      roomTypeIds.map((id) => sql`${id}`),
      sql`, `,
    )})
    on conflict do nothing`);
}

const nightRange = (roomTypeId: string, from: IsoDate, to: IsoDate) =>
  and(eq(inventoryNights.roomTypeId, roomTypeId), gte(inventoryNights.date, from), lt(inventoryNights.date, to));

/** The night range of a prepared statement's `type`, `from` and `to` placeholders. */
const nightRangeOf = (p: (key: string) => unknown) => nightRange(p("type") as string, p("from") as IsoDate, p("to") as IsoDate);

/**
 * Runs `write` on a type's night rows over [from, to) once they are locked in date order: the
 * order in which every sale and return takes them, so that no two wait on each other crosswise.
 * The lock and the write go out together, one round trip: on the transaction's one connection
 * PostgreSQL runs them in the order sent, so every row is locked before the write reads it,
 * exactly as when the lock was awaited first.
 */
async function withNightsLocked<T>(tx: Executor, values: { type: string; from: IsoDate; to: IsoDate }, write: () => Promise<T>): Promise<T> {
  // Sent first: `write` is only started after it, whatever its query does when built.
  const lock = preparedQuery(tx, "nights_lock", values, (p) =>
    tx.select({ date: inventoryNights.date }).from(inventoryNights).where(nightRangeOf(p)).orderBy(asc(inventoryNights.date)).for("update"),
  );
  const [locked, written] = await sideBySide([lock, write()]);
  locked();
  return written();
}

/**
 * Takes `rooms` of a type off sale (as `sold` or `held`) for every night of [from, to), or none
 * at all.
 *
 * Why this cannot oversell: the rows are first locked in date order (so two sales never wait on
 * each other crosswise), then each is incremented only WHERE sold + held + out_of_order + rooms
 * ≤ total. Under READ COMMITTED a competing sale blocks on the row lock and, once the first
 * commits, PostgreSQL re-checks that condition against the committed row, so the last room goes
 * to exactly one buyer. If any night fails the condition, the error rolls the whole
 * transaction back. PGlite runs one transaction at a time, which is trivially safe.
 */
async function takeNights(
  tx: Executor,
  column: "sold" | "held",
  roomTypeId: string,
  from: IsoDate,
  to: IsoDate,
  rooms: number,
  refusal: () => ApiError,
  counted?: Promise<number>,
) {
  const nights = daysBetween(from, to);
  // Every row must exist before any is locked: locking the rows there are, making the missing
  // ones and locking again would hold a set that is not a prefix in date order, and two sales
  // could then wait on each other crosswise (a deadlock the race tests met).
  await ensureNights(tx, [roomTypeId], from, to, counted);
  const values = { type: roomTypeId, from, to, rooms };
  const counter = inventoryNights[column];
  const taken = await withNightsLocked(tx, values, () =>
    preparedQuery(tx, `nights_take_${column}`, values, (p) =>
      tx
        .update(inventoryNights)
        .set({ [column]: sql`${counter} + ${p("rooms")}` })
        .where(
          and(
            nightRangeOf(p),
            sql`${inventoryNights.sold} + ${inventoryNights.held} + ${inventoryNights.outOfOrder} + ${p("rooms")} <= ${inventoryNights.total}`,
          ),
        )
        .returning({ date: inventoryNights.date }),
    ),
  );
  if (taken.length !== nights) throw refusal();
}

/** Puts rooms counted as `sold` or `held` back on sale for [from, to). */
async function returnNights(tx: Executor, column: "sold" | "held", roomTypeId: string, from: IsoDate, to: IsoDate, rooms: number) {
  if (daysBetween(from, to) <= 0) return;
  const counter = inventoryNights[column];
  // Locked in date order first, as a sale locks them: an UPDATE alone takes its rows in the
  // order it finds them, and a cancellation and a sale over the same nights could deadlock
  // (PostgreSQL broke such cycles in the race tests; each cost a retry).
  await withNightsLocked(tx, { type: roomTypeId, from, to }, async () => {
    await tx
      .update(inventoryNights)
      .set({ [column]: sql`greatest(${counter} - ${rooms}, 0)` })
      .where(nightRange(roomTypeId, from, to));
  });
}

/**
 * Sells rooms of a type for a stay (see `takeNights`), or 409 `no_availability`. `counted`: the
 * range's night rows as `countNights` found them earlier in this transaction.
 */
export const sellNights = (tx: Executor, roomTypeId: string, from: IsoDate, to: IsoDate, rooms = 1, counted?: Promise<number>) =>
  takeNights(
    tx,
    "sold",
    roomTypeId,
    from,
    to,
    rooms,
    () => new ApiError("no_availability", "No room of this type is available for every night of the stay.", { param: "room_type_id" }),
    counted,
  );

/** Gives nights back to sale (cancellation, modification, no-show, early departure). */
export const releaseNights = (tx: Executor, roomTypeId: string, from: IsoDate, to: IsoDate, rooms = 1) =>
  returnNights(tx, "sold", roomTypeId, from, to, rooms);

/** Holds rooms back from sale, under the same guarantee as `sellNights`. */
export const holdNights = (tx: Executor, roomTypeId: string, from: IsoDate, to: IsoDate, rooms: number) =>
  takeNights(
    tx,
    "held",
    roomTypeId,
    from,
    to,
    rooms,
    () => new ApiError("no_availability", `Fewer than ${rooms} unsold rooms remain on some night of the range.`, { param: "rooms" }),
  );

export const unholdNights = (tx: Executor, roomTypeId: string, from: IsoDate, to: IsoDate, rooms: number) =>
  returnNights(tx, "held", roomTypeId, from, to, rooms);

/** A room joined or left a type: every existing night row from `from` on changes its total. */
export async function adjustTotals(tx: Executor, roomTypeId: string, delta: number, from: IsoDate): Promise<void> {
  await tx
    .update(inventoryNights)
    .set({ total: sql`greatest(${inventoryNights.total} + ${delta}, 0)` })
    .where(and(eq(inventoryNights.roomTypeId, roomTypeId), gte(inventoryNights.date, from)));
}

/** A room went out of order (delta 1) or came back (-1) for the nights [from, until). */
export async function adjustOutOfOrder(tx: Executor, roomTypeId: string, delta: number, from: IsoDate, until: IsoDate | null): Promise<void> {
  await tx
    .update(inventoryNights)
    .set({ outOfOrder: sql`greatest(${inventoryNights.outOfOrder} + ${delta}, 0)` })
    .where(and(eq(inventoryNights.roomTypeId, roomTypeId), gte(inventoryNights.date, from), until ? lt(inventoryNights.date, until) : undefined));
}

/** Night rows for room types over [from, to), creating any missing. */
export async function readNights(tx: Executor, roomTypeIds: string[], from: IsoDate, to: IsoDate) {
  if (!roomTypeIds.length) return [];
  const read = () =>
    preparedQuery(tx, "nights_read", { types: roomTypeIds, from, to }, (p) =>
      tx
        .select()
        .from(inventoryNights)
        .where(and(anyOf(inventoryNights.roomTypeId, p("types")), gte(inventoryNights.date, p("from")), lt(inventoryNights.date, p("to"))))
        .orderBy(asc(inventoryNights.date), asc(inventoryNights.roomTypeId)),
    );
  // Read first: nearly always every row exists, and the read itself says so.
  const rows = await read();
  if (hasEveryNight(rows.length, roomTypeIds.length, from, to)) return rows;
  await ensureNights(tx, roomTypeIds, from, to);
  return read();
}

export const availableOf = (n: { total: number; outOfOrder: number; held: number; sold: number }) =>
  Math.max(0, n.total - n.outOfOrder - n.held - n.sold);
