import { TRPCError } from "@trpc/server";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "@/db/schema";
import { addDays, todayIn } from "@/lib/dates";
import type { StaffRole } from "@/server/auth/users";
import { ApiError } from "@/server/errors";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, liveHotel, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";
import { pdfText } from "../support/pdf";

// Issue 39, points 1, 5 and 6, where they are data: the guest's mail promises only terms the guest
// can still meet, the outbox tells staff where each mail stands and sends one again, an empty
// folio is not invoiced, the invoice names its nights as the folio does, occupancy counts no room
// before the hotel existed, the sandbox's departed stays left when they left, "Mark clean" ends the
// room's assignment, and an out-of-order block is extended or shortened with its nights.

let h: Harness;
let caller: Caller;

const session = (role: StaffRole): StaffSession => ({
  user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@desk.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const staff = (role: StaffRole, livemode = true) => createCaller({ db: h.db, session: session(role), livemode });

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };
async function hotelWith(options: Parameters<typeof buildRoomType>[4] = {}): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, days: 20, ...options });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { ...hotel, type };
}
const book = (hotel: Hotel, from: string, to: string, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, extra), caller);

/** A date as a US hotel's staff and guests read it (the test's own formatter, not the app's). */
const usDay = (date: string) => new Intl.DateTimeFormat("en-US", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
const mailsOf = (reservationId: string) => h.db.select().from(mailOutbox).where(eq(mailOutbox.reservationId, reservationId));

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return (error as TRPCError).cause as ApiError;
}

describe("guest e-mails state the terms the guest meets", () => {
  it("a deadline still ahead, at the hotel's time, counted back from the arrival day; none promised once past; non-refundable said so", async () => {
    // 30 hours before the arrival day starts (docs/decisions.md, Cancellation): the day before the day before, at 18:00.
    const hotel = await hotelWith({ deadlineHours: 30 });
    const ahead = ok(await book(hotel, addDays(hotel.today, 5), addDays(hotel.today, 6), { guest: { first_name: "Ada", last_name: "Ahead", email: "ada.ahead@desk.example" } }), 201);
    const [early] = await mailsOf(ahead.id);
    expect(early.text).toContain(`Free cancellation until ${usDay(addDays(hotel.today, 3))}, 6:00 PM (hotel time).`);

    // Booked for tonight: 30 hours before today began is long past, so no free cancellation is promised.
    const late = ok(await book(hotel, hotel.today, addDays(hotel.today, 1), { guest: { first_name: "Lou", last_name: "Late", email: "lou.late@desk.example" } }), 201);
    const [tonight] = await mailsOf(late.id);
    expect(tonight.text).not.toContain("Free cancellation until");
    expect(tonight.text).toContain("can no longer be cancelled free of charge");
    expect(tonight.html).toContain("can no longer be cancelled free of charge");

    const strict = await hotelWith({ refundable: false });
    const nrf = ok(await book(strict, addDays(strict.today, 5), addDays(strict.today, 6), { guest: { first_name: "Nia", last_name: "Strict", email: "nia.strict@desk.example" } }), 201);
    const [nonRefundable] = await mailsOf(nrf.id);
    expect(nonRefundable.text).toContain("non-refundable");
    expect(nonRefundable.text).not.toContain("Free cancellation until");
  });
});

