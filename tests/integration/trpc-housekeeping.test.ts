import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HousekeepingStatus } from "@/db/schema";
import { createUser, type StaffRole } from "@/server/auth/users";
import { addDays } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import { housekeepingTransitions } from "@/server/housekeeping/transitions";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue #9: the housekeeping board, assignments and the availability calendar through tRPC,
// over the same services as /v1, with the role table of lib/access.ts.

let h: Harness;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let setup: RoomTypeSetup;
const api: Caller = { token: "" };
const maria = "Maria.Clean@test.example";
const emails: Record<StaffRole, string> = { owner: "owner@test.example", manager: "manager@test.example", front_desk: "desk@test.example", housekeeping: maria.toLowerCase() };

const session = (role: StaffRole, accountId = h.main.account.id, email = emails[role]): StaffSession => ({
  user: { id: `usr_${role}`, accountId, role, name: role, email },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole | null, options: { accountId?: string; email?: string } = {}) =>
  createCaller({ db: h.db, session: role ? session(role, options.accountId, options.email) : null, livemode: true });

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

let roomCount = 0;
async function newRoom() {
  return ok(await h.post("/v1/rooms", { room_type_id: setup.roomTypeId, number: `B${++roomCount}`, floor: 3 }, api), 201) as { id: string; number: string };
}
const trail = (objectType: string, id: string) => as("owner").audit.list({ object_type: objectType, object_id: id });

beforeAll(async () => {
  h = await startHarness();
  api.token = h.main.token;
  hotel = await liveHotel(h, h.main.account.id);
  setup = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 0, days: 40 });
  await createUser({ db: h.db, input: { accountId: h.main.account.id, email: maria, password: "password-123", role: "housekeeping", name: "Maria" } });
});
afterAll(async () => h?.close());

