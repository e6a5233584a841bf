import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { events, properties } from "@/db/schema";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { newId } from "@/server/ids";
import type { Harness } from "./harness";

/** Who is asking: a token and an environment. */
export type Caller = { token: string; sandbox?: boolean };

/** A property in the live environment, inserted as the seed does (POST /v1/properties is tested on its own). */
export async function insertProperty(h: Harness, accountId: string, options: { timezone?: string; currency?: string; name?: string; livemode?: boolean } = {}) {
  const [row] = await h.db
    .insert(properties)
    .values({
      id: newId("property"),
      accountId,
      livemode: options.livemode ?? true,
      name: options.name ?? "Test Inn",
      timezone: options.timezone ?? "America/New_York",
      currency: options.currency ?? "USD",
    })
    .returning();
  return row;
}

/** The seeded sandbox property of the caller's account. */
export async function sandboxProperty(h: Harness, token: string) {
  const res = await h.get("/v1/properties", { token, sandbox: true });
  expect(res.status, res.text).toBe(200);
  const property = res.json.data.find((p: { name: string }) => p.name === "Sandbox Harbor Hotel");
  expect(property).toBeTruthy();
  return property as { id: string; timezone: string; currency: string };
}

export type RoomTypeSetup = {
  roomTypeId: string;
  roomIds: string[];
  ratePlanId: string;
};

let codes = 0;
const uniqueCode = (prefix: string) => `${prefix}${++codes}`;

/** Asserts a 2xx answer and returns its JSON. */
export function ok<T = any>(res: { status: number; text: string; json?: any }, status = 200): T { // eslint-disable-line @typescript-eslint/no-explicit-any
  expect(res.status, res.text).toBe(status);
  return res.json as T;
}

/**
 * A room type with `rooms` rooms and a rate plan covering it, with one rate (`amount`) per night
 * over [today, today + days), all through the API.
 */
export async function buildRoomType(
  h: Harness,
  caller: Caller,
  propertyId: string,
  today: IsoDate,
  options: { rooms?: number; maxOccupancy?: number; amount?: number; days?: number; refundable?: boolean; deadlineHours?: number } = {},
): Promise<RoomTypeSetup> {
  const type = ok(
    await h.post("/v1/room_types", { property_id: propertyId, code: uniqueCode("T"), name: "Test room", max_occupancy: options.maxOccupancy ?? 2 }, caller),
    201,
  );
  const roomIds: string[] = [];
  for (let i = 0; i < (options.rooms ?? 3); i++) {
    const room = ok(await h.post("/v1/rooms", { room_type_id: type.id, number: uniqueCode("R"), floor: 1 }, caller), 201);
    roomIds.push(room.id);
  }
  const plan = ok(
    await h.post(
      "/v1/rate_plans",
      {
        property_id: propertyId,
        code: uniqueCode("P"),
        name: "Test rate",
        room_type_ids: [type.id],
        refundable: options.refundable ?? true,
        cancellation_deadline_hours: options.deadlineHours ?? 24,
      },
      caller,
    ),
    201,
  );
  ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: addDays(today, options.days ?? 90), amount: options.amount ?? 10_000 }, caller));
  return { roomTypeId: type.id, roomIds, ratePlanId: plan.id };
}

/** A live property with its own "today", ready for room types. */
export async function liveHotel(h: Harness, accountId: string, timezone = "America/New_York") {
  const property = await insertProperty(h, accountId, { timezone });
  return { propertyId: property.id, timezone, today: todayIn(timezone) };
}

/**
 * A fresh New York property for the night audit's tests (audit hour 03:00): one room type at
 * 10,000 a night on a plan whose no-show fee is 5,000.
 */
export async function auditHotel(h: Harness, caller: Caller, options: { rooms: number; days: number }) {
  const base = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, base.propertyId, base.today, { rooms: options.rooms, amount: 10_000, days: options.days });
  ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, { no_show_fee: { type: "fixed", amount: 5_000 } }, caller));
  return { ...base, type };
}

/** The body of a valid booking; override what a test is about. */
export function bookingBody(setup: { propertyId: string; roomTypeId: string; ratePlanId: string }, checkIn: IsoDate, checkOut: IsoDate, extra: Record<string, unknown> = {}) {
  return {
    property_id: setup.propertyId,
    guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" },
    check_in: checkIn,
    check_out: checkOut,
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 1,
    ...extra,
  };
}

/** Inventory rows of one room type over [from, to), keyed by date. */
export async function inventoryOf(h: Harness, caller: Caller, propertyId: string, roomTypeId: string, from: IsoDate, to: IsoDate) {
  const res = await h.get(`/v1/inventory?property_id=${propertyId}&room_type_id=${roomTypeId}&from=${from}&to=${to}`, caller);
  const body = ok(res);
  return new Map<string, { total: number; sold: number; held: number; out_of_order: number; available: number }>(
    body.data.map((n: { date: string }) => [n.date, n]),
  );
}

/** How many events rows an account holds, optionally of one type (counted in the database). */
export async function countEvents(h: Harness, accountId: string, type?: string): Promise<number> {
  const [row] = await h.db
    .select({ n: sql<number>`count(*)::int` })
    .from(events)
    .where(and(eq(events.accountId, accountId), type ? eq(events.type, type) : undefined));
  return Number(row.n);
}

/** Events rows of a type whose `data.object.id` (or range) matches, oldest first. */
export async function eventsFor(h: Harness, accountId: string, type: string, match: (object: Record<string, unknown>) => boolean) {
  const rows = await h.db.select().from(events).where(and(eq(events.accountId, accountId), eq(events.type, type))).orderBy(events.createdAt, events.id);
  return rows.filter((r) => match(r.object));
}
