import { count, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { dailyRates, guests, reservations, rooms, roomTypes } from "@/db/schema";
import { compileRowMapper } from "@/db/prepared";
import { rateColumns } from "@/server/rates/daily-rates";

// drizzle's own row mapping: exported by drizzle-orm/utils at run time, not in its types.
const { mapResultRow } = (await import("drizzle-orm/utils" as string)) as { mapResultRow(fields: unknown, row: unknown[], joins: unknown): unknown };

// Statements are only built and prepared here, never sent: the client never connects.
const db = drizzle(postgres("postgres://nobody@127.0.0.1:1/none"));
type Fields = Parameters<typeof compileRowMapper>[0];
type Prepared = { fields: Fields; joinsNotNullableMap?: Record<string, boolean> };
const preparedOf = (query: { prepare(name: string): unknown }) => query.prepare("rows_test") as unknown as Prepared;
const fieldsOf = (query: { prepare(name: string): unknown }) => preparedOf(query).fields;
/** A row for `fields`: each column's value from `value(object, key)`. */
const rowFor = (fields: Fields, value: (object: string, key: string) => unknown) => fields.map(({ path }) => value(path[0], path[path.length - 1]));
const columnValue = (key: string) =>
  key.endsWith("At") ? "2026-11-25 10:11:12.345+00" : key === "nightly" ? "[]" : key === "metadata" ? "{}" : key === "adults" || key === "children" ? 2 : `${key}-value`;

/** The compiled mapping must give exactly what drizzle's own does, row for row. */
function expectSameAsDrizzle(fields: Fields, rows: unknown[][], joins?: Record<string, boolean>) {
  const mapper = compileRowMapper(fields, joins);
  expect(mapper).toBeDefined();
  const ours = mapper!(rows);
  const theirs = rows.map((row) => mapResultRow(fields, row, joins));
  expect(ours).toEqual(theirs);
  // toEqual treats a missing key like an undefined one; the keys and their order must match too.
  ours.forEach((row, i) => expect(Object.keys(row)).toEqual(Object.keys(theirs[i] as object)));
  return ours;
}

describe("compiled row mapping of prepared statements", () => {
  it("maps a rates read like drizzle (text, date, integers, booleans)", () => {
    // What availability reads: 240 of these a request.
    const query = db.select(rateColumns).from(dailyRates);
    const [row] = expectSameAsDrizzle(fieldsOf(query), [
      ["rp_1", "rt_1", "2026-12-01", 12000, 1, false, false, true],
      ["rp_1", "rt_2", "2026-12-02", 0, 3, true, true, false],
    ]);
    expect(row).toEqual({ ratePlanId: "rp_1", roomTypeId: "rt_1", date: "2026-12-01", amount: 12000, minStay: 1, closedToArrival: false, closedToDeparture: false, stopSell: true });
  });

  it("decodes timestamps, JSON and nulls of a whole table's row like drizzle", () => {
    const fields = fieldsOf(db.select().from(reservations));
    const row = fields.map(({ path: [key] }) =>
      key.endsWith("At") ? "2026-11-25 10:11:12.345+00" : key === "nightly" ? '[{"date":"2026-12-01","amount":100}]' : key === "metadata" ? '{"a":"b"}' : key === "notes" ? null : `${key}-value`,
    );
    const [mapped] = expectSameAsDrizzle(fields, [row]);
    expect(mapped.createdAt).toEqual(new Date("2026-11-25T10:11:12.345Z"));
    expect(mapped.notes).toBeNull();
  });

  it("maps computed columns (count, sql with and without a decoder) and RETURNING rows", () => {
    const counted = db
      .select({ n: count(), upper: sql<string>`upper(${guests.email})`, doubled: sql<number>`2`.mapWith(Number) })
      .from(guests)
      .where(eq(guests.id, sql.placeholder("id")));
    const [row] = expectSameAsDrizzle(fieldsOf(counted), [["7", "A@B.C", "4"]]);
    expect(row).toEqual({ n: 7, upper: "A@B.C", doubled: 4 });
    const returning = db.update(guests).set({ phone: sql`${sql.placeholder("phone")}` }).returning({ id: guests.id, updatedAt: guests.updatedAt });
    expectSameAsDrizzle(fieldsOf(returning), [["gst_1", "2026-11-25 10:11:12.345+00"]]);
  });

  it("maps joined objects like drizzle: an inner join's never null, a left join's null when it found nothing", () => {
    const inner = preparedOf(db.select({ reservation: reservations, guest: guests }).from(reservations).innerJoin(guests, eq(guests.id, reservations.guestId)));
    const [both] = expectSameAsDrizzle(inner.fields, [rowFor(inner.fields, (_, key) => columnValue(key))], inner.joinsNotNullableMap);
    expect(both.guest).toMatchObject({ id: "id-value", email: "email-value" });

    const left = preparedOf(
      db
        .select({ reservation: reservations, roomType: { code: roomTypes.code, name: roomTypes.name }, roomNumber: rooms.number })
        .from(reservations)
        .leftJoin(roomTypes, eq(roomTypes.id, reservations.roomTypeId))
        .leftJoin(rooms, eq(rooms.id, reservations.roomId)),
    );
    const rows = [
      rowFor(left.fields, (object, key) => (object === "reservation" ? columnValue(key) : null)),
      rowFor(left.fields, (object, key) => (object === "reservation" ? columnValue(key) : `${object}.${key}`)),
      // A joined row whose first column is null but not the rest: drizzle goes by the first.
      rowFor(left.fields, (object, key) => (object === "reservation" ? columnValue(key) : key === "code" ? null : "Deluxe")),
    ];
    const [missing, found, firstNull] = expectSameAsDrizzle(left.fields, rows, left.joinsNotNullableMap);
    expect(missing.roomType).toBeNull();
    expect(missing.roomNumber).toBeNull();
    expect(found.roomType).toEqual({ code: "roomType.code", name: "roomType.name" });
    expect(firstNull.roomType).toBeNull();
  });

  it("never nulls an object mixing two tables' columns, as drizzle does not", () => {
    const mixed = preparedOf(
      db
        .select({ stay: { roomCode: roomTypes.code, id: reservations.id }, guest: { email: guests.email } })
        .from(reservations)
        .leftJoin(roomTypes, eq(roomTypes.id, reservations.roomTypeId))
        .leftJoin(guests, eq(guests.id, reservations.guestId)),
    );
    const [row] = expectSameAsDrizzle(mixed.fields, [[null, null, null]], mixed.joinsNotNullableMap);
    expect(row).toEqual({ stay: { roomCode: null, id: null }, guest: null });
  });

  it("leaves paths deeper than two levels to drizzle", () => {
    // drizzle's types stop at two levels; its run time does not.
    const deep = db.select({ a: { b: { id: reservations.id } } } as never).from(reservations);
    expect(compileRowMapper(fieldsOf(deep))).toBeUndefined();
  });
});