describe("housekeeping board through tRPC", { timeout: 60_000 }, () => {
  it("lets each role do what access.ts gives it, and nothing without a session", async () => {
    const room = await newRoom();
    const property_id = hotel.propertyId;
    expect((await failure(as(null).housekeeping.board({ property_id }))).code).toBe("UNAUTHORIZED");
    for (const role of ["owner", "manager", "front_desk", "housekeeping"] as const) {
      const board = await as(role).housekeeping.board({ property_id });
      expect(board.rooms.map((r) => r.id)).toContain(room.id);
      await as(role).housekeeping.assignments.list({ date: hotel.today });
    }
    // front_desk reads the board but changes nothing on it.
    expect((await failure(as("front_desk").housekeeping.changeStatus({ room_id: room.id, status: "dirty" }))).code).toBe("FORBIDDEN");
    expect((await failure(as("front_desk").housekeeping.assignments.create({ property_id, date: hotel.today, room_id: room.id, assignee: maria }))).code).toBe("FORBIDDEN");
    // Assigning is for owners and managers; a housekeeper works their own assignments only.
    expect((await failure(as("housekeeping").housekeeping.assignments.create({ property_id, date: hotel.today, room_id: room.id, assignee: maria }))).code).toBe("FORBIDDEN");
    // The calendar is the availability area: not for housekeeping.
    expect((await failure(as("housekeeping").inventory.calendar({ property_id, from: hotel.today }))).code).toBe("FORBIDDEN");
    expect((await failure(as("housekeeping").inventory.night({ property_id, date: hotel.today }))).code).toBe("FORBIDDEN");
    await as("front_desk").inventory.calendar({ property_id, from: hotel.today });
    // Nothing of another account: its property is missing.
    const other = await h.newAccount("Elsewhere");
    expect((await failure(as("owner", { accountId: other.account.id }).housekeeping.board({ property_id }))).api?.code).toBe("resource_missing");
    expect((await failure(as("owner", { accountId: other.account.id }).housekeeping.changeStatus({ room_id: room.id, status: "dirty" }))).code).toBe("NOT_FOUND");
    expect((await as("housekeeping").housekeeping.room({ id: room.id })).number).toBe(room.number);
  });

  it("offers each room only the transitions the status machine allows, and refuses the others unchanged", async () => {
    const room = await newRoom();
    const manager = as("manager");
    const statusOf = async () => (await manager.housekeeping.board({ property_id: hotel.propertyId })).rooms.find((r) => r.id === room.id)!;
    expect((await statusOf()).next_statuses).toEqual(housekeepingTransitions.clean);

    const walk: HousekeepingStatus[] = ["dirty", "clean", "inspected"];
    for (const status of walk) {
      const after = await as("housekeeping").housekeeping.changeStatus({ room_id: room.id, status });
      expect(after.housekeeping_status).toBe(status);
      expect((await statusOf()).next_statuses).toEqual(housekeepingTransitions[status]);
    }
    // inspected → clean is not a transition: refused with the contract's code, nothing recorded.
    const refused = await failure(manager.housekeeping.changeStatus({ room_id: room.id, status: "clean" }));
    expect(refused).toMatchObject({ code: "CONFLICT", api: { code: "invalid_state_transition", param: "status" } });
    expect((await statusOf()).housekeeping_status).toBe("inspected");
    const missingReason = await failure(manager.housekeeping.changeStatus({ room_id: room.id, status: "out-of-order" }));
    expect(missingReason.api).toMatchObject({ code: "parameter_missing", param: "reason" });
    const pastUntil = await failure(manager.housekeeping.changeStatus({ room_id: room.id, status: "out-of-order", reason: "Leak", until: hotel.today }));
    expect(pastUntil.api).toMatchObject({ code: "parameter_invalid", param: "until" });
    const stray = await failure(manager.housekeeping.changeStatus({ room_id: room.id, status: "dirty", reason: "why" }));
    expect(stray.api).toMatchObject({ code: "parameter_invalid", param: "reason" });
    // The three moves, after the room's creation through /v1 (by the API key).
    expect((await trail("room", room.id)).data.map((e) => [e.action, e.actor.type])).toEqual([
      ["room.marked_inspected", "staff"],
      ["room.marked_clean", "staff"],
      ["room.marked_dirty", "staff"],
      ["room.created", "api_key"],
    ]);

    // Out of order with a reason and an end date takes the room off sale for those nights.
    const before = await inventoryOf(h, api, hotel.propertyId, setup.roomTypeId, hotel.today, addDays(hotel.today, 3));
    const ooo = await manager.housekeeping.changeStatus({ room_id: room.id, status: "out-of-order", reason: "Broken window", until: addDays(hotel.today, 2) });
    expect(ooo).toMatchObject({ housekeeping_status: "out-of-order", out_of_order_reason: "Broken window", out_of_order_until: addDays(hotel.today, 2) });
    const after = await inventoryOf(h, api, hotel.propertyId, setup.roomTypeId, hotel.today, addDays(hotel.today, 3));
    expect(after.get(hotel.today)!.out_of_order).toBe(before.get(hotel.today)!.out_of_order + 1);
    expect(after.get(addDays(hotel.today, 2))!.out_of_order).toBe(before.get(addDays(hotel.today, 2))!.out_of_order);
    expect((await statusOf()).next_statuses).toEqual(["dirty"]);

    const entries = (await trail("room", room.id)).data;
    expect(entries.map((e) => e.action)).toEqual(["room.out_of_order", "room.marked_inspected", "room.marked_clean", "room.marked_dirty", "room.created"]);
    expect(entries[0]).toMatchObject({ actor: { email: emails.manager }, before: { housekeeping_status: "inspected" }, after: { housekeeping_status: "out-of-order" } });
    expect(entries.at(-2)!.actor.email).toBe(emails.housekeeping);
  });

  it("marks occupancy, today's arrivals, departures and the arrivals still to come", async () => {
    const stayRoom = await newRoom();
    const leaveRoom = await newRoom();
    const book = async (email: string, nights = 2) =>
      ok(await h.post("/v1/reservations", bookingBody({ ...setup, propertyId: hotel.propertyId }, hotel.today, addDays(hotel.today, nights), { guest: { first_name: "Grace", last_name: email, email } }), api), 201);
    const staying = await book("stay@example.com");
    ok(await h.post(`/v1/reservations/${staying.id}/check_in`, { room_id: stayRoom.id }, api));
    // One night, so that leaving today is on time: a stay left early is shortened, and a guest who
    // paid for nights not stayed is owed a refund before check-out.
    const leaving = await book("leave@example.com", 1);
    ok(await h.post(`/v1/reservations/${leaving.id}/check_in`, { room_id: leaveRoom.id }, api));
    ok(await h.post("/v1/payments", { reservation_id: leaving.id, payment_method: { type: "cash" } }, api), 201);
    ok(await h.post(`/v1/reservations/${leaving.id}/check_out`, {}, api));
    await book("later@example.com");

    const board = await as("front_desk").housekeeping.board({ property_id: hotel.propertyId });
    expect(board.today).toBe(hotel.today);
    const stay = board.rooms.find((r) => r.id === stayRoom.id)!;
    expect(stay).toMatchObject({ occupied: true, arrival: true, departure: null, stay: { reservation_id: staying.id, guest_name: "Grace stay@example.com", status: "checked_in" } });
    const left = board.rooms.find((r) => r.id === leaveRoom.id)!;
    expect(left).toMatchObject({ occupied: false, housekeeping_status: "dirty", arrival: false, departure: "departed", stay: { reservation_id: leaving.id } });
    const type = board.room_types.find((t) => t.id === setup.roomTypeId)!;
    expect(type.arrivals_pending).toBe(1);
  });
});

