import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reservations, rooms } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { addDays, todayIn } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, insertProperty, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// The room tape chart (issue 23, point 4) through tRPC as the dashboard calls it: the window of
// rooms, stays and out-of-order blocks; the price of a drag before it is saved; refusals. Prices
// are the test's own: 129.00 a night in the standard type, 200.00 in the suite.

let h: Harness;
let api: Caller;
let hotel: { propertyId: string; today: string };
let std: RoomTypeSetup;
let suite: RoomTypeSetup;
let single: RoomTypeSetup;
const d = (n: number) => addDays(hotel.today, n);

const session = (role: StaffRole, accountId = h.main.account.id): StaffSession => ({
  user: { id: `usr_${role}`, accountId, role, name: role, email: `${role}@chart.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole, accountId?: string) => createCaller({ db: h.db, session: session(role, accountId), livemode: false });

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, message: trpc.message, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

async function book(t: RoomTypeSetup, checkIn: string, checkOut: string, last: string) {
  return as("front_desk").reservations.create({
    property_id: hotel.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: checkIn,
    check_out: checkOut,
    adults: 1,
    guest: { first_name: "Guest", last_name: last, email: `${last.toLowerCase()}@chart.example` },
    source: "phone",
  });
}

let inHouse: { id: string };
let shortened: { id: string };
let confirmed: { id: string };
let later: { id: string };

beforeAll(async () => {
  h = await startHarness();
  api = { token: h.main.token, sandbox: true };
  const property = await insertProperty(h, h.main.account.id, { livemode: false, name: "Chart Inn" });
  hotel = { propertyId: property.id, today: todayIn(property.timezone) };
  std = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 4, amount: 12_900 });
  suite = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 1, amount: 20_000 });
  single = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 1, amount: 9_000 });
  // The standard plan sells the suite too, at 200.00 a night: an upgrade keeps the plan.
  ok(await h.patch(`/v1/rate_plans/${std.ratePlanId}`, { room_type_ids: [std.roomTypeId, suite.roomTypeId] }, api));
  ok(await h.post(`/v1/rate_plans/${std.ratePlanId}/rates`, { room_type_id: suite.roomTypeId, from: hotel.today, to: addDays(hotel.today, 90), amount: 20_000 }, api));
  const front = as("front_desk");
  // In house in the first standard room, tonight and tomorrow night.
  inHouse = await book(std, d(0), d(2), "Inhouse");
  await front.reservations.checkIn({ id: inHouse.id, room_id: std.roomIds[0] });
  // In house in the second standard room for three nights, to be shortened.
  shortened = await book(std, d(0), d(3), "Early");
  await front.reservations.checkIn({ id: shortened.id, room_id: std.roomIds[1] });
  confirmed = await book(std, d(1), d(3), "Arriving");
  later = await book(std, d(20), d(22), "Later");
  const cancelled = await book(std, d(2), d(4), "Cancelled");
  await front.reservations.cancel({ id: cancelled.id });
  // The fourth standard room is out of order until the night of d(4).
  await as("manager").housekeeping.changeStatus({ room_id: std.roomIds[3], status: "out-of-order", reason: "New carpet", until: d(4) });
}, 120_000);
afterAll(async () => h?.close());

describe("the window", () => {
  it("has every room by type, the stays touching the window (confirmed ones unassigned) and the out-of-order block", async () => {
    const chart = await as("front_desk").tapeChart.window({ property_id: hotel.propertyId });
    expect(chart.from).toBe(hotel.today);
    expect(chart.to).toBe(d(14));
    expect(chart.nights).toHaveLength(14);
    expect(chart.nights[0]).toBe(d(0));
    expect(chart.nights[13]).toBe(d(13));
    const types = new Map(chart.room_types.map((t) => [t.id, t]));
    expect(types.get(std.roomTypeId)!.rooms.map((r) => r.id)).toEqual(expect.arrayContaining(std.roomIds));
    expect(types.get(std.roomTypeId)!.rooms).toHaveLength(4);
    expect(types.get(suite.roomTypeId)!.rooms).toHaveLength(1);

    const ids = chart.stays.map((s) => s.reservation_id);
    expect(ids).toEqual(expect.arrayContaining([inHouse.id, shortened.id, confirmed.id]));
    expect(ids).not.toContain(later.id);
    expect(chart.stays).toHaveLength(3);
    expect(chart.stays.find((s) => s.reservation_id === inHouse.id)).toMatchObject({
      guest_name: "Guest Inhouse",
      status: "checked_in",
      room_id: std.roomIds[0],
      check_in: d(0),
      check_out: d(2),
      total: { amount: 25_800, currency: "USD" },
    });
    expect(chart.stays.find((s) => s.reservation_id === confirmed.id)).toMatchObject({ status: "confirmed", room_id: null, room_type_id: std.roomTypeId });
    expect(chart.blocks).toEqual([{ room_id: std.roomIds[3], from: d(0), to: d(4), reason: "New carpet" }]);
  });

  it("moves with its window: a later window holds the later stay and no block", async () => {
    const chart = await as("manager").tapeChart.window({ property_id: hotel.propertyId, from: d(14), nights: 14 });
    expect(chart.stays.map((s) => s.reservation_id)).toEqual([later.id]);
    expect(chart.blocks).toEqual([]);
    expect(chart.nights).toHaveLength(14);
  });

  it("is for those who change stays: housekeeping is refused, another account's property is missing, bad windows are refused", async () => {
    expect((await failure(as("housekeeping").tapeChart.window({ property_id: hotel.propertyId }))).code).toBe("FORBIDDEN");
    const other = await h.newAccount("Other Hotels");
    expect((await failure(as("owner", other.account.id).tapeChart.window({ property_id: hotel.propertyId }))).code).toBe("NOT_FOUND");
    expect((await failure(as("owner").tapeChart.window({ property_id: hotel.propertyId, nights: 0 }))).code).toBe("UNPROCESSABLE_CONTENT");
    expect((await failure(as("owner").tapeChart.window({ property_id: hotel.propertyId, nights: 63 }))).code).toBe("UNPROCESSABLE_CONTENT");
    expect((await failure(as("owner").tapeChart.window({ property_id: hotel.propertyId, from: "2026-13-01" }))).code).toBe("UNPROCESSABLE_CONTENT");
  });
});

describe("the price of a drag", () => {
  it("extending a stay in house by two nights costs two more nights at 129.00", async () => {
    const p = await as("front_desk").tapeChart.preview({ reservation_id: inHouse.id, check_out: d(4) });
    expect(p).toMatchObject({
      kind: "departure",
      before: { total: { amount: 25_800 }, nights: 2, check_out: d(2) },
      after: { total: { amount: 51_600 }, nights: 4, check_out: d(4) },
      fee: { amount: 0 },
      difference: { amount: 25_800, currency: "USD" },
    });
    // Nothing was kept.
    const [row] = await h.db.select().from(reservations).where(eq(reservations.id, inHouse.id));
    expect(row).toMatchObject({ checkOut: d(2), totalAmount: 25_800 });
  });

  it("shortening a stay in house gives back the nights and adds the plan's early-departure fee", async () => {
    ok(await h.patch(`/v1/rate_plans/${std.ratePlanId}`, { early_departure_fee: { type: "percent", percent: 50 } }, api));
    const p = await as("front_desk").tapeChart.preview({ reservation_id: shortened.id, check_out: d(1) });
    // 3 nights (38,700) become 1 (12,900); half the two given back (25,800) is the fee, 12,900.
    expect(p).toMatchObject({
      kind: "departure",
      before: { total: { amount: 38_700 }, nights: 3 },
      after: { total: { amount: 12_900 }, nights: 1, check_out: d(1) },
      fee: { amount: 12_900 },
      difference: { amount: -12_900 },
    });
  });

  it("a confirmed stay to the suite is re-quoted at 200.00 a night", async () => {
    const p = await as("front_desk").tapeChart.preview({ reservation_id: confirmed.id, room_type_id: suite.roomTypeId });
    expect(p).toMatchObject({
      kind: "room_type",
      before: { total: { amount: 25_800 }, room_type_id: std.roomTypeId },
      after: { total: { amount: 40_000 }, room_type_id: suite.roomTypeId, nights: 2 },
      difference: { amount: 14_200 },
    });
  });

  it("a confirmed stay one night longer is one more night at 129.00", async () => {
    const p = await as("front_desk").tapeChart.preview({ reservation_id: confirmed.id, check_out: d(4) });
    expect(p).toMatchObject({ kind: "dates", after: { total: { amount: 38_700 }, nights: 3 }, difference: { amount: 12_900 } });
  });
});

describe("saving and refusals", () => {
  it("refuses a room that is occupied, out of order or of another type, and a room for a confirmed stay, in words", async () => {
    const front = as("front_desk");
    const occupied = await failure(front.tapeChart.preview({ reservation_id: inHouse.id, room_id: std.roomIds[1] }));
    expect(occupied).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid" } });
    expect(occupied.message).toMatch(/not ready \(occupied\)/);
    const broken = await failure(front.tapeChart.save({ reservation_id: inHouse.id, room_id: std.roomIds[3] }));
    expect(broken.message).toMatch(/not ready \(out-of-order\)/);
    const otherType = await failure(front.tapeChart.preview({ reservation_id: inHouse.id, room_id: suite.roomIds[0] }));
    expect(otherType.message).toMatch(/another room type/);
    const notYet = await failure(front.tapeChart.preview({ reservation_id: confirmed.id, room_id: std.roomIds[2] }));
    expect(notYet).toMatchObject({ code: "CONFLICT", api: { code: "invalid_state_transition" } });
    const uncovered = await failure(front.tapeChart.preview({ reservation_id: confirmed.id, room_type_id: single.roomTypeId }));
    expect(uncovered).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "rate_plan_id" } });
    const inHouseType = await failure(front.tapeChart.preview({ reservation_id: inHouse.id, room_type_id: suite.roomTypeId }));
    expect(inHouseType.api?.code).toBe("invalid_state_transition");
    const [row] = await h.db.select().from(reservations).where(eq(reservations.id, inHouse.id));
    expect(row.roomId).toBe(std.roomIds[0]);
  });

  it("refuses a type with no room left on those nights", async () => {
    const other = await book(suite, d(1), d(2), "Suiteguest");
    const full = await failure(as("front_desk").tapeChart.preview({ reservation_id: confirmed.id, room_type_id: suite.roomTypeId }));
    expect(full.api?.code).toBe("no_availability");
    await as("front_desk").reservations.cancel({ id: other.id });
  });

  it("moves the guest in house to a free clean room: no change in price, the old room dirty, on the trail", async () => {
    const front = as("front_desk");
    const p = await front.tapeChart.preview({ reservation_id: inHouse.id, room_id: std.roomIds[2] });
    expect(p).toMatchObject({ kind: "room", before: { room_id: std.roomIds[0] }, after: { room_id: std.roomIds[2] }, difference: { amount: 0 } });
    const saved = await front.tapeChart.save({ reservation_id: inHouse.id, room_id: std.roomIds[2] });
    expect(saved).toMatchObject({ kind: "room", reservation: { room_id: std.roomIds[2], total: { amount: 25_800 } } });
    const [left] = await h.db.select().from(rooms).where(eq(rooms.id, std.roomIds[0]));
    expect(left).toMatchObject({ occupied: false, housekeepingStatus: "dirty" });
    const trail = await front.audit.list({ object_type: "reservation", object_id: inHouse.id });
    expect(trail.data[0].action).toBe("reservation.room_moved");
  });

  it("extends the stay in house as previewed and records the departure change", async () => {
    const front = as("front_desk");
    const saved = await front.tapeChart.save({ reservation_id: inHouse.id, check_out: d(4) });
    expect(saved).toMatchObject({ kind: "departure", reservation: { check_out: d(4), nights: 4, total: { amount: 51_600 } } });
    const trail = await front.audit.list({ object_type: "reservation", object_id: inHouse.id });
    expect(trail.data[0].action).toBe("reservation.departure_changed");
    const chart = await front.tapeChart.window({ property_id: hotel.propertyId });
    expect(chart.stays.find((s) => s.reservation_id === inHouse.id)).toMatchObject({ room_id: std.roomIds[2], check_out: d(4) });
  });

  it("upgrades the confirmed stay to the suite at the previewed price", async () => {
    const saved = await as("manager").tapeChart.save({ reservation_id: confirmed.id, room_type_id: suite.roomTypeId });
    expect(saved).toMatchObject({ kind: "room_type", reservation: { room_type_id: suite.roomTypeId, total: { amount: 40_000 } } });
  });

  it("refuses housekeeping and unknown stays", async () => {
    expect((await failure(as("housekeeping").tapeChart.save({ reservation_id: inHouse.id, check_out: d(5) }))).code).toBe("FORBIDDEN");
    expect((await failure(as("front_desk").tapeChart.preview({ reservation_id: "res_nope", check_out: d(5) }))).code).toBe("NOT_FOUND");
    expect((await failure(as("front_desk").tapeChart.preview({ reservation_id: inHouse.id } as never))).code).toBe("UNPROCESSABLE_CONTENT");
  });
});