describe("the outbox for staff", () => {
  it("says where each mail stands in states staff read, sends one again as a copy, and counts what waits for a mail server", async () => {
    const hotel = await hotelWith();
    const owner = staff("owner");
    const before = await owner.mail.status();
    // The tests' server has no SMTP_URL: mail can be queued but never go.
    expect(before.mail_server).toBe(false);
    const kept = ok(await book(hotel, addDays(hotel.today, 2), addDays(hotel.today, 3), { guest: { first_name: "Olive", last_name: "Outbox", email: "olive.outbox@desk.example" } }), 201);
    const erased = ok(await book(hotel, addDays(hotel.today, 2), addDays(hotel.today, 3), { guest: { first_name: "Eli", last_name: "Erased", email: "eli.erased@desk.example" } }), 201);
    expect((await owner.mail.status()).waiting).toBe(before.waiting + 2);
    ok(await h.post(`/v1/guests/${erased.guest.id}/erase`, { confirm: true }, caller));
    expect((await owner.mail.status()).waiting).toBe(before.waiting + 1);

    const list = await owner.developers.outbox.list({ limit: 100 });
    const [held] = list.data.filter((m) => m.to === "olive.outbox@desk.example");
    expect(held).toMatchObject({ kind: "confirmation", guest_mail: true, state: "held", attempts: 0, last_error: null, sent_at: null });
    expect(held.html).toContain("Olive");
    const [mailOfErased] = (await mailsOf(erased.id)).map((m) => list.data.find((x) => x.id === m.id)!);
    // Erased on request: nobody to send it to, and no address left to show.
    expect(mailOfErased).toMatchObject({ to: null, guest_mail: true, state: "no_address" });
    expect((await refusal(owner.developers.outbox.resend({ id: mailOfErased.id }))).code).toBe("invalid_state_transition");

    const copy = await owner.developers.outbox.resend({ id: held.id });
    expect(copy).toMatchObject({ to: "olive.outbox@desk.example", subject: held.subject, text: held.text, html: held.html, kind: "confirmation", state: "held" });
    expect(copy.id).not.toBe(held.id);
    expect((await mailsOf(kept.id)).map((m) => m.id).sort()).toEqual([held.id, copy.id].sort());
    expect((await owner.mail.status()).waiting).toBe(before.waiting + 2);
    // Another account's mail is not this one's to send.
    const other = await h.newAccount("Other Outbox");
    const theirs = createCaller({ db: h.db, session: { ...session("owner"), user: { ...session("owner").user, accountId: other.account.id } }, livemode: true });
    expect((await refusal(theirs.developers.outbox.resend({ id: held.id }))).code).toBe("resource_missing");
    // Front desk neither reads the outbox nor its status.
    await expect(staff("front_desk").mail.status()).rejects.toBeInstanceOf(TRPCError);
  });
});

describe("folios, invoices and the trail in a clerk's words", () => {
  it("an invoice names each night as the folio does; a free cancellation's empty folio is not invoiced", async () => {
    const hotel = await hotelWith({ amount: 12_000 });
    const r = ok(await book(hotel, hotel.today, addDays(hotel.today, 1)), 201);
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller));
    ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 12_000, payment_method: { type: "cash" } }, caller), 201);
    ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller));
    const invoiceId = ok(await h.get(`/v1/reservations/${r.id}/folio`, caller)).invoice_id;
    const res = await fetch(`${h.baseUrl}/v1/invoices/${invoiceId}/pdf`, { headers: { authorization: `Bearer ${caller.token}` } });
    const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
    expect(text).toContain(`night of ${usDay(hotel.today)}`);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);

    const cancelled = ok(await book(hotel, addDays(hotel.today, 5), addDays(hotel.today, 6)), 201);
    ok(await h.post(`/v1/reservations/${cancelled.id}/cancel`, {}, caller));
    expect(ok(await h.get(`/v1/reservations/${cancelled.id}/folio`, caller)).charges).toEqual([]);
    expect(expectError(await h.post(`/v1/folios/${cancelled.folio_id}/invoice`, {}, caller), 409, "invalid_state_transition").message).toMatch(/no charges/);
    expect(ok(await h.get(`/v1/invoices?reservation_id=${cancelled.id}`, caller)).data).toEqual([]);
  });

  it("the property's history says the night audit's hour and the day's times as times", async () => {
    const hotel = await hotelWith();
    ok(await h.patch(`/v1/properties/${hotel.propertyId}`, { audit_hour: 22, check_in_time: "14:00" }, caller));
    const trail = await staff("owner").audit.list({ object_type: "property", object_id: hotel.propertyId });
    const sentences = trail.data.flatMap((e) => e.sentences);
    expect(sentences).toContain("Night audit hour from 3:00 AM to 10:00 PM");
    expect(sentences).toContain("Check-in time from 3:00 PM to 2:00 PM");
  });
});

describe("reports and the sandbox's day", () => {
  it("occupancy counts no room on the nights before the hotel existed", async () => {
    const hotel = await hotelWith();
    const report = ok(await h.get(`/v1/reports/occupancy?property_id=${hotel.propertyId}&from=${addDays(hotel.today, -3)}&to=${addDays(hotel.today, 2)}`, caller));
    expect(report.data.map((d: { rooms_available: number }) => d.rooms_available)).toEqual([0, 0, 0, 3, 3]);
    expect(report.totals.rooms_available).toBe(6);
  });

  it("the sandbox's history: rooms count from its first stay on, and stays that left weeks ago are not today's departures", async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    const property = await sandboxProperty(h, h.main.token);
    const today = todayIn(property.timezone);
    // The seeded history starts 20 nights ago (contract §8: stays over past and coming dates).
    const report = ok(await h.get(`/v1/reports/occupancy?property_id=${property.id}&from=${addDays(today, -22)}&to=${addDays(today, -18)}`, sandbox));
    const available = report.data.map((d: { rooms_available: number }) => d.rooms_available);
    expect(available.slice(0, 2)).toEqual([0, 0]);
    expect(available.slice(2).every((n: number) => n === 40)).toBe(true);

    const departed = ok(await h.get("/v1/reservations?status=checked_out&limit=100", sandbox)).data as { check_out: string; checked_out_at: string }[];
    expect(departed.length).toBeGreaterThan(0);
    for (const r of departed) expect(todayIn(property.timezone, new Date(r.checked_out_at))).toBe(r.check_out);
    const departures = await staff("front_desk", false).reservations.search({ property_id: property.id, view: "departures", limit: 100 });
    for (const r of departures.data) expect(r.status === "checked_in" || r.check_out === today, `${r.status} ${r.check_out}`).toBe(true);
    expect(departures.data.filter((r) => r.status === "checked_out" && r.check_out < today)).toEqual([]);
  });
});

