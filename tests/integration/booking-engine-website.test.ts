import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingSessions } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { startHoldSweeper } from "@/server/booking-engine/sweeper";
import { parseProxyTrust } from "@/server/proxy-trust";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";
import { guestRequests } from "../support/guest-requests";

// Issue 38, points 1, 5 and 6: the booking engine on the hotel's website. The timed sweep of
// abandoned holds (a guest who chose a room and closed the tab at a hotel nobody else searches
// gets the room back on sale without anyone searching), through the engine's real handlers on a
// real database. Expected values come from the issue and from what each test sets up.

let h: Harness;
let caller: Caller;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let main: RoomTypeSetup;
let slug: string;
const d = (n: number): IsoDate => addDays(hotel.today, n);

const { raw, postJson } = guestRequests(() => h.baseUrl, "203.0.113");
const choose = async (t: RoomTypeSetup, checkIn: IsoDate, checkOut: IsoDate) =>
  ok<{ token: string }>(
    await postJson(`/book-api/${slug}/sessions`, { check_in: checkIn, check_out: checkOut, adults: "2", children: "0", room_type_id: t.roomTypeId, rate_plan_id: t.ratePlanId }),
    201,
  ).token;
const heldOn = async (t: RoomTypeSetup, day: IsoDate) => (await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, day, addDays(day, 1))).get(day)!.held;

