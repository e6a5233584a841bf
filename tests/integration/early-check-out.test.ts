import { eq, sql } from "drizzle-orm";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { properties } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 35, item 8: an early departure at the desk. Check-out a night early with the stay paid in
// full is refused (the folio would owe the guest); the refusal says what check-out today would do
// (the nights that come off, the fee, what the guest is then owed) in money, not minor units, with
// the amount as a field, and changes nothing. The desk's order (shorten, refund the exact
// overpayment, check out) then leaves the folio true at every step and closes it at zero.

let h: Harness;
let caller: Caller;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

const nightly = 10_000;
type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };

async function hotelWith(fees: Record<string, unknown> = {}): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, amount: nightly, days: 10 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  if (Object.keys(fees).length) ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, fees, caller));
  return { ...hotel, type };
}

const book = (hotel: Hotel, from: IsoDate, to: IsoDate) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to), caller);
const act = (id: string, action: string, body: unknown = {}) => h.post(`/v1/reservations/${id}/${action}`, body, caller);
const pay = (id: string, amount: number) => h.post("/v1/payments", { reservation_id: id, amount, payment_method: { type: "cash" } }, caller);
const folioOf = async (id: string) => ok(await h.get(`/v1/reservations/${id}/folio`, caller));

/** A stay of `nights` from today, checked in and paid in full in cash. */
async function paidStay(hotel: Hotel, nights: number) {
  const r = ok(await book(hotel, hotel.today, addDays(hotel.today, nights)), 201);
  ok(await act(r.id, "check_in"));
  const payment = ok(await pay(r.id, nights * nightly), 201);
  return { id: r.id as string, paymentId: payment.id as string };
}

/** What nothing-changed means: the booked departure, every night on the folio and sold, the balance zero. */
async function expectUnchanged(hotel: Hotel, id: string, nights: number) {
  const T = hotel.today;
  expect(ok(await h.get(`/v1/reservations/${id}`, caller))).toMatchObject({ status: "checked_in", check_out: addDays(T, nights), nights });
  const folio = await folioOf(id);
  expect(folio).toMatchObject({ status: "open", balance: { amount: 0 } });
  expect(folio.charges.filter((c: { kind: string }) => c.kind === "room_night")).toHaveLength(nights);
  expect(folio.charges.filter((c: { kind: string }) => c.kind.endsWith("_fee"))).toHaveLength(0);
  const sold = [...(await inventoryOf(h, caller, hotel.propertyId, hotel.type.roomTypeId, T, addDays(T, nights))).values()].map((n) => n.sold);
  expect(sold).toEqual(Array(nights).fill(1));
}

