import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { reservations, salesNights } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller } from "../support/hotel";

// Issue #11 item 4: the reports read per-night sales rows kept by a trigger on reservations.
// Whatever writes a stay, the rows must equal what expanding every stay's nightly JSON gives
// (the reports' earlier computation, kept here as the oracle), and the migration's backfill too.

let h: Harness;
const api: Caller = { token: "" };
beforeAll(async () => {
  h = await startHarness();
  api.token = h.main.token;
});
afterAll(async () => h?.close());

type Night = { reservation_id: string; date: string; amount: number; booked: boolean; sold: boolean; status: string; check_in: string };

/**
 * The earlier report SQL, per night: every stay's nightly JSON. Since issue 27 a stay left early is
 * shortened to its real departure, so every night of a counted stay is sold.
 */
async function expanded(): Promise<Night[]> {
  const rows = rowsOf<Night>(
    await h.db.execute(sql`
      select r.id as reservation_id, n->>'date' as date, (n->>'amount')::int as amount, r.status, r.check_in::text as check_in,
        r.status in ('confirmed', 'checked_in', 'checked_out') as booked,
        r.status in ('confirmed', 'checked_in', 'checked_out') as sold
      from reservations r cross join lateral jsonb_array_elements(r.nightly) as n`),
  );
  return sorted(rows);
}

async function kept(): Promise<Night[]> {
  const rows = await h.db
    .select({ reservation_id: salesNights.reservationId, date: salesNights.date, amount: salesNights.amount, status: salesNights.status, check_in: salesNights.checkIn, booked: salesNights.booked, sold: salesNights.sold })
    .from(salesNights);
  return sorted(rows);
}

/** The per-day sums must equal the sold nights summed, whatever happened. */
async function expectDaysToMatchNights() {
  const days = rowsOf<{ room_type_id: string; date: string; rooms_sold: string; room_revenue: string }>(
    await h.db.execute(sql`select room_type_id, date::text as date, rooms_sold, room_revenue from sales_days where rooms_sold <> 0 or room_revenue <> 0 order by 1, 2`),
  ).map((d) => ({ ...d, rooms_sold: Number(d.rooms_sold), room_revenue: Number(d.room_revenue) }));
  const nights = rowsOf<{ room_type_id: string; date: string; rooms_sold: string; room_revenue: string }>(
    await h.db.execute(sql`select room_type_id, date::text as date, count(*) as rooms_sold, sum(amount) as room_revenue from sales_nights where sold group by 1, 2 order by 1, 2`),
  ).map((d) => ({ ...d, rooms_sold: Number(d.rooms_sold), room_revenue: Number(d.room_revenue) }));
  expect(days).toEqual(nights);
}

const sorted = (rows: Night[]) => rows.map((r) => ({ ...r, amount: Number(r.amount) })).sort((a, b) => `${a.reservation_id}${a.date}`.localeCompare(`${b.reservation_id}${b.date}`));

describe("per-night sales rows", () => {
  it("follow every change to a stay, in its transaction, and the backfill rebuilds them exactly", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const setup = { ...(await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 4, days: 30, amount: 11_000 })), propertyId: hotel.propertyId };
    const d = (n: number) => addDays(hotel.today, n);
    const book = async (from: number, to: number) => ok(await h.post("/v1/reservations", bookingBody(setup, d(from), d(to)), api), 201) as { id: string };

    const kept1 = await book(2, 5);
    const moved = await book(3, 6);
    ok(await h.patch(`/v1/reservations/${moved.id}`, { check_in: d(4), check_out: d(8) }, api));
    const cancelled = await book(1, 3);
    ok(await h.post(`/v1/reservations/${cancelled.id}/cancel`, {}, api));
    // Arrives today and leaves today: the stay is shortened to the arrival night, the only one sold.
    const early = await book(0, 4);
    ok(await h.post(`/v1/reservations/${early.id}/check_in`, {}, api));
    ok(await h.post("/v1/payments", { reservation_id: early.id, payment_method: { type: "cash" }, amount: 11_000 }, api), 201);
    ok(await h.post(`/v1/reservations/${early.id}/check_out`, {}, api));
    // Written straight to the table, as an import or a fix by hand would.
    const noShow = await book(5, 7);
    await h.db.update(reservations).set({ status: "no_show" }).where(eq(reservations.id, noShow.id));

    const rows = await kept();
    expect(rows).toEqual(await expanded());
    await expectDaysToMatchNights();
    const of = (id: string) => rows.filter((r) => r.reservation_id === id);
    expect(of(kept1.id).map((r) => r.sold)).toEqual([true, true, true]);
    expect(of(moved.id).map((r) => r.date)).toEqual([d(4), d(5), d(6), d(7)]);
    expect(of(cancelled.id).map((r) => [r.booked, r.sold])).toEqual([[false, false], [false, false]]);
    expect(of(early.id).map((r) => [r.date, r.booked, r.sold])).toEqual([[d(0), true, true]]);
    expect(of(noShow.id).every((r) => !r.booked && !r.sold && r.status === "no_show")).toBe(true);

    // The migration's backfill: from nothing, touching every stay rebuilds the same rows.
    await h.db.delete(salesNights);
    await h.db.execute(sql`delete from sales_days`);
    await h.db.execute(sql`update reservations set status = status`);
    expect(await kept()).toEqual(rows);
    await expectDaysToMatchNights();

    // A stay deleted (a sandbox reset) takes its nights with it.
    await h.db.delete(reservations).where(eq(reservations.id, kept1.id));
    expect((await kept()).some((r) => r.reservation_id === kept1.id)).toBe(false);
    expect(await kept()).toEqual(await expanded());
    await expectDaysToMatchNights();
  });

  it("a refused booking leaves no rows behind", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const setup = { ...(await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 1, days: 10 })), propertyId: hotel.propertyId };
    const d = (n: number) => addDays(hotel.today, n);
    ok(await h.post("/v1/reservations", bookingBody(setup, d(1), d(3)), api), 201);
    const before = (await kept()).length;
    const refused = await h.post("/v1/reservations", bookingBody(setup, d(2), d(4)), api);
    expect(refused.status).toBe(409);
    expect((await kept()).length).toBe(before);
    expect(await kept()).toEqual(await expanded());
    await expectDaysToMatchNights();
  });
});