/** Waits (polling, never a fixed sleep) until `check` holds, or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 10_000) {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("the condition never held");
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  h = await startHarness({ trustProxy: parseProxyTrust("loopback"), max: 20 });
  caller = { token: h.main.token };
  hotel = await liveHotel(h, h.main.account.id, "Europe/Lisbon");
  main = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, maxOccupancy: 3, amount: 9_000, days: 70 });
  // A cheaper room on a plan the engine does not sell: never in the engine's prices.
  await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, maxOccupancy: 2, amount: 5_000, days: 70 });
  // A tax of 10 % on top: a night at 9,000 costs the guest 9,900.
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 10, inclusive: false }, caller), 201);
  slug = `quinta-${Date.now().toString(36)}`;
  ok(await h.patch(`/v1/properties/${hotel.propertyId}/booking_engine`, { enabled: true, slug, rate_plan_ids: [main.ratePlanId] }, caller));
}, 120_000);
afterAll(async () => h?.close());

describe("the timed sweep of abandoned holds", { timeout: 60_000 }, () => {
  it("gives back a hold whose time ran out at a property nobody searches, and leaves a hold still in its time", async () => {
    const abandoned = await choose(main, d(20), d(22));
    const filling = await choose(main, d(30), d(31));
    expect(await heldOn(main, d(20))).toBe(1);
    expect(await heldOn(main, d(21))).toBe(1);
    expect(await heldOn(main, d(30))).toBe(1);
    const { createHash } = await import("node:crypto");
    const hash = (token: string) => createHash("sha256").update(token).digest("hex");
    // The guest of the first form closed the tab a quarter of an hour ago; nobody searches this hotel since.
    await h.db.update(bookingSessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(eq(bookingSessions.tokenHash, hash(abandoned)));

    const sweeper = startHoldSweeper({ db: h.db, everyMs: 100 });
    try {
      await eventually(async () => (await heldOn(main, d(20))) === 0);
    } finally {
      await sweeper.stop();
    }
    expect(await heldOn(main, d(21))).toBe(0);
    // The other guest is still filling their form: their room stays held.
    expect(await heldOn(main, d(30))).toBe(1);
    const [kept] = await h.db.select().from(bookingSessions).where(eq(bookingSessions.tokenHash, hash(filling)));
    expect(kept.holdId).not.toBeNull();
    const [swept] = await h.db.select().from(bookingSessions).where(eq(bookingSessions.tokenHash, hash(abandoned)));
    expect(swept.holdId).toBeNull();
    // The API's list of holds says it was released, and the other one not.
    const holds = ok(await h.get(`/v1/inventory/holds?property_id=${hotel.propertyId}`, caller));
    const byStart = new Map(holds.data.map((x: { from: string; released_at: string | null }) => [x.from, x.released_at]));
    expect(byStart.get(d(20))).toEqual(expect.any(String));
    expect(byStart.get(d(30))).toBeNull();
  });
});

describe("the month of prices", { timeout: 60_000 }, () => {
  const calendar = (query: Record<string, string>) => raw("GET", `/book-api/${slug}/calendar?${new URLSearchParams(query)}`);
  /** Next month at the hotel, as YYYY-MM (its days are all within the 70 days of rates). */
  const nextMonth = () => addDays(`${hotel.today.slice(0, 7)}-01`, 32).slice(0, 7);

  it("gives each day its lowest price on the plans sold, with taxes, or why no stay can start then", async () => {
    const month = nextMonth();
    const day = (n: number) => `${month}-${String(n).padStart(2, "0")}` as IsoDate;
    const rates = async (body: Record<string, unknown>) => ok(await h.post(`/v1/rate_plans/${main.ratePlanId}/rates`, { room_type_id: main.roomTypeId, ...body }, caller));
    await rates({ from: day(5), to: day(6), amount: 15_000 });
    await rates({ from: day(7), to: day(8), stop_sell: true });
    await rates({ from: day(9), to: day(10), closed_to_arrival: true });
    await rates({ from: day(13), to: day(14), min_stay: 2 });
    // Both rooms of the type held by the desk on the 11th.
    ok(await h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: main.roomTypeId, from: day(11), to: day(12), rooms: 2 }, caller), 201);

    const body = ok(await calendar({ month, adults: "2" }));
    expect(body.object).toBe("booking_calendar");
    expect(body.month).toBe(month);
    expect(body.currency).toBe("USD");
    const days = new Map<string, Record<string, unknown>>(body.days.map((d: { date: string }) => [d.date, d]));
    expect(body.days[0].date).toBe(day(1));
    expect(body.days.length).toBe(Number(addDays(`${addDays(`${month}-01`, 32).slice(0, 7)}-01`, -1).slice(8)));
    const usd = (amount: number) => ({ amount, currency: "USD" });
    expect(days.get(day(3))).toEqual({ date: day(3), open: true, price: usd(9_900), nights: 1 });
    expect(days.get(day(5))).toEqual({ date: day(5), open: true, price: usd(16_500), nights: 1 });
    expect(days.get(day(7))).toEqual({ date: day(7), open: false, reason: "closed" });
    expect(days.get(day(9))).toEqual({ date: day(9), open: false, reason: "no_arrival" });
    expect(days.get(day(11))).toEqual({ date: day(11), open: false, reason: "sold_out" });
    // Arrivals on the 13th need two nights: the price is of those two.
    expect(days.get(day(13))).toEqual({ date: day(13), open: true, price: usd(19_800), nights: 2 });
    // The stop-sell night is inside a stay arriving the day before only if it is longer than one night: the 6th itself is open.
    expect(days.get(day(6))).toEqual({ date: day(6), open: true, price: usd(9_900), nights: 1 });

    // A party no room sleeps: every day says so.
    const large = ok(await calendar({ month, adults: "4" }));
    expect(new Set(large.days.map((d: { reason?: string }) => d.reason))).toEqual(new Set(["too_many_guests"]));
  });

  it("marks the days before the hotel's today as past, pages by month, and refuses a malformed or too distant month", async () => {
    const month = hotel.today.slice(0, 7);
    const body = ok(await calendar({ month }));
    expect(body.previous).toBeNull();
    expect(body.next).toBe(nextMonth());
    for (const d of body.days) {
      if (d.date < hotel.today) expect(d).toEqual({ date: d.date, open: false, reason: "past" });
      else expect(d.reason).not.toBe("past");
    }
    expect(ok(await calendar({ month: nextMonth() })).previous).toBe(month);
    // Query errors are 400 (contract §2).
    for (const bad of ["2026-13", "2026-1", "december", ""]) expectError(await calendar({ month: bad }), 400, "parameter_invalid", "month");
    expectError(await calendar({ month: addDays(hotel.today, 366 * 3).slice(0, 7) }), 400, "parameter_invalid", "month");
    expectError(await raw("GET", `/book-api/no-such-hotel/calendar?month=${month}`), 404, "resource_missing", "slug");
  });
});