describe("housekeeping assignments through tRPC", { timeout: 60_000 }, () => {
  it("assigns by housekeeper; a housekeeper sees and works only their own", async () => {
    const [mine, theirs] = [await newRoom(), await newRoom()];
    const manager = as("manager");
    const base = { property_id: hotel.propertyId, date: addDays(hotel.today, 1) };
    // The housekeeper is named by e-mail; case does not matter.
    const a = await manager.housekeeping.assignments.create({ ...base, room_id: mine.id, assignee: maria.toUpperCase() });
    const b = await manager.housekeeping.assignments.create({ ...base, room_id: theirs.id, assignee: "jo@test.example" });
    expect((await manager.housekeeping.assignments.housekeepers()).map((u) => u.email)).toEqual([maria.toLowerCase()]);

    const all = await manager.housekeeping.assignments.list({ date: base.date });
    expect(all.data.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    expect((await as("front_desk").housekeeping.assignments.list({ date: base.date })).data).toHaveLength(2);
    const housekeeper = as("housekeeping");
    expect((await housekeeper.housekeeping.assignments.list({ date: base.date })).data.map((x) => x.id)).toEqual([a.id]);
    // Asking for someone else's by name still answers only their own.
    expect((await housekeeper.housekeeping.assignments.list({ date: base.date, assignee: "jo@test.example" })).data.map((x) => x.id)).toEqual([a.id]);

    expect((await housekeeper.housekeeping.assignments.update({ id: a.id, status: "in_progress" })).status).toBe("in_progress");
    expect((await failure(housekeeper.housekeeping.assignments.update({ id: b.id, status: "done" }))).api?.code).toBe("resource_missing");
    expect((await failure(housekeeper.housekeeping.assignments.update({ id: a.id, assignee: "jo@test.example" }))).code).toBe("FORBIDDEN");
    expect((await failure(housekeeper.housekeeping.assignments.delete({ id: a.id }))).code).toBe("FORBIDDEN");
    expect((await failure(as("front_desk").housekeeping.assignments.update({ id: a.id, status: "done" }))).code).toBe("FORBIDDEN");
    const back = await failure(housekeeper.housekeeping.assignments.update({ id: a.id, status: "pending" }));
    expect(back).toMatchObject({ code: "CONFLICT", api: { code: "invalid_state_transition", param: "status" } });
    const bad = await failure(manager.housekeeping.assignments.create({ ...base, room_id: mine.id, assignee: " " }));
    expect(bad.api).toMatchObject({ code: "parameter_invalid", param: "assignee" });
    const b2 = await failure(manager.housekeeping.assignments.list({ date: "2026-13-40" }));
    expect(b2.api?.param).toBe("date");

    expect((await housekeeper.housekeeping.assignments.update({ id: a.id, status: "done" })).status).toBe("done");
    expect((await manager.housekeeping.assignments.update({ id: b.id, assignee: maria })).assignee).toBe(maria);
    expect((await housekeeper.housekeeping.assignments.list({ date: base.date })).data).toHaveLength(2);
    await manager.housekeeping.assignments.delete({ id: b.id });
    expect((await housekeeper.housekeeping.assignments.list({ date: base.date })).data.map((x) => x.id)).toEqual([a.id]);
    expect((await ok(await h.get(`/v1/housekeeping/assignments?date=${base.date}`, api)).data).map((x: { id: string }) => x.id)).toEqual([a.id]);

    const entries = (await trail("housekeeping_assignment", a.id)).data.map((e) => e.action);
    expect(entries).toEqual(["housekeeping_assignment.updated", "housekeeping_assignment.updated", "housekeeping_assignment.created"]);
    expect((await trail("housekeeping_assignment", b.id)).data.map((e) => e.action)).toEqual(["housekeeping_assignment.deleted", "housekeeping_assignment.updated", "housekeeping_assignment.created"]);
  });
});

describe("availability calendar through tRPC", { timeout: 60_000 }, () => {
  it("shows sold, held, out of order and available per room type and night, and the night's bookings", async () => {
    const own = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 3, days: 40 });
    const d = (n: number) => addDays(hotel.today, n);
    const booking = ok(await h.post("/v1/reservations", bookingBody({ ...own, propertyId: hotel.propertyId }, d(1), d(3)), api), 201);
    ok(await h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: own.roomTypeId, from: d(2), to: d(4), rooms: 1 }, api), 201);
    ok(await h.post(`/v1/rooms/${own.roomIds[0]}/housekeeping`, { status: "out-of-order", reason: "Paint", until: d(3) }, api));

    const cal = await as("front_desk").inventory.calendar({ property_id: hotel.propertyId, from: hotel.today });
    expect(cal.from).toBe(hotel.today);
    expect(cal.to).toBe(d(30));
    expect(cal.room_types.map((t) => t.id)).toContain(own.roomTypeId);
    const cell = (n: number) => cal.data.find((c) => c.room_type_id === own.roomTypeId && c.date === d(n))!;
    expect(cell(0)).toMatchObject({ total: 3, sold: 0, held: 0, out_of_order: 1, available: 2 });
    expect(cell(1)).toMatchObject({ sold: 1, held: 0, out_of_order: 1, available: 1 });
    expect(cell(2)).toMatchObject({ sold: 1, held: 1, out_of_order: 1, available: 0 });
    expect(cell(3)).toMatchObject({ sold: 0, held: 1, out_of_order: 0, available: 2 });
    expect(cal.data.filter((c) => c.room_type_id === own.roomTypeId)).toHaveLength(30);
    const week = await as("manager").inventory.calendar({ property_id: hotel.propertyId, from: d(30), days: 7 });
    expect(new Set(week.data.map((c) => c.date)).size).toBe(7);

    const night = await as("front_desk").inventory.night({ property_id: hotel.propertyId, room_type_id: own.roomTypeId, date: d(2) });
    expect(night.data.map((r) => r.id)).toEqual([booking.id]);
    expect((await as("front_desk").inventory.night({ property_id: hotel.propertyId, room_type_id: own.roomTypeId, date: d(3) })).data).toEqual([]);
    ok(await h.post(`/v1/reservations/${booking.id}/cancel`, {}, api));
    expect((await as("front_desk").inventory.night({ property_id: hotel.propertyId, room_type_id: own.roomTypeId, date: d(2) })).data).toEqual([]);

    const tooLong = await failure(as("manager").inventory.calendar({ property_id: hotel.propertyId, from: hotel.today, days: 400 }));
    expect(tooLong.api?.param).toBe("days");
    const badDate = await failure(as("manager").inventory.night({ property_id: hotel.propertyId, date: "tomorrow" }));
    expect(badDate.api?.param).toBe("date");
  });

  it("gives each cell every active rate plan's rate and restrictions that night, as the quotes read them", async () => {
    const own = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 2, days: 10, amount: 12_000 });
    const d = (n: number) => addDays(hotel.today, n);
    // A second plan on the same type, with rates on the first five nights only; a third, inactive.
    const second = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: `NRF${Date.now().toString(36)}`, name: "Non-refundable", room_type_ids: [own.roomTypeId] }, api), 201);
    ok(await h.post(`/v1/rate_plans/${second.id}/rates`, { room_type_id: own.roomTypeId, from: d(0), to: d(5), amount: 9_000 }, api));
    const inactive = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: `OLD${Date.now().toString(36)}`, name: "Old", room_type_ids: [own.roomTypeId] }, api), 201);
    ok(await h.patch(`/v1/rate_plans/${inactive.id}`, { active: false }, api));
    // Night 1: stop-sell on both plans. Night 2: stop-sell on one, closed to arrival on the other. Night 3: minimum stay 3 and closed to departure.
    ok(await h.post(`/v1/rate_plans/${own.ratePlanId}/rates`, { room_type_id: own.roomTypeId, from: d(1), to: d(3), stop_sell: true }, api));
    ok(await h.post(`/v1/rate_plans/${second.id}/rates`, { room_type_id: own.roomTypeId, from: d(1), to: d(2), stop_sell: true }, api));
    ok(await h.post(`/v1/rate_plans/${second.id}/rates`, { room_type_id: own.roomTypeId, from: d(2), to: d(3), closed_to_arrival: true }, api));
    ok(await h.post(`/v1/rate_plans/${own.ratePlanId}/rates`, { room_type_id: own.roomTypeId, from: d(3), to: d(4), min_stay: 3, closed_to_departure: true }, api));

    const cal = await as("front_desk").inventory.calendar({ property_id: hotel.propertyId, from: hotel.today, days: 7 });
    const codes = new Map(cal.rate_plans.map((p) => [p.id, p.code]));
    expect(codes.has(own.ratePlanId) && codes.has(second.id)).toBe(true);
    expect(codes.has(inactive.id)).toBe(false);
    const rates = (n: number) => cal.data.find((c) => c.room_type_id === own.roomTypeId && c.date === d(n))!.rates;
    const of = (n: number, planId: string) => rates(n).find((r) => r.rate_plan_id === planId);
    expect(rates(0)).toHaveLength(2);
    expect(of(0, own.ratePlanId)).toEqual({ rate_plan_id: own.ratePlanId, amount: 12_000, min_stay: 1, closed_to_arrival: false, closed_to_departure: false, stop_sell: false });
    expect(of(0, second.id)).toMatchObject({ amount: 9_000, stop_sell: false });
    expect(rates(1).map((r) => r.stop_sell)).toEqual([true, true]);
    expect(of(2, own.ratePlanId)).toMatchObject({ stop_sell: true, closed_to_arrival: false });
    expect(of(2, second.id)).toMatchObject({ stop_sell: false, closed_to_arrival: true });
    expect(of(3, own.ratePlanId)).toMatchObject({ min_stay: 3, closed_to_departure: true, stop_sell: false });
    // The second plan has no rate past night 4: the cell says so rather than inventing one.
    expect(of(5, second.id)).toMatchObject({ amount: null, stop_sell: false });
    // The quotes agree with what the calendar shows.
    const quote = ok(await h.get(`/v1/availability?property_id=${hotel.propertyId}&room_type_id=${own.roomTypeId}&check_in=${d(1)}&check_out=${d(2)}&adults=1`, api));
    expect(quote.data[0].quotes.map((q: { reason?: string }) => q.reason)).toEqual(["stop_sell", "stop_sell"]);

    // A type no active plan covers has cells with no rates.
    const bare = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 1, days: 1 });
    ok(await h.patch(`/v1/rate_plans/${bare.ratePlanId}`, { active: false }, api));
    const again = await as("manager").inventory.calendar({ property_id: hotel.propertyId, from: hotel.today, days: 2 });
    expect(again.data.filter((c) => c.room_type_id === bare.roomTypeId).map((c) => c.rates)).toEqual([[], []]);
  });

  it("shows nothing of a property of another account, its rates included", async () => {
    const other = await h.newAccount("Calendar elsewhere");
    const refused = await failure(as("manager", { accountId: other.account.id }).inventory.calendar({ property_id: hotel.propertyId, from: hotel.today }));
    expect(refused.api?.code).toBe("resource_missing");
  });
});
