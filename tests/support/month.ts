import { eq } from "drizzle-orm";
import { expect, vi } from "vitest";
import { properties } from "@/db/schema";
import { runNightAudit } from "@/server/night-audit/run-audit";
import { addDays, nightsOf, todayIn, type IsoDate } from "@/lib/dates";
import type { Harness } from "./harness";
import { buildRoomType, insertProperty, ok, type Caller } from "./hotel";

// Issue 35, "done when": a month of a 20-room hotel through the API (about 250 bookings, with
// cancellations on both sides of the deadline, no-shows, early departures, overstays found by the
// audit, extensions, room moves, late check-outs, extras, split payments, refunds before and after
// check-out), across a business date that differs from the calendar's: in the sandbox, where
// advance_day closes each day at once (by the end the business date is a month ahead), and live,
// on a clock the test holds (postings after midnight belong to the open day; the scheduled audit
// closes it at 03:00). Then reconciled in every direction. Every expected figure is the test's own
// arithmetic from what it did (rates, adults, taxes, payments, refunds), never one read back from
// the code under test: nights sold and room revenue of each closed night, money per business date,
// the flash of every day equal to the reports of that day long after its audit, inventory never
// oversold, rooms and stays in agreement, every departed stay invoiced and settled.

/** A small deterministic generator (mulberry32): the month is the same on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    chance: (p: number) => next() < p,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: T[]) => xs[Math.floor(next() * xs.length)],
  };
}

const VAT = 0.1; // exclusive, on room nights
const CITY_TAX = 200; // per person per night, exclusive
const DAYS = 30;

type Status = "confirmed" | "checked_in" | "checked_out" | "cancelled" | "no_show" | "turned_away";
type Stay = {
  id: string;
  folioId: string;
  type: number;
  rate: number;
  adults: number;
  checkIn: IsoDate;
  checkOut: IsoDate;
  status: Status;
  payments: { id: string; amount: number; refunded: number }[];
  leftOn?: IsoDate;
  overstayed?: boolean;
};
type Money = { amount: number; currency: string };
type Charge = { kind: string; date: IsoDate | null; net: Money; tax: Money; amount: Money };

/**
 * The instant the property's wall clock shows `hour`:`minute` on `date` (its zone's offset found by
 * trying the offsets a zone can have: the test's own arithmetic, not the product's).
 */
