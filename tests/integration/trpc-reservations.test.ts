import { TRPCError } from "@trpc/server";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, folioCharges, payments, properties, reservations, rooms } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { addDays, todayIn } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, eventsFor, insertProperty, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// The front desk's tRPC procedures (issue #9) over the /v1 services, against a real database:
// setup through /v1, everything else through createCaller as the dashboard calls it. It all
// happens in the sandbox, where the test cards work (live cards need a processor).

let h: Harness;
let api: Caller;
let hotel: { propertyId: string; timezone: string; today: string };
let std: RoomTypeSetup;
let single: RoomTypeSetup;
const d = (n: number) => addDays(hotel.today, n);

const session = (role: StaffRole, accountId = h.main.account.id): StaffSession => ({
  user: { id: `usr_${role}`, accountId, role, name: role, email: `${role}@desk.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole, livemode = false, accountId?: string) => createCaller({ db: h.db, session: session(role, accountId), livemode });

/** The TRPCError a call fails with, and the contract error behind it. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, message: trpc.message, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

const booking = (
  t: RoomTypeSetup,
  checkIn: string,
  checkOut: string,
  guest: { first_name: string; last_name: string; email: string },
  extra: Record<string, unknown> = {},
) => ({
  property_id: hotel.propertyId,
  room_type_id: t.roomTypeId,
  rate_plan_id: t.ratePlanId,
  check_in: checkIn,
  check_out: checkOut,
  adults: 1,
  guest,
  source: "walk_in" as const,
  ...extra,
});

beforeAll(async () => {
  h = await startHarness();
  api = { token: h.main.token, sandbox: true };
  const property = await insertProperty(h, h.main.account.id, { livemode: false, name: "Desk Test Inn" });
  hotel = { propertyId: property.id, timezone: property.timezone, today: todayIn(property.timezone) };
  std = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 3, amount: 12_900 });
  single = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 1, amount: 9_000, refundable: false });
}, 120_000);
afterAll(async () => h?.close());

describe("roles", () => {
  it("lets the front desk in and keeps housekeeping out of every reservation, folio and payment procedure", async () => {
    const front = as("front_desk");
    expect((await front.reservations.search({ property_id: hotel.propertyId })).object).toBe("list");
    const hk = as("housekeeping");
    const refusals = [
      hk.reservations.search({ property_id: hotel.propertyId }),
      hk.reservations.get({ id: "res_x" }),
      hk.reservations.lookups({ property_id: hotel.propertyId }),
      hk.reservations.quote({ property_id: hotel.propertyId, check_in: d(1), check_out: d(2), adults: 1, children: 0 }),
      hk.reservations.create(booking(std, d(1), d(2), { first_name: "H", last_name: "K", email: "hk@example.com" })),
      hk.reservations.checkIn({ id: "res_x" }),
      hk.reservations.checkOut({ id: "res_x" }),
      hk.reservations.cancel({ id: "res_x" }),
      hk.reservations.noShow({ id: "res_x" }),
      hk.reservations.lateCheckOut({ id: "res_x" }),
      hk.reservations.previewLateCheckOut({ id: "res_x" }),
      hk.reservations.readyRooms({ id: "res_x" }),
      hk.folios.get({ reservation_id: "res_x" }),
      hk.folios.addCharge({ reservation_id: "res_x", description: "x", amount: 100 }),
      hk.payments.create({ reservation_id: "res_x", payment_method: { type: "cash" }, capture: true }),
      hk.payments.refund({ payment_id: "pay_x" }),
    ];
    for (const call of refusals) {
      const f = await failure(call);
      expect(f.code).toBe("FORBIDDEN");
      expect(f.message).toBe("Your role does not give access to this.");
    }
    const none = await failure(createCaller({ db: h.db, session: null, livemode: true }).reservations.search({}));
    expect(none.code).toBe("UNAUTHORIZED");
  });
});

describe("a front-desk day through tRPC", () => {
  it("quotes, books a walk-in, checks in to a chosen clean room, charges, pays, checks out; the room turns dirty and every step is on the trail", async () => {
    const front = as("front_desk");
    const quote = await front.reservations.quote({ property_id: hotel.propertyId, check_in: d(0), check_out: d(2), adults: 2, children: 0 });
    const type = quote.data.find((t) => t.room_type_id === std.roomTypeId)!;
    expect(type.quotes[0]).toMatchObject({ rate_plan_id: std.ratePlanId, total: { amount: 25_800, currency: "USD" }, bookable: true });

    const created = await front.reservations.create(booking(std, d(0), d(2), { first_name: "Walk", last_name: "In", email: "walk.in@example.com" }));
    expect(created).toMatchObject({ status: "confirmed", livemode: false, source: "walk_in", total: { amount: 25_800 } });

    const desk = await front.reservations.get({ id: created.id });
    expect(desk.property.today).toBe(hotel.today);
    expect(desk.room_type.id).toBe(std.roomTypeId);
    expect(desk.rate_plan).toMatchObject({ id: std.ratePlanId, refundable: true, cancellation_deadline_hours: 24 });
    expect(desk.actions).toMatchObject({
      modify: { allowed: true },
      cancel: { allowed: true },
      check_in: { allowed: true },
      check_out: { allowed: false },
      no_show: { allowed: false },
    });
    expect(desk.actions.no_show.reason).toContain(d(0));

    // Today's arrivals list it; in-house does not yet.
    const arrivals = await front.reservations.search({ property_id: hotel.propertyId, view: "arrivals" });
    expect(arrivals.today).toBe(hotel.today);
    expect(arrivals.data.map((r) => r.id)).toContain(created.id);
    expect((await front.reservations.search({ property_id: hotel.propertyId, view: "in_house" })).data.map((r) => r.id)).not.toContain(created.id);

    // One room made dirty is not offered; the clerk picks the last clean one.
    await h.db.update(rooms).set({ housekeepingStatus: "dirty" }).where(eq(rooms.id, std.roomIds[0]));
    const ready = await front.reservations.readyRooms({ id: created.id });
    expect(ready.map((r) => r.id)).toEqual([std.roomIds[1], std.roomIds[2]]);
    const dirty = await failure(front.reservations.checkIn({ id: created.id, room_id: std.roomIds[0] }));
    expect(dirty).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "room_id" } });
    expect(dirty.message).toMatch(/not ready \(dirty\)/);

    const checkedIn = await front.reservations.checkIn({ id: created.id, room_id: std.roomIds[2] });
    expect(checkedIn).toMatchObject({ status: "checked_in", room_id: std.roomIds[2] });
    expect(
      (await front.reservations.search({ property_id: hotel.propertyId, view: "in_house" })).data.find((r) => r.id === created.id),
    ).toMatchObject({
      room_number: expect.any(String),
      room_type: { name: "Test room" },
    });

    const charge = await front.folios.addCharge({ reservation_id: created.id, description: "Minibar", amount: 1_200 });
    expect(charge).toMatchObject({ kind: "extra", description: "Minibar", amount: { amount: 1_200, currency: "USD" } });
    expect((await front.folios.get({ reservation_id: created.id })).balance.amount).toBe(27_000);

    // Check-out with the balance open: refused, with the reason in words.
    const open = await failure(front.reservations.checkOut({ id: created.id }));
    expect(open).toMatchObject({ code: "CONFLICT", api: { code: "balance_outstanding" } });
    // Leaving today drops the second night: the refusal says so, and what is then owed, in money.
    expect(open.message).toMatch(/^Checking out today ends the stay on .*: 1 night .* comes off the folio.*; the guest would then owe USD 141\.00\./);
    expect(open.api?.amount).toEqual({ amount: 14_100, currency: "USD" });

    // The guest leaves today, a night early: what is due is the arrival night and the minibar
    // (12,900 + 1,200); the second night comes off the folio at check-out.
    const paid = await front.payments.create({ reservation_id: created.id, amount: 14_100, payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2040, cvc: "123" }, capture: true });
    expect(paid).toMatchObject({ status: "succeeded", amount: { amount: 14_100 }, payment_method: { type: "card", last4: "4242" } });
    const out = await front.reservations.checkOut({ id: created.id });
    expect(out).toMatchObject({ status: "checked_out", check_out: d(1), nights: 1, total: { amount: 12_900 } });
    expect((await front.folios.get({ reservation_id: created.id })).balance.amount).toBe(0);
    const [room] = await h.db.select().from(rooms).where(eq(rooms.id, std.roomIds[2]));
    expect(room).toMatchObject({ housekeepingStatus: "dirty", occupied: false });
    expect((await front.reservations.search({ property_id: hotel.propertyId, view: "departures" })).data.map((r) => r.id)).toContain(created.id);

    const trail = await front.audit.list({ object_type: "reservation", object_id: created.id });
    expect(trail.data.map((e) => e.action)).toEqual([
      "reservation.checked_out",
      "reservation.payment_taken",
      "reservation.charge_added",
      "reservation.checked_in",
      "reservation.created",
    ]);
    expect(trail.data[0]).toMatchObject({
      actor: { email: "front_desk@desk.example" },
      before: { status: "checked_in" },
      after: { status: "checked_out" },
    });
    expect(trail.data[1]).toMatchObject({
      before: { balance: { amount: 27_000, currency: "USD" } },
      after: { balance: { amount: 12_900, currency: "USD" }, payment: { method: "visa •••• 4242" } },
    });
    expect(trail.data[1].sentences).toEqual(["Balance from $270.00 to $129.00", "$141.00 by Visa ending 4242"]);
    expect(trail.data[2]).toMatchObject({
      before: { balance: { amount: 25_800 } },
      after: { balance: { amount: 27_000 }, charge: { description: "Minibar", amount: { amount: 1_200, currency: "USD" } } },
    });
    expect(trail.data[2].sentences).toEqual(["Balance from $258.00 to $270.00", "Minibar: $12.00"]);
  });

  it("a declined card answers 402 with its reason, leaves the balance as it was and is recorded", async () => {
    const front = as("front_desk");
    const r = await front.reservations.create(booking(std, d(3), d(4), { first_name: "Dee", last_name: "Clined", email: "declined@example.com" }));
    const before = await front.folios.get({ reservation_id: r.id });
    const declined = await failure(
      front.payments.create({
        reservation_id: r.id,
        payment_method: { type: "card", number: "4000000000000002", exp_month: 12, exp_year: 2040, cvc: "123" },
        capture: true,
      }),
    );
    expect(declined).toMatchObject({ code: "PAYMENT_REQUIRED", message: "The card was declined.", api: { code: "card_declined" } });
    const after = await front.folios.get({ reservation_id: r.id });
    expect(after.balance).toEqual(before.balance);
    expect(after.payments.map((p) => p.status)).toEqual(["failed"]);
    const trail = await front.audit.list({ object_type: "reservation", object_id: r.id });
    expect(trail.data[0]).toMatchObject({
      action: "reservation.payment_declined",
      before: { balance: { amount: 12_900 } },
      after: { balance: { amount: 12_900 } },
    });
    expect(trail.data[0].title).toBe("Payment declined");
  });

  it("refunds a payment, partly and then beyond what is left (amount_exceeds_refundable)", async () => {
    const front = as("front_desk");
    const r = await front.reservations.create(booking(std, d(5), d(6), { first_name: "Ray", last_name: "Fund", email: "refund@example.com" }));
    const cash = await front.payments.create({ reservation_id: r.id, payment_method: { type: "cash" }, capture: true });
    const part = await front.payments.refund({ payment_id: cash.id, amount: 2_900, reason: "Late check-in" });
    expect(part).toMatchObject({ amount: { amount: 2_900 }, reason: "Late check-in" });
    const over = await failure(front.payments.refund({ payment_id: cash.id, amount: 10_001 }));
    expect(over).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "amount_exceeds_refundable", param: "amount" } });
    expect(over.message).toContain("10000");
    expect((await front.folios.get({ reservation_id: r.id })).balance.amount).toBe(2_900);
    const missing = await failure(front.payments.refund({ payment_id: "pay_nope" }));
    expect(missing).toMatchObject({ code: "NOT_FOUND", api: { code: "resource_missing", param: "payment_id" } });
    expect((await front.audit.list({ object_type: "reservation", object_id: r.id })).data.map((e) => e.action).slice(0, 2)).toEqual([
      "reservation.refunded",
      "reservation.payment_taken",
    ]);
  });
});

describe("booking and modifying", () => {
  it("shows a sold-out room type as unbookable with the reason, and refuses to book it", async () => {
    const front = as("front_desk");
    await front.reservations.create(booking(single, d(10), d(12), { first_name: "Only", last_name: "One", email: "only.one@example.com" }));
    const quote = await front.reservations.quote({ property_id: hotel.propertyId, check_in: d(11), check_out: d(12), adults: 1, children: 0 });
    const sold = quote.data.find((t) => t.room_type_id === single.roomTypeId)!;
    expect(sold.available).toBe(0);
    expect(sold.quotes[0]).toMatchObject({ bookable: false, reason: "no_availability" });
    const refused = await failure(
      front.reservations.create(booking(single, d(11), d(12), { first_name: "Too", last_name: "Late", email: "too.late@example.com" })),
    );
    expect(refused).toMatchObject({ code: "CONFLICT", api: { code: "no_availability" } });
    const tooMany = await failure(
      front.reservations.create(booking(std, d(11), d(12), { first_name: "Big", last_name: "Party", email: "big@example.com" }, { adults: 3 })),
    );
    expect(tooMany).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "adults" } });
    expect(tooMany.message).toContain("sleeps at most 2");
    const badInput = await failure(
      front.reservations.create({ ...booking(std, d(11), d(12), { first_name: "X", last_name: "Y", email: "not-an-email" }) }),
    );
    expect(badInput.api).toMatchObject({ code: "parameter_invalid", param: "guest.email" });
  });

  it("matches the guest by e-mail, as the API does", async () => {
    const front = as("front_desk");
    const a = await front.reservations.create(booking(std, d(20), d(21), { first_name: "Mia", last_name: "Match", email: "mia@example.com" }));
    const b = await front.reservations.create(booking(std, d(22), d(23), { first_name: "Mia", last_name: "Match", email: "MIA@example.com" }));
    expect(b.guest.id).toBe(a.guest.id);
    const stays = await front.reservations.search({ guest_id: a.guest.id });
    // In order of stay: a arrives first.
    expect(stays.data.map((r) => r.id)).toEqual([a.id, b.id]);
  });

  it("previews a modification re-quoted without keeping it, then applies it", async () => {
    const front = as("front_desk");
    const r = await front.reservations.create(booking(std, d(30), d(31), { first_name: "Mo", last_name: "Dify", email: "modify@example.com" }));
    const preview = await front.reservations.previewUpdate({ id: r.id, check_out: d(33) });
    expect(preview).toMatchObject({ check_out: d(33), nights: 3, total: { amount: 38_700 } });
    const unchanged = await front.reservations.get({ id: r.id });
    expect(unchanged.reservation).toMatchObject({ check_out: d(31), total: { amount: 12_900 } });
    expect((await front.folios.get({ reservation_id: r.id })).charges).toHaveLength(1);
    // A preview that would oversell is refused as the update would be.
    await front.reservations.create(booking(single, d(40), d(41), { first_name: "Full", last_name: "House", email: "full@example.com" }));
    const full = await failure(
      front.reservations.previewUpdate({
        id: r.id,
        check_in: d(40),
        check_out: d(41),
        room_type_id: single.roomTypeId,
        rate_plan_id: single.ratePlanId,
      }),
    );
    expect(full.api?.code).toBe("no_availability");

    const updated = await front.reservations.update({ id: r.id, check_out: d(33) });
    expect(updated).toMatchObject({ check_out: d(33), total: { amount: 38_700 } });
    const trail = await front.audit.list({ object_type: "reservation", object_id: r.id });
    expect(trail.data[0]).toMatchObject({ action: "reservation.updated", before: { check_out: d(31) }, after: { check_out: d(33) } });
    expect(trail.data[0].changed).toEqual(expect.arrayContaining(["check_out", "nights", "total", "nightly"]));
  });

  it("cancels with the policy shown beforehand, and refuses what the state does not allow", async () => {
    const front = as("front_desk");
    const r = await front.reservations.create(booking(single, d(50), d(51), { first_name: "Can", last_name: "Cel", email: "cancel@example.com" }));
    const desk = await front.reservations.get({ id: r.id });
    expect(desk.rate_plan).toMatchObject({ refundable: false, free_cancellation_now: false });
    expect(desk.actions.check_in).toMatchObject({ allowed: false, reason: `Check-in opens on the arrival date, ${d(50)}.` });
    const cancelled = await front.reservations.cancel({ id: r.id, reason: "Change of plans" });
    expect(cancelled).toMatchObject({ status: "cancelled", cancellation_reason: "Change of plans" });
    // Non-refundable: the room charge stays as the cancellation charge.
    expect((await front.folios.get({ reservation_id: r.id })).balance.amount).toBe(9_000);
    const after = await front.reservations.get({ id: r.id });
    expect(Object.values(after.actions).every((a) => !a.allowed)).toBe(true);
    const again = await failure(front.reservations.cancel({ id: r.id }));
    expect(again).toMatchObject({
      code: "CONFLICT",
      message: "A cancelled reservation cannot become cancelled.",
      api: { code: "invalid_state_transition" },
    });
    const early = await front.reservations.create(booking(std, d(52), d(53), { first_name: "No", last_name: "Show", email: "noshow@example.com" }));
    const noShow = await failure(front.reservations.noShow({ id: early.id }));
    expect(noShow.message).toContain("once the arrival night");
    expect((await front.reservations.get({ id: early.id })).reservation.status).toBe("confirmed");
  });
});

describe("search", () => {
  it("finds by guest name, e-mail fragment or reservation id, with filters and cursor paging", async () => {
    const front = as("manager");
    const a = await front.reservations.create(
      booking(std, d(60), d(61), { first_name: "Zelda", last_name: "Quince", email: "zq@search.example" }, { source: "phone" }),
    );
    const b = await front.reservations.create(booking(std, d(62), d(63), { first_name: "Zelda", last_name: "Quince", email: "zq@search.example" }));
    const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);
    // In order of stay (a arrives first); newest first when asked.
    expect(ids(await front.reservations.search({ q: "zelda quince" }))).toEqual([a.id, b.id]);
    expect(ids(await front.reservations.search({ q: "zelda quince", order: "created" }))).toEqual([b.id, a.id]);
    expect(ids(await front.reservations.search({ q: "Quince, Zelda" }))).toEqual([a.id, b.id]);
    expect(ids(await front.reservations.search({ q: "@SEARCH.example" }))).toEqual([a.id, b.id]);
    expect(ids(await front.reservations.search({ q: a.id }))).toEqual([a.id]);
    expect(ids(await front.reservations.search({ q: "zelda", source: "phone" }))).toEqual([a.id]);
    expect(ids(await front.reservations.search({ q: "zelda", check_in_from: d(62), check_in_to: d(63) }))).toEqual([b.id]);
    expect(ids(await front.reservations.search({ q: "zelda", room_type_id: single.roomTypeId }))).toEqual([]);
    expect(ids(await front.reservations.search({ q: "%" }))).toEqual([]);
    const first = await front.reservations.search({ q: "zelda", limit: 1 });
    expect(first.has_more).toBe(true);
    const second = await front.reservations.search({ q: "zelda", limit: 1, cursor: first.next_cursor! });
    expect(ids(second)).toEqual([b.id]);
    const wrong = await failure(front.reservations.search({ q: "other", limit: 1, cursor: first.next_cursor! }));
    expect(wrong.api).toMatchObject({ code: "invalid_cursor" });
    const noProperty = await failure(front.reservations.search({ view: "arrivals" }));
    expect(noProperty.api).toMatchObject({ code: "parameter_missing", param: "property_id" });
  });

  it("keeps sandbox, live and other accounts apart", async () => {
    const front = as("front_desk");
    const r = await front.reservations.create(booking(std, d(70), d(71), { first_name: "Sand", last_name: "Only", email: "sand.only@example.com" }));
    expect((await failure(as("front_desk", true).reservations.get({ id: r.id }))).api?.code).toBe("resource_missing");
    expect((await as("front_desk", true).reservations.search({ q: "sand.only" })).data).toEqual([]);
    const other = await h.newAccount("Elsewhere");
    expect((await failure(as("owner", false, other.account.id).folios.get({ reservation_id: r.id }))).code).toBe("NOT_FOUND");
    const foreignPay = await failure(
      as("owner", false, other.account.id).payments.create({ reservation_id: r.id, payment_method: { type: "cash" }, capture: true }),
    );
    expect(foreignPay.api).toMatchObject({ code: "resource_missing", param: "reservation_id" });
    const [row] = await h.db.select().from(reservations).where(eq(reservations.id, r.id));
    expect(row.status).toBe("confirmed");
    expect(await h.db.select().from(payments).where(eq(payments.reservationId, r.id))).toEqual([]);
  });
});

describe("stays in house (issue 27)", () => {
  it("prices an early check-out before it, moves the guest, and shows the night audit's flash report", async () => {
    const front = as("front_desk");
    // Three nights of 12,900 from today in a fresh room type, checked in to its first room.
    const own = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 2, amount: 12_900 });
    await h.db.update(rooms).set({ housekeepingStatus: "clean" }).where(inArray(rooms.id, own.roomIds));
    const r = await front.reservations.create(booking(own, d(0), d(3), { first_name: "Early", last_name: "Leaver", email: "early.leaver@example.com" }));
    await front.reservations.checkIn({ id: r.id, room_id: own.roomIds[0] });
    // Leaving today keeps the arrival night only: 12,900 owed, nothing paid yet.
    expect(await front.reservations.previewDeparture({ id: r.id })).toEqual({
      check_out: d(1),
      nights: 1,
      total: { amount: 12_900, currency: "USD" },
      // The hotel charges no tax: the price is the one night's rate.
      price: { net: { amount: 12_900, currency: "USD" }, tax: { amount: 0, currency: "USD" }, gross: { amount: 12_900, currency: "USD" }, taxes: [] },
      fee: { amount: 0, currency: "USD" },
      balance: { amount: 12_900, currency: "USD" },
    });
    // The preview changed nothing.
    expect((await front.reservations.get({ id: r.id })).reservation).toMatchObject({ check_out: d(3), total: { amount: 38_700 } });
    expect((await front.reservations.get({ id: r.id })).actions).toMatchObject({ change_departure: { allowed: true }, move_room: { allowed: true } });

    const moved = await front.reservations.moveRoom({ id: r.id, room_id: own.roomIds[1] });
    expect(moved.room_id).toBe(own.roomIds[1]);
    const [left] = await h.db.select().from(rooms).where(eq(rooms.id, own.roomIds[0]));
    expect(left).toMatchObject({ housekeepingStatus: "dirty", occupied: false });
    const trail = await front.audit.list({ object_type: "reservation", object_id: r.id });
    expect(trail.data[0]).toMatchObject({ action: "reservation.room_moved", before: { room_id: own.roomIds[0] }, after: { room_id: own.roomIds[1] } });

    const manager = as("manager");
    expect(await manager.reports.nightAudits({ property_id: hotel.propertyId })).toEqual([]);
    ok(await h.post("/v1/sandbox/advance_day", { property_id: hotel.propertyId }, api));
    const [audit] = await manager.reports.nightAudits({ property_id: hotel.propertyId });
    expect(audit).toMatchObject({ object: "night_audit", business_date: d(0), trigger: "advance_day" });
    expect(audit.departures_in_house).toEqual([]);
  });
});

describe("late check-out (issue 27)", () => {
  /** A fresh sandbox property with one clean room at 12,000 a night, the plan's late check-out fee set by a manager in the settings, a guest in house for two nights. */
  async function inHouse(fee: { type: "percent"; percent: number } | null, email: string) {
    const property = await insertProperty(h, h.main.account.id, { livemode: false, name: "Late Inn" });
    const today = todayIn(property.timezone);
    const t = await buildRoomType(h, api, property.id, today, { rooms: 1, amount: 12_000 });
    await h.db.update(rooms).set({ housekeepingStatus: "clean" }).where(inArray(rooms.id, t.roomIds));
    await as("manager").setup.ratePlans.update({ id: t.ratePlanId, late_check_out_fee: fee });
    const front = as("front_desk");
    const r = await front.reservations.create({ ...booking(t, today, addDays(today, 2), { first_name: "Late", last_name: "Sleeper", email }), property_id: property.id });
    await front.reservations.checkIn({ id: r.id, room_id: t.roomIds[0] });
    const departureDay = () => h.db.update(properties).set({ businessDate: addDays(today, 2) }).where(eq(properties.id, property.id));
    return { r, departureDay };
  }
  const trailOf = (id: string) => h.db.select().from(auditLog).where(and(eq(auditLog.objectId, id), eq(auditLog.action, "reservation.late_check_out_granted")));
  const feeLines = (id: string) => h.db.select().from(folioCharges).where(and(eq(folioCharges.reservationId, id), eq(folioCharges.kind, "late_check_out_fee")));

  it("the front desk grants it on the departure day, the plan's fee stated first and posted once; the trail and the event have it", async () => {
    const { r, departureDay } = await inHouse({ type: "percent", percent: 25 }, "late.sleeper@example.com");
    const front = as("front_desk");
    // Not the departure day yet: not offered, refused, nothing posted.
    expect((await front.reservations.get({ id: r.id })).actions.late_check_out).toMatchObject({ allowed: false });
    const early = await failure(front.reservations.lateCheckOut({ id: r.id }));
    expect(early.code).toBe("CONFLICT");
    expect(early.api?.code).toBe("invalid_state_transition");
    expect(await feeLines(r.id)).toEqual([]);
    expect(await trailOf(r.id)).toEqual([]);

    await departureDay();
    expect((await front.reservations.get({ id: r.id })).actions.late_check_out).toEqual({ allowed: true, reason: null });
    // 25 % of the last night's 12,000 = 3,000; the folio then owes the two nights and the fee, nothing paid.
    expect(await front.reservations.previewLateCheckOut({ id: r.id })).toEqual({ fee: { amount: 3_000, currency: "USD" }, balance: { amount: 27_000, currency: "USD" } });
    expect(await feeLines(r.id)).toEqual([]); // the preview kept nothing
    // A body with more than the id is refused and changes nothing.
    expect(await failure(front.reservations.lateCheckOut({ id: r.id, late: true } as never))).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_unknown", param: "late" } });
    expect(await feeLines(r.id)).toEqual([]);

    const updatedBefore = (await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id)).length;
    const granted = await front.reservations.lateCheckOut({ id: r.id });
    expect(granted).toMatchObject({ id: r.id, status: "checked_in", check_out: r.check_out });
    const folio = await front.folios.get({ reservation_id: r.id });
    expect(folio.charges.filter((c) => c.kind === "late_check_out_fee").map((c) => c.amount)).toEqual([{ amount: 3_000, currency: "USD" }]);
    expect(folio.balance.amount).toBe(27_000);
    const trail = await trailOf(r.id);
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ actorEmail: "front_desk@desk.example", after: { charge: { description: "Late check-out fee", amount: { amount: 3_000, currency: "USD" } } } });
    expect((await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === r.id)).length).toBe(updatedBefore + 1);

    // Once: no longer offered, and a second grant is refused in words, posting nothing more.
    expect((await front.reservations.get({ id: r.id })).actions.late_check_out).toEqual({ allowed: false, reason: "A late check-out was already granted for this stay." });
    const again = await failure(front.reservations.lateCheckOut({ id: r.id }));
    expect(again).toMatchObject({ code: "CONFLICT", message: "A late check-out was already granted for this stay." });
    expect(await feeLines(r.id)).toHaveLength(1);
    expect(await trailOf(r.id)).toHaveLength(1);
  });

  it("on a plan without a fee charges nothing, says so, and is still granted once", async () => {
    const { r, departureDay } = await inHouse(null, "no.fee@example.com");
    await departureDay();
    const front = as("front_desk");
    expect(await front.reservations.previewLateCheckOut({ id: r.id })).toEqual({ fee: { amount: 0, currency: "USD" }, balance: { amount: 24_000, currency: "USD" } });
    await front.reservations.lateCheckOut({ id: r.id });
    expect(await feeLines(r.id)).toEqual([]);
    expect(await trailOf(r.id)).toHaveLength(1);
    expect((await failure(front.reservations.lateCheckOut({ id: r.id }))).api?.code).toBe("invalid_state_transition");
    expect(await trailOf(r.id)).toHaveLength(1);
  });

  it("housekeeping cannot grant one, and a stay not in house is refused", async () => {
    const { r, departureDay } = await inHouse({ type: "percent", percent: 50 }, "kept.out@example.com");
    await departureDay();
    expect((await failure(as("housekeeping").reservations.lateCheckOut({ id: r.id }))).code).toBe("FORBIDDEN");
    expect(await feeLines(r.id)).toEqual([]);
    const front = as("front_desk");
    await front.payments.create({ reservation_id: r.id, payment_method: { type: "cash" }, capture: true });
    await front.reservations.checkOut({ id: r.id });
    expect((await front.reservations.get({ id: r.id })).actions.late_check_out.allowed).toBe(false);
    expect((await failure(front.reservations.lateCheckOut({ id: r.id }))).api?.code).toBe("invalid_state_transition");
    expect(await feeLines(r.id)).toEqual([]);
    expect(await trailOf(r.id)).toEqual([]);
  });
});