describe("housekeeping closes the loop", () => {
  it("a room marked clean completes its assignment of the day, on the trail; another day's stays to do", async () => {
    const hotel = await hotelWith();
    const [roomId] = hotel.type.roomIds;
    ok(await h.post(`/v1/rooms/${roomId}/housekeeping`, { status: "dirty" }, caller));
    const today = ok(await h.post("/v1/housekeeping/assignments", { property_id: hotel.propertyId, date: hotel.today, room_id: roomId, assignee: "maria@desk.example" }, caller), 201);
    const tomorrow = ok(await h.post("/v1/housekeeping/assignments", { property_id: hotel.propertyId, date: addDays(hotel.today, 1), room_id: roomId, assignee: "maria@desk.example" }, caller), 201);
    ok(await h.post(`/v1/rooms/${roomId}/housekeeping`, { status: "clean" }, caller));
    const statusOf = async (a: { id: string; date: string }) =>
      ok(await h.get(`/v1/housekeeping/assignments?date=${a.date}&limit=100`, caller)).data.find((x: { id: string }) => x.id === a.id).status;
    expect(await statusOf(today)).toBe("done");
    expect(await statusOf(tomorrow)).toBe("pending");
    const trail = await staff("owner").audit.list({ object_type: "housekeeping_assignment", object_id: today.id });
    expect(trail.data.map((e) => e.action)).toEqual(["housekeeping_assignment.updated", "housekeeping_assignment.created"]);
  });

  it("an out-of-order block is extended, shortened or left open, its nights following; a room in service has none to change", async () => {
    const hotel = await hotelWith();
    const [roomId, clean] = hotel.type.roomIds;
    const T = hotel.today;
    ok(await h.post(`/v1/rooms/${roomId}/housekeeping`, { status: "out-of-order", reason: "Leak", until: addDays(T, 3) }, caller));
    const blocked = async () => {
      const nights = await inventoryOf(h, caller, hotel.propertyId, hotel.type.roomTypeId, T, addDays(T, 6));
      return [0, 1, 2, 3, 4, 5].map((i) => nights.get(addDays(T, i))!.out_of_order);
    };
    expect(await blocked()).toEqual([1, 1, 1, 0, 0, 0]);
    const hk = staff("housekeeping").housekeeping;
    const longer = await hk.changeOutOfOrder({ room_id: roomId, until: addDays(T, 5) });
    expect(longer).toMatchObject({ housekeeping_status: "out-of-order", out_of_order_until: addDays(T, 5), out_of_order_reason: "Leak" });
    expect(await blocked()).toEqual([1, 1, 1, 1, 1, 0]);
    expect((await hk.changeOutOfOrder({ room_id: roomId, until: addDays(T, 2), reason: "Leak, ceiling" })).out_of_order_reason).toBe("Leak, ceiling");
    expect(await blocked()).toEqual([1, 1, 0, 0, 0, 0]);
    await hk.changeOutOfOrder({ room_id: roomId, until: null });
    expect(await blocked()).toEqual([1, 1, 1, 1, 1, 1]);
    expect((await refusal(hk.changeOutOfOrder({ room_id: roomId, until: T }))).param).toBe("until");
    expect((await refusal(hk.changeOutOfOrder({ room_id: clean, until: addDays(T, 2) }))).code).toBe("invalid_state_transition");
    // Back in service: every night of the open block returns to sale.
    ok(await h.post(`/v1/rooms/${roomId}/housekeeping`, { status: "dirty" }, caller));
    expect(await blocked()).toEqual([0, 0, 0, 0, 0, 0]);
    const events = await h.get(`/v1/events?type=housekeeping.status_changed&limit=100`, caller);
    expect(ok(events).data.filter((e: { data: { object: { id: string } } }) => e.data.object.id === roomId)).toHaveLength(5);
  });
});