function wallClock(date: IsoDate, hour: number, minute: number, timezone: string): Date {
  for (let offset = -14 * 60; offset <= 14 * 60; offset += 15) {
    const at = new Date(Date.parse(`${date}T00:00:00Z`) + (hour * 60 + minute - offset) * 60_000);
    const shown = new Intl.DateTimeFormat("sv-SE", {
      timeZone: timezone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(at);
    if (shown === `${date} ${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`) return at;
  }
  throw new Error(`no ${hour}:${minute} on ${date} in ${timezone}`);
}

export type Mode = "sandbox" | "live";

/**
 * The month's clock. In the sandbox the business date runs ahead of the calendar: each evening
 * advance_day closes the day at once. Live, the test holds the clock (only `Date` is faked): the
 * desk works the day, a few postings come after midnight (still the open business day), and the
 * scheduled audit closes the day at its hour, 03:00 the next morning, as the embedded scheduler
 * would. The live month starts on a fixed date so that it crosses Lisbon's change to summer time.
 */
function monthClock(mode: Mode, timezone: string) {
  const liveStart = "2027-03-15";
  return {
    start: mode === "sandbox" ? todayIn(timezone) : liveStart,
    /** The wall clock at `hour` of business day `day` (hours past 24 are the next morning); the sandbox keeps the real clock. */
    at(day: IsoDate, hour: number, minute = 0) {
      if (mode === "sandbox") return;
      vi.setSystemTime(wallClock(addDays(day, Math.floor(hour / 24)), hour % 24, minute, timezone));
    },
  };
}

/**
 * Runs the month on harness `h` and reconciles it (issue 35, "done when"): in the sandbox, where
 * advance_day closes each day at once, or live, on a clock the test holds.
 */
export async function simulateMonth(h: Harness, mode: Mode) {
  const timezone = "Europe/Lisbon";
  const clock = monthClock(mode, timezone);
  if (mode === "live") vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  try {
    await month(h, mode, clock, timezone);
  } finally {
    vi.useRealTimers();
  }
}

async function month(h: Harness, mode: Mode, clock: ReturnType<typeof monthClock>, timezone: string) {
  const caller: Caller = { token: h.main.token, sandbox: mode === "sandbox" };
  const start = clock.start;
  clock.at(start, 8);
  const property = await insertProperty(h, h.main.account.id, { livemode: mode === "live", timezone, currency: "EUR", name: `Month Inn (${mode})` });
  // Live, the hotel opens its books on the month's first day. (A property never audited trades on
  // its calendar date, which the database reads from its own clock: PostgreSQL's is the real one,
  // which the test cannot hold.)
  if (mode === "live") await h.db.update(properties).set({ businessDate: start }).where(eq(properties.id, property.id));
  const types = [
    {
      ...(await buildRoomType(h, caller, property.id, start, { rooms: 14, amount: 12_000, days: DAYS + 12, refundable: true, deadlineHours: 48 })),
      rate: 12_000,
      refundable: true,
    },
    {
      ...(await buildRoomType(h, caller, property.id, start, { rooms: 6, amount: 20_000, days: DAYS + 12, refundable: false })),
      rate: 20_000,
      refundable: false,
    },
  ];
  ok(
    await h.patch(
      `/v1/rate_plans/${types[0].ratePlanId}`,
      {
        no_show_fee: { type: "fixed", amount: 5_000 },
        early_departure_fee: { type: "fixed", amount: 3_000 },
        late_check_out_fee: { type: "fixed", amount: 2_500 },
      },
      caller,
    ),
  );
  ok(await h.post("/v1/taxes", { property_id: property.id, name: "VAT", kind: "percentage", percentage: VAT * 100, inclusive: false }, caller), 201);
  ok(await h.post("/v1/taxes", { property_id: property.id, name: "City tax", kind: "per_person_per_night", amount: CITY_TAX }, caller), 201);

  const rnd = random(35);
  const stays: Stay[] = [];
  let extras = 0; // what the desk posted as extras over the month
  const paid = new Map<IsoDate, number>();
  const refunded = new Map<IsoDate, number>();
  const add = (m: Map<IsoDate, number>, d: IsoDate, n: number) => m.set(d, (m.get(d) ?? 0) + n);
  const flashes = new Map<IsoDate, { id: string; flash: Record<string, any> }>(); // eslint-disable-line @typescript-eslint/no-explicit-any
  let today = start;
  const counts = {
    bookings: 0,
    refusedBookings: 0,
    cancellations: 0,
    noShows: 0,
    checkIns: 0,
    checkOuts: 0,
    early: 0,
    overstays: 0,
    extensions: 0,
    late: 0,
    moves: 0,
    extras: 0,
    payments: 0,
    refunds: 0,
    goodwill: 0,
    lateCharges: 0,
    turnedAway: 0,
  };

  const folioOf = async (s: Stay) => ok(await h.get(`/v1/reservations/${s.id}/folio`, caller));
  const balanceOf = async (s: Stay) => (await folioOf(s)).balance.amount as number;
  // The method is drawn from the month's random numbers unless given (a draw changes every later one).
  const pay = async (s: Stay, amount: number, method: string = rnd.pick(["cash", "bank_transfer"])) => {
    const p = ok(await h.post("/v1/payments", { reservation_id: s.id, amount, payment_method: { type: method } }, caller), 201);
    s.payments.push({ id: p.id, amount, refunded: 0 });
    add(paid, today, amount);
    counts.payments++;
  };
  const refund = async (s: Stay, amount: number, reason?: string) => {
    let rest = amount;
    for (const p of [...s.payments].reverse()) {
      const take = Math.min(rest, p.amount - p.refunded);
      if (take <= 0) continue;
      ok(await h.post("/v1/refunds", { payment_id: p.id, amount: take, ...(reason ? { reason } : {}) }, caller), 201);
      p.refunded += take;
      rest -= take;
      add(refunded, today, take);
      counts.refunds++;
      if (rest === 0) break;
    }
    expect(rest).toBe(0);
  };
  /** Settles the folio as the desk does: takes what is due (sometimes in two payments) or gives back what the guest overpaid. */
  const settle = async (s: Stay) => {
    const balance = await balanceOf(s);
    if (balance > 0 && balance > 5_000 && rnd.chance(0.3)) {
      await pay(s, 5_000);
      await pay(s, balance - 5_000);
    } else if (balance > 0) await pay(s, balance);
    else if (balance < 0) await refund(s, -balance);
  };
  const checkOut = async (s: Stay) => {
    await settle(s);
    let res = await h.post(`/v1/reservations/${s.id}/check_out`, {}, caller);
    if (res.status === 409 && res.json.error.code === "balance_outstanding") {
      // Leaving early: check-out shortens the stay, which leaves the guest in credit; the refusal names the amount.
      const owed = res.json.error.amount as number;
      expect(owed).toBeLessThan(0);
      await refund(s, -owed);
      res = await h.post(`/v1/reservations/${s.id}/check_out`, {}, caller);
    }
    ok(res);
    s.status = "checked_out";
    s.leftOn = today;
    counts.checkOuts++;
  };

  for (let day = 0; day < DAYS; day++) {
    clock.at(today, 10);
    // Departures (and yesterday's overstays, whose stay the audit extended to today).
    for (const s of stays.filter((s) => s.status === "checked_in" && s.checkOut <= today)) {
      if (!s.overstayed && rnd.chance(0.07)) {
        s.overstayed = true; // still in the room when the day closes
        counts.overstays++;
        continue;
      }
      if (s.type === 0 && rnd.chance(0.1)) {
        ok(await h.post(`/v1/reservations/${s.id}/late_check_out`, {}, caller));
        counts.late++;
      }
      await checkOut(s);
    }
    // Early departures: a guest with nights left leaves today.
    for (const s of stays.filter((s) => s.status === "checked_in" && s.checkIn < today && s.checkOut > today)) {
      if (!rnd.chance(0.05)) continue;
      await checkOut(s);
      s.checkOut = today;
      counts.early++;
    }

    clock.at(today, 12);
    // Housekeeping cleans every room left dirty (by last night's guests and this morning's departures).
    const rooms = ok(await h.get(`/v1/rooms?property_id=${property.id}&limit=100`, caller)).data as { id: string; housekeeping_status: string }[];
    for (const r of rooms.filter((r) => r.housekeeping_status === "dirty"))
      ok(await h.post(`/v1/rooms/${r.id}/housekeeping`, { status: "clean" }, caller));

    // Bookings for today and the coming week; some guests pay a deposit, the non-refundable in full.
    for (let k = 0; k < 9; k++) {
      const type = rnd.chance(0.7) ? 0 : 1;
      const checkIn = addDays(today, rnd.int(0, 6));
      const checkOut = addDays(checkIn, rnd.int(1, 4));
      const adults = rnd.int(1, 2);
      const res = await h.post(
        "/v1/reservations",
        {
          property_id: property.id,
          guest: { first_name: "Guest", last_name: `No ${stays.length + 1}`, email: `guest${stays.length + 1}@example.com` },
          check_in: checkIn,
          check_out: checkOut,
          room_type_id: types[type].roomTypeId,
          rate_plan_id: types[type].ratePlanId,
          adults,
        },
        caller,
      );
      if (res.status === 409 && res.json.error.code === "no_availability") {
        counts.refusedBookings++;
        continue;
      }
      const r = ok(res, 201);
      const s: Stay = { id: r.id, folioId: r.folio_id, type, rate: types[type].rate, adults, checkIn, checkOut, status: "confirmed", payments: [] };
      stays.push(s);
      counts.bookings++;
      const nights = nightsOf(checkIn, checkOut).length;
      if (type === 1 && rnd.chance(0.6)) await pay(s, nights * grossNight(s));
      else if (rnd.chance(0.25)) await pay(s, grossNight(s));
    }

    // Cancellations: far enough ahead (free on the refundable plan), or too late (the nights are kept as the charge).
    for (const s of stays.filter((s) => s.status === "confirmed" && s.checkIn >= today)) {
      if (!rnd.chance(0.06)) continue;
      const lead = nightsOf(today, s.checkIn).length;
      if (lead === 2) continue; // inside 48 h or not depending on the hour: left out of the month's arithmetic
      ok(await h.post(`/v1/reservations/${s.id}/cancel`, { reason: "Plans changed" }, caller));
      s.status = "cancelled";
      counts.cancellations++;
      const free = types[s.type].refundable && lead >= 3;
      const folio = await folioOf(s);
      const kept = (folio.charges as Charge[]).filter((c) => c.kind === "room_night");
      expect(kept.length, `cancelled ${lead} days ahead on the ${free ? "refundable" : "kept"} terms`).toBe(
        free ? 0 : nightsOf(s.checkIn, s.checkOut).length,
      );
      // A free cancellation gets its deposit back.
      if (free && s.payments.length)
        await refund(
          s,
          s.payments.reduce((sum, p) => sum + p.amount - p.refunded, 0),
        );
    }

    clock.at(today, 15);
    // Arrivals: most guests come; the rest become no-shows at the audit.
    for (const s of stays.filter((s) => s.status === "confirmed" && s.checkIn === today)) {
      if (rnd.chance(0.1)) continue;
      const res = await h.post(`/v1/reservations/${s.id}/check_in`, {}, caller);
      if (res.status === 409 && res.json.error.code === "no_availability") {
        // Every room of the type is taken (a guest stayed on past departure): the guest is turned away.
        s.status = "turned_away";
        counts.turnedAway++;
        continue;
      }
      ok(res);
      s.status = "checked_in";
      counts.checkIns++;
    }

    clock.at(today, 20);
    // In house: extras, the odd extension and room move.
    const inHouse = stays.filter((s) => s.status === "checked_in");
    for (const s of inHouse) {
      if (rnd.chance(0.15)) {
        const amount = rnd.int(15, 40) * 100;
        ok(await h.post(`/v1/folios/${s.folioId}/charges`, { description: "Minibar", amount }, caller), 201);
        extras += amount;
        counts.extras++;
      }
      if (s.checkOut === addDays(today, 1) && !s.overstayed && rnd.chance(0.05)) {
        const res = await h.post(`/v1/reservations/${s.id}/change_departure`, { check_out: addDays(s.checkOut, 1) }, caller);
        if (res.status === 200) {
          s.checkOut = addDays(s.checkOut, 1);
          counts.extensions++;
        } else expect(res.json.error.code).toBe("no_availability");
      }
      if (rnd.chance(0.03)) {
        const free = ok(await h.get(`/v1/rooms?property_id=${property.id}&room_type_id=${types[s.type].roomTypeId}&limit=100`, caller)).data.find(
          (r: { occupied: boolean; housekeeping_status: string }) => !r.occupied && ["clean", "inspected"].includes(r.housekeeping_status),
        );
        if (free) {
          ok(await h.post(`/v1/reservations/${s.id}/move_room`, { room_id: free.id, reason: "Noise" }, caller));
          counts.moves++;
        }
      }
    }

    // Rooms and stays agree before the day closes: every guest in house in an occupied room of their own.
    const roomsNow = ok(await h.get(`/v1/rooms?property_id=${property.id}&limit=100`, caller)).data as { id: string; occupied: boolean }[];
    const housed = await Promise.all(
      inHouse.filter((s) => s.status === "checked_in").map(async (s) => ok(await h.get(`/v1/reservations/${s.id}`, caller)).room_id as string),
    );
    expect(new Set(housed).size).toBe(housed.length);
    expect(
      roomsNow
        .filter((r) => r.occupied)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...housed].sort());

    // The night audit closes the day: the arrivals that never came are no-shows; the business date moves on.
    let audit;
    if (mode === "sandbox") audit = ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, caller)).audits[0];
    else {
      // After midnight, before the audit hour: the day is still open, and what is posted now belongs to it.
      clock.at(today, 24, 45);
      for (const s of stays.filter((s) => s.status === "checked_in")) {
        if (!rnd.chance(0.05)) continue;
        const amount = rnd.int(10, 30) * 100;
        ok(await h.post(`/v1/folios/${s.folioId}/charges`, { description: "Night bar", amount }, caller), 201);
        extras += amount;
        counts.extras++;
        await pay(s, (await balanceOf(s)) > 0 ? Math.min(await balanceOf(s), 2_000) : 2_000);
      }
      // The scheduled audit at 03:00 closes the day: it finds the day due by the clock, as the scheduler does.
      clock.at(today, 24 + 3, 5);
      const ran = await runNightAudit({ db: h.db, propertyId: property.id, trigger: "scheduled" });
      audit = ok(await h.get(`/v1/night_audits/${ran!.id}`, caller));
      expect((await h.db.select().from(properties).where(eq(properties.id, property.id)))[0].businessDate).toBe(addDays(today, 1));
    }
    expect(audit.business_date).toBe(today);
    flashes.set(today, { id: audit.id, flash: audit.flash });
    for (const s of stays.filter((s) => s.status === "confirmed" && s.checkIn === today)) {
      s.status = "no_show";
      counts.noShows++;
    }
    // A guest turned away for want of a room is the hotel's shortfall: cancelled, nothing charged, never a no-show.
    for (const s of stays.filter((s) => s.status === "turned_away" && s.checkIn === today)) {
      expect(ok(await h.get(`/v1/reservations/${s.id}`, caller)).status).toBe("cancelled");
      expect((await folioOf(s)).charges, "no charge for a guest the hotel could not room").toEqual([]);
      expect(audit.no_shows).not.toContain(s.id);
      s.status = "cancelled";
    }
    // A guest still in house past departure is extended by the night they stayed, charged on that night.
    for (const s of stays.filter((s) => s.status === "checked_in" && s.checkOut === today)) {
      s.checkOut = addDays(today, 1);
      expect(ok(await h.get(`/v1/reservations/${s.id}`, caller)).check_out, "the audit extends an overstay").toBe(s.checkOut);
    }
    today = addDays(today, 1);

    // The day after, a few departed guests get a goodwill refund: their invoice stands, the folio returns to zero.
    // (Posted on the new business date; the closed day's figures must not move.)
    clock.at(today, 9);
    for (const s of stays.filter(
      (s) => s.status === "checked_out" && s.leftOn === addDays(today, -1) && s.payments.some((p) => p.amount - p.refunded >= 1_000),
    )) {
      if (!rnd.chance(0.1)) continue;
      await refund(s, 1_000, "Goodwill: noisy street");
      counts.goodwill++;
    }
    // And a few are charged for the minibar found after they left: billed on a supplementary
    // invoice (their invoice stands), posted on the new business date, paid in cash at once.
    // (Chosen by place, not by the month's random draws, so the rest of the month is as it was.)
    for (const s of stays.filter((s) => s.status === "checked_out" && s.leftOn === addDays(today, -1))) {
      const i = stays.indexOf(s);
      if (i % 13 !== 5) continue;
      const amount = 1_200 + (i % 4) * 100;
      ok(await h.post(`/v1/folios/${s.folioId}/charges`, { description: "Minibar after departure", amount }, caller), 201);
      extras += amount;
      counts.lateCharges++;
      await pay(s, amount, "cash");
    }
  }

  // The month as the test did it: the nights each stay spent in house, priced by its own rate and taxes.
  const sold = new Map<IsoDate, { rooms: number; net: number; tax: number }>();
  for (const s of stays.filter((s) => s.status === "checked_in" || s.status === "checked_out")) {
    for (const night of nightsOf(s.checkIn, s.checkOut)) {
      if (night >= today) continue;
      const n = sold.get(night) ?? { rooms: 0, net: 0, tax: 0 };
      sold.set(night, { rooms: n.rooms + 1, net: n.net + s.rate, tax: n.tax + Math.round(s.rate * VAT) + s.adults * CITY_TAX });
    }
  }
  const closed = nightsOf(start, today);
  expect(closed.length).toBe(DAYS);
  // The month was the month the issue describes: hundreds of stays and every kind of event.
  expect(counts.bookings).toBeGreaterThan(200);
  for (const [what, n] of Object.entries(counts)) if (what !== "refusedBookings" && what !== "turnedAway") expect(n, what).toBeGreaterThan(0);

  // Reports over the month, read now (long after each day's audit).
  const q = `property_id=${property.id}&from=${start}&to=${today}`;
  const occupancy = new Map(
    (ok(await h.get(`/v1/reports/occupancy?${q}`, caller)).data as { date: IsoDate; rooms_sold: number; rooms_available: number }[]).map((r) => [
      r.date,
      r,
    ]),
  );
  type Split = { net: number; tax: number; gross: number };
  type RevenueRow = {
    date: IsoDate;
    room_revenue: number;
    gross: number;
    other_net: number;
    other_tax: number;
    other_gross: number;
    payments: number;
    refunds: number;
  };
  const revenue = new Map((ok(await h.get(`/v1/reports/revenue?${q}`, caller)).data as RevenueRow[]).map((r) => [r.date, r]));
  const inventory = new Map<IsoDate, { sold: number; total: number }>();
  for (const t of types) {
    for (const n of ok(
      await h.get(`/v1/inventory?property_id=${property.id}&room_type_id=${t.roomTypeId}&from=${start}&to=${addDays(today, 10)}`, caller),
    ).data as {
      date: IsoDate;
      sold: number;
      total: number;
    }[]) {
      const i = inventory.get(n.date) ?? { sold: 0, total: 0 };
      inventory.set(n.date, { sold: i.sold + n.sold, total: i.total + n.total });
      expect(n.sold, `${n.date} never oversold`).toBeLessThanOrEqual(n.total);
    }
  }

  // Every folio, as the guest and the accountant read it.
  const folios = new Map<string, { charges: Charge[]; balance: Money; invoice_id: string | null; totals: { gross: Money } }>();
  for (const s of stays) folios.set(s.id, await folioOf(s));
  const roomLines = new Map<IsoDate, { net: number; tax: number }>();
  for (const s of stays.filter((s) => s.status === "checked_in" || s.status === "checked_out")) {
    // A night's line carries its percentage tax; a per-person fee is a line of its own (kind `tax`) dated that night.
    for (const c of folios.get(s.id)!.charges.filter((c) => c.kind === "room_night" || c.kind === "tax")) {
      const l = roomLines.get(c.date!) ?? { net: 0, tax: 0 };
      roomLines.set(
        c.date!,
        c.kind === "room_night" ? { net: l.net + c.net.amount, tax: l.tax + c.tax.amount } : { net: l.net, tax: l.tax + c.amount.amount },
      );
    }
  }

  for (const d of closed) {
    const expected = sold.get(d) ?? { rooms: 0, net: 0, tax: 0 };
    const { flash } = flashes.get(d)!;
    // Nights sold: the test's count = the flash written at the audit = occupancy now = inventory now.
    expect(flash.rooms_sold, `${d} flash rooms sold`).toBe(expected.rooms);
    expect(occupancy.get(d)!.rooms_sold, `${d} occupancy`).toBe(expected.rooms);
    expect(inventory.get(d)!.sold, `${d} inventory`).toBe(expected.rooms);
    // Room revenue: the test's rates = the folios' room-night lines = the flash = the revenue report now.
    expect(roomLines.get(d) ?? { net: 0, tax: 0 }, `${d} folio room lines`).toEqual({ net: expected.net, tax: expected.tax });
    expect(flash.room_revenue, `${d} flash room revenue`).toBe(expected.net);
    expect(revenue.get(d)!.room_revenue, `${d} revenue report`).toBe(expected.net);
    // Money on the business date it was taken: the test's ledger = the flash = the revenue report now.
    expect(flash.payments, `${d} flash payments`).toBe(paid.get(d) ?? 0);
    expect(revenue.get(d)!.payments, `${d} report payments`).toBe(paid.get(d) ?? 0);
    expect(flash.refunds, `${d} flash refunds`).toBe(refunded.get(d) ?? 0);
    expect(revenue.get(d)!.refunds, `${d} report refunds`).toBe(refunded.get(d) ?? 0);
    // Other revenue (extras, fees, retained nights, credit notes): the flash written at the audit = the revenue report now,
    // and the flash's charges are the report's room and other revenue together.
    const row = revenue.get(d)!;
    expect(flash.other as Split, `${d} flash other revenue`).toEqual({ net: row.other_net, tax: row.other_tax, gross: row.other_gross });
    expect(flash.charged.gross, `${d} flash charged`).toBe(row.gross + row.other_gross);
    // The flash as stored by the audit is the flash served now.
    expect(ok(await h.get(`/v1/night_audits/${flashes.get(d)!.id}`, caller)).flash).toEqual(flash);
  }

  // Every line of every folio lands on exactly one day of the revenue report (its night, or the business date it was posted on);
  // the extras among them are what the desk posted.
  const lines = [...folios.values()].flatMap((f) => f.charges);
  const wide = ok(await h.get(`/v1/reports/revenue?property_id=${property.id}&from=${start}&to=${addDays(today, 14)}`, caller)).totals as RevenueRow;
  expect(wide.gross + wide.other_gross).toBe(lines.reduce((sum, c) => sum + c.amount.amount, 0));
  expect(lines.filter((c) => c.kind === "extra" && c.amount.amount > 0).reduce((sum, c) => sum + c.amount.amount, 0)).toBe(extras);

  // Production: the stays that arrived in the month, sold (in house or departed), each night as it was spent.
  const production = ok(await h.get(`/v1/reports/production?${q}`, caller)).totals;
  const arrived = stays.filter((s) => s.status === "checked_in" || s.status === "checked_out");
  expect(production.room_nights).toBe(arrived.reduce((n, s) => n + nightsOf(s.checkIn, s.checkOut).length, 0));
  expect(production.room_revenue).toBe(arrived.reduce((n, s) => n + nightsOf(s.checkIn, s.checkOut).length * s.rate, 0));
  expect(production.cancellations).toBe(stays.filter((s) => s.status === "cancelled" && s.checkIn < today).length);

  // Every ended stay is settled or listed in receivables with exactly its balance, and nothing else is listed.
  const listed = new Map<string, number>();
  for (let page = ok(await h.get(`/v1/receivables?property_id=${property.id}&limit=100`, caller)); ;) {
    for (const r of page.data as { stay: { reservation_id: string }; amount: Money }[]) listed.set(r.stay.reservation_id, r.amount.amount);
    if (!page.has_more) break;
    page = ok(await h.get(`/v1/receivables?property_id=${property.id}&limit=100&cursor=${page.next_cursor}`, caller));
  }
  const open = new Map(
    stays
      .filter((s) => ["checked_out", "no_show", "cancelled"].includes(s.status) && folios.get(s.id)!.balance.amount !== 0)
      .map((s) => [s.id, folios.get(s.id)!.balance.amount]),
  );
  expect(listed).toEqual(open);
  // The test's ledger of every stay's folio: what it paid less what it got back, against what it was charged.
  for (const s of stays) {
    const folio = folios.get(s.id)!;
    const net = s.payments.reduce((sum, p) => sum + p.amount - p.refunded, 0);
    expect(folio.balance.amount, `${s.id} balance`).toBe(folio.totals.gross.amount - net);
  }

  // Invoices and credit notes each numbered 1, 2, 3 … with no gap; one credit note for each goodwill refund, of exactly its amount.
  const all = async (path: string) => {
    const rows = [];
    for (let page = ok(await h.get(`${path}&limit=100`, caller)); ;) {
      rows.push(...page.data);
      if (!page.has_more) return rows;
      page = ok(await h.get(`${path}&limit=100&cursor=${page.next_cursor}`, caller));
    }
  };
  const invoices = await all(`/v1/invoices?property_id=${property.id}`);
  expect(invoices.map((i: { number: number }) => i.number).sort((a: number, b: number) => a - b)).toEqual(
    invoices.map((_: unknown, i: number) => i + 1),
  );
  const notes = await all(`/v1/credit_notes?property_id=${property.id}`);
  expect(notes.map((n: { number: number }) => n.number).sort((a: number, b: number) => a - b)).toEqual(notes.map((_: unknown, i: number) => i + 1));
  expect(notes.length).toBe(counts.goodwill);
  // One supplementary invoice for each late charge, naming the stay's own invoice, of exactly the charge.
  const supplementary = invoices.filter((i: { supplements: unknown }) => i.supplements);
  expect(supplementary.length).toBe(counts.lateCharges);
  for (const i of supplementary as { lines: { description: string }[]; reservation_id: string; supplements: { invoice_id: string } }[]) {
    expect(i.lines.map((l) => l.description)).toEqual(["Minibar after departure"]);
    expect(i.supplements.invoice_id).toBe(folios.get(i.reservation_id)!.invoice_id);
  }
  for (const n of notes as { totals: { gross: Money } }[]) expect(n.totals.gross.amount).toBe(-1_000);

  // Every departed stay: invoiced for what its folio charged, and settled (a goodwill refund included).
  for (const s of stays.filter((s) => s.status === "checked_out")) {
    const folio = folios.get(s.id)!;
    expect(folio.invoice_id, `${s.id} invoiced`).not.toBeNull();
    expect(folio.balance.amount, `${s.id} settled`).toBe(0);
  }
}

/** One night's price with its exclusive taxes, as the guest pays it. */
function grossNight(s: Pick<Stay, "rate" | "adults">) {
  return s.rate + Math.round(s.rate * VAT) + s.adults * CITY_TAX;
}