describe("check-out a night early with the stay paid in full", () => {
  it("is refused with what check-out today would do, in money, the amount as a field, and nothing changes", async () => {
    const hotel = await hotelWith();
    const T = hotel.today;
    const stay = await paidStay(hotel, 2);

    // Leaving on the arrival day keeps the arrival night: the night of T+1 (10,000) comes off and
    // no fee is posted, so the folio would owe the guest 10,000 = USD 100.00.
    const refused = expectError(await act(stay.id, "check_out"), 409, "balance_outstanding");
    expect(refused.message).toBe(
      `Checking out today ends the stay on ${addDays(T, 1)} instead of ${addDays(T, 2)}: 1 night (the night of ${addDays(T, 1)}, USD 100.00 with taxes) comes off the folio, with no early-departure fee; ` +
        `the folio would then owe the guest USD 100.00. Change the departure to ${addDays(T, 1)} first (POST /v1/reservations/{id}/change_departure), then refund USD 100.00 to the guest's payment, then check out.`,
    );
    expect(refused.message).not.toMatch(/minor units|10000|10,000/);
    await expectUnchanged(hotel, stay.id, 2);

    // The dashboard's call: the same refusal, with the amount (owed to the guest: negative) as a field.
    const staff = createCaller({
      db: h.db,
      livemode: true,
      session: { user: { id: "usr_front", accountId: h.main.account.id, role: "front_desk", name: "Desk", email: "desk@early.example" }, expires: new Date(Date.now() + 3_600_000).toISOString() },
    });
    const error = await staff.reservations.checkOut({ id: stay.id }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TRPCError);
    const cause = (error as TRPCError).cause;
    expect(cause).toBeInstanceOf(ApiError);
    expect((cause as ApiError).amount).toEqual({ amount: -nightly, currency: "USD" });
    await expectUnchanged(hotel, stay.id, 2);

    // The desk's order: shorten (the folio now owes the guest exactly that), refund it to the
    // payment (settled), check out (closed at zero, one night sold).
    ok(await act(stay.id, "change_departure", { check_out: addDays(T, 1) }));
    expect(await folioOf(stay.id)).toMatchObject({ status: "open", balance: { amount: -nightly } });
    ok(await h.post("/v1/refunds", { payment_id: stay.paymentId, amount: nightly }, caller), 201);
    expect(await folioOf(stay.id)).toMatchObject({ status: "open", balance: { amount: 0 } });
    expect(ok(await act(stay.id, "check_out"))).toMatchObject({ status: "checked_out", check_out: addDays(T, 1), nights: 1, total: { amount: nightly } });
    expect(await folioOf(stay.id)).toMatchObject({ status: "closed", balance: { amount: 0 } });
    const sold = [...(await inventoryOf(h, caller, hotel.propertyId, hotel.type.roomTypeId, T, addDays(T, 2))).values()].map((n) => n.sold);
    expect(sold).toEqual([1, 0]);
  });

  it("names the nights and the plan's fee when several nights come off", async () => {
    // 25 % of the two nights given back (20,000) = 5,000 fee; kept 10,000 + 5,000 - paid 30,000 = -15,000.
    const hotel = await hotelWith({ early_departure_fee: { type: "percent", percent: 25 } });
    const T = hotel.today;
    const stay = await paidStay(hotel, 3);
    const refused = expectError(await act(stay.id, "check_out"), 409, "balance_outstanding");
    expect(refused.message).toContain(
      `ends the stay on ${addDays(T, 1)} instead of ${addDays(T, 3)}: 2 nights (the nights of ${addDays(T, 1)} to ${addDays(T, 2)}, USD 200.00 with taxes) come off the folio and the early-departure fee of USD 50.00 is posted; the folio would then owe the guest USD 150.00.`,
    );
    await expectUnchanged(hotel, stay.id, 3);
  });

  it("a stay ending today with a balance due says so in money; one whose departure day is closed leaves on it", async () => {
    const hotel = await hotelWith();
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 1)), 201);
    ok(await act(r.id, "check_in"));
    await h.db.update(properties).set({ businessDate: addDays(T, 1) }).where(eq(properties.id, hotel.propertyId));
    // Business date T+1: the guest was due out today, nothing paid.
    expect(expectError(await act(r.id, "check_out"), 409, "balance_outstanding").message).toBe(
      "The folio has an outstanding balance of USD 100.00; take a payment of USD 100.00 before check-out.",
    );
    // On T+2 with T+1 closed and its night never sold (no audit extended the stay): the guest leaves
    // on the booked date, nothing posts into the closed day, and the night paid settles the folio.
    await h.db.update(properties).set({ businessDate: addDays(T, 2) }).where(eq(properties.id, hotel.propertyId));
    ok(await pay(r.id, nightly), 201);
    expect(ok(await act(r.id, "check_out"))).toMatchObject({ status: "checked_out", check_out: addDays(T, 1), nights: 1 });
  });
});

describe("the desk's day follows the business date when it is ahead of the calendar", () => {
  it("arrivals, departures, the board and the refusal of a past arrival all use the business date", async () => {
    const hotel = await hotelWith();
    const T = hotel.today;
    const leaving = ok(await book(hotel, T, addDays(T, 1)), 201);
    ok(await act(leaving.id, "check_in"));
    const arriving = ok(await book(hotel, addDays(T, 1), addDays(T, 2)), 201);
    // The audit closed T (an evening audit hour, or the sandbox's advance_day): the business date is T+1.
    await h.db.update(properties).set({ businessDate: addDays(T, 1) }).where(eq(properties.id, hotel.propertyId));
    const staff = createCaller({
      db: h.db,
      livemode: true,
      session: { user: { id: "usr_front", accountId: h.main.account.id, role: "front_desk", name: "Desk", email: "desk@early.example" }, expires: new Date(Date.now() + 3_600_000).toISOString() },
    });
    const day = await staff.reservations.deskDay({ property_id: hotel.propertyId });
    expect(day.today).toBe(addDays(T, 1));
    expect(day.counts).toMatchObject({ arrivals: 1, arrivals_pending: 1, in_house: 1, departures: 1, departures_pending: 1 });
    const arrivals = await staff.reservations.search({ property_id: hotel.propertyId, view: "arrivals" });
    expect(arrivals.data.map((r) => r.id)).toEqual([arriving.id]);
    const board = await staff.housekeeping.board({ property_id: hotel.propertyId });
    expect(board.today).toBe(addDays(T, 1));
    const room = (await h.get(`/v1/reservations/${leaving.id}`, caller)).json.room_id as string;
    expect(board.rooms.find((r) => r.id === room)).toMatchObject({ departure: "due" });

    // Checked out on the business date: "left today" on the board and in the departures, whatever the clock says.
    ok(await pay(leaving.id, nightly), 201);
    ok(await act(leaving.id, "check_out"));
    expect((await staff.housekeeping.board({ property_id: hotel.propertyId })).rooms.find((r) => r.id === room)).toMatchObject({ departure: "departed" });
    const departures = await staff.reservations.search({ property_id: hotel.propertyId, view: "departures" });
    expect(departures.data.map((r) => r.id)).toEqual([leaving.id]);

    // A stay from the closed day is refused in words that name the business date.
    const past = expectError(await book(hotel, T, addDays(T, 1)), 422, "parameter_invalid", "check_in");
    expect(past.message).toBe(`The arrival date (check_in) cannot be before today, ${addDays(T, 1)} at the property (its business date).`);
  });
});
