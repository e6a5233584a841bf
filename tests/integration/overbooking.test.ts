import { and, eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folioCharges, guests, reservations } from "@/db/schema";
import { addDays, nightsOf, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, eventsFor, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// "No room type is ever sold beyond total − out_of_order − held on any night, under any
// concurrency" (contract §6). Only PostgreSQL can race: PGlite is a single connection that runs
// one transaction at a time, so on it these requests would simply queue.

describe.skipIf(!onPostgres)("concurrent sales on PostgreSQL (skipped on PGlite: one connection, no concurrency to race)", () => {
  let h: Harness;
  let caller: Caller;
  let accountId: string;
  let hotel: Awaited<ReturnType<typeof liveHotel>>;
  const d = (n: number): IsoDate => addDays(hotel.today, n);
  const setupOf = (t: RoomTypeSetup) => ({ propertyId: hotel.propertyId, ...t });
  const guest = (i: number | string) => ({ first_name: "Racer", last_name: `No${i}`, email: `racer${i}@example.com` });

  beforeAll(async () => {
    h = await startHarness({ max: 20 });
    caller = { token: h.main.token };
    accountId = h.main.account.id;
    hotel = await liveHotel(h, accountId, "America/Chicago");
  });
  afterAll(async () => h?.close());

  /** Live reservations per night of a room type, counted from the reservations themselves. */
  async function liveNights(roomTypeId: string) {
    const rows = await h.db
      .select()
      .from(reservations)
      .where(and(eq(reservations.roomTypeId, roomTypeId), inArray(reservations.status, ["confirmed", "checked_in", "checked_out"])));
    const perNight = new Map<string, number>();
    for (const r of rows) for (const night of nightsOf(r.checkIn, r.checkOut)) perNight.set(night, (perNight.get(night) ?? 0) + 1);
    return perNight;
  }

  /** sold equals the live reservations on every night, and never exceeds what may be sold. */
  async function expectConsistent(t: RoomTypeSetup, from: IsoDate, to: IsoDate) {
    const inventory = await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, from, to);
    const live = await liveNights(t.roomTypeId);
    for (const [date, n] of inventory) {
      expect(n.sold, `sold on ${date}`).toBe(live.get(date) ?? 0);
      expect(n.sold + n.held + n.out_of_order, `sellable on ${date}`).toBeLessThanOrEqual(n.total);
      expect(n.available).toBe(n.total - n.sold - n.held - n.out_of_order);
    }
    return inventory;
  }

  it("N free rooms and 3N+10 simultaneous bookings of the same nights: exactly N succeed", async () => {
    const N = 5;
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: N, days: 30 });
    const answers = await Promise.all(Array.from({ length: 3 * N + 10 }, (_, i) => h.post("/v1/reservations", bookingBody(setupOf(t), d(5), d(8), { guest: guest(`a${i}`) }), caller)));
    const won = answers.filter((r) => r.status === 201);
    const lost = answers.filter((r) => r.status !== 201);
    expect(won).toHaveLength(N);
    expect(lost).toHaveLength(2 * N + 10);
    for (const res of lost) expectError(res, 409, "no_availability", "room_type_id");

    const inventory = await expectConsistent(t, d(5), d(8));
    expect([...inventory.values()].map((n) => [n.sold, n.available])).toEqual([[N, 0], [N, 0], [N, 0]]);
    const availability = ok(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${d(5)}&check_out=${d(8)}&adults=1&room_type_id=${t.roomTypeId}`, caller));
    expect(availability.data[0].available).toBe(0);
    expect(availability.data[0].quotes[0]).toMatchObject({ bookable: false, reason: "no_availability" });
    // The losers left nothing behind: N reservations, N reservation.created, N new guests.
    const rows = await h.db.select().from(reservations).where(eq(reservations.roomTypeId, t.roomTypeId));
    expect(rows.map((r) => r.id).sort()).toEqual(won.map((r) => r.json.id).sort());
    expect(await eventsFor(h, accountId, "reservation.created", (o) => o.room_type_id === t.roomTypeId)).toHaveLength(N);
    const racers = await h.db.select().from(guests).where(and(eq(guests.accountId, accountId), like(guests.email, "racera%")));
    expect(racers.map((g) => g.id).sort()).toEqual(won.map((r) => r.json.guest.id).sort());
  });

  it("overlapping stays of many lengths, all at once, never oversell a night and are refused only for a full night", async () => {
    const rooms = 3;
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, days: 40 });
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const stays = Array.from({ length: 40 }, () => {
      const start = 10 + Math.floor(random() * 8);
      return [d(start), d(start + 1 + Math.floor(random() * 4))] as const;
    });
    const answers = await Promise.all(stays.map(([from, to], i) => h.post("/v1/reservations", bookingBody(setupOf(t), from, to, { guest: guest(`b${i}`) }), caller)));
    for (const res of answers) expect([201, 409], res.text).toContain(res.status);
    const inventory = await expectConsistent(t, d(10), d(22));
    expect(answers.some((r) => r.status === 201)).toBe(true);
    expect(answers.some((r) => r.status === 409)).toBe(true);
    // Sales only grow here, so a refused stay must still touch a night that is full.
    for (const [i, res] of answers.entries()) {
      if (res.status !== 409) continue;
      expectError(res, 409, "no_availability");
      const full = nightsOf(...stays[i]).some((night) => inventory.get(night)!.available === 0);
      expect(full, `stay ${stays[i].join("→")} was refused with room left`).toBe(true);
    }
  });

  it("holds and bookings racing for the last rooms share them exactly", async () => {
    const rooms = 4;
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, days: 30 });
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        i % 2
          ? h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(3), to: d(5), rooms: 1 }, caller)
          : h.post("/v1/reservations", bookingBody(setupOf(t), d(3), d(5), { guest: guest(`c${i}`) }), caller),
      ),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(rooms);
    for (const res of answers.filter((r) => r.status !== 201)) expectError(res, 409, "no_availability");
    const holds = answers.filter((r, i) => r.status === 201 && i % 2).length;
    const inventory = await expectConsistent(t, d(3), d(5));
    for (const n of inventory.values()) expect([n.held, n.sold, n.available]).toEqual([holds, rooms - holds, 0]);
  });

  it("the same new guest booking many stays at once becomes one guest", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 10, days: 30 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => h.post("/v1/reservations", bookingBody(setupOf(t), d(1), d(2), { guest: { first_name: "Same", last_name: "Person", email: i % 2 ? "Same.Person@example.com" : "same.person@EXAMPLE.com" } }), caller)),
    );
    for (const res of answers) expect(res.status, res.text).toBe(201);
    const ids = new Set(answers.map((r) => r.json.guest.id));
    expect(ids.size).toBe(1);
    const rows = await h.db.select().from(guests).where(and(eq(guests.accountId, accountId), eq(guests.emailKey, "same.person@example.com")));
    expect(rows).toHaveLength(1);
    expect(await eventsFor(h, accountId, "guest.created", (o) => o.id === rows[0].id)).toHaveLength(1);
  });

  it("a modification and a cancellation of one reservation, at once, leave inventory equal to the live reservations", async () => {
    const rooms = 4;
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, days: 40 });
    for (let round = 0; round < 3; round++) {
      const base = 20 + round * 5;
      const booked = [];
      for (let i = 0; i < rooms; i++) booked.push(ok(await h.post("/v1/reservations", bookingBody(setupOf(t), d(base), d(base + 2), { guest: guest(`d${round}-${i}`) }), caller), 201));
      // For each reservation: move it one night later and cancel it, at the same time; and
      // newcomers trying to take the nights being given back.
      const answers = await Promise.all([
        ...booked.flatMap((r) => [
          h.patch(`/v1/reservations/${r.id}`, { check_in: d(base + 1), check_out: d(base + 3) }, caller),
          h.post(`/v1/reservations/${r.id}/cancel`, {}, caller),
        ]),
        ...Array.from({ length: rooms }, (_, i) => h.post("/v1/reservations", bookingBody(setupOf(t), d(base), d(base + 3), { guest: guest(`e${round}-${i}`) }), caller)),
      ]);
      for (const [i, res] of answers.entries()) {
        if (i < rooms * 2 && i % 2 === 1) expect(res.status, res.text).toBe(200); // every cancellation wins eventually
        else if (i < rooms * 2) expect([200, 409], res.text).toContain(res.status); // a PATCH after the cancel is refused
        else expect([201, 409], res.text).toContain(res.status);
        if (res.status === 409) expect(["invalid_state_transition", "no_availability"]).toContain(res.json.error.code);
      }
      for (const r of booked) {
        const now = ok(await h.get(`/v1/reservations/${r.id}`, caller));
        expect(now.status).toBe("cancelled");
        // A free cancellation drops the room charges, whichever dates the stay ended with.
        const charges = await h.db.select().from(folioCharges).where(eq(folioCharges.folioId, r.folio_id));
        expect(charges.filter((c) => c.kind === "room_night")).toEqual([]);
      }
      await expectConsistent(t, d(base - 1), d(base + 4));
    }
  });

  it("two reservations moving into the one free room at once: one wins", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, days: 60 });
    const a = ok(await h.post("/v1/reservations", bookingBody(setupOf(t), d(40), d(41), { guest: guest("f1") }), caller), 201);
    const b = ok(await h.post("/v1/reservations", bookingBody(setupOf(t), d(42), d(43), { guest: guest("f2") }), caller), 201);
    const [ma, mb] = await Promise.all([
      h.patch(`/v1/reservations/${a.id}`, { check_in: d(41), check_out: d(42) }, caller),
      h.patch(`/v1/reservations/${b.id}`, { check_in: d(41), check_out: d(42) }, caller),
    ]);
    expect([ma.status, mb.status].sort()).toEqual([200, 409]);
    const loser = ma.status === 409 ? { res: ma, before: a } : { res: mb, before: b };
    expectError(loser.res, 409, "no_availability");
    expect(ok(await h.get(`/v1/reservations/${loser.before.id}`, caller))).toMatchObject({ check_in: loser.before.check_in, check_out: loser.before.check_out, updated_at: loser.before.updated_at });
    const inventory = await expectConsistent(t, d(40), d(43));
    expect([...inventory.values()].map((n) => n.sold)).toEqual(ma.status === 200 ? [0, 1, 1] : [1, 1, 0]);
  });
  it("two creates of one room number at once: one room, the other a 422 naming `number`", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, days: 5 });
    const answers = await Promise.all(Array.from({ length: 6 }, () => h.post("/v1/rooms", { room_type_id: t.roomTypeId, number: "9901" }, caller)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const lost of answers.filter((r) => r.status !== 201)) expectError(lost, 422, "parameter_invalid", "number");
    const inventory = await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, d(0), d(1));
    expect([...inventory.values()][0].total).toBe(2);
  });

});
