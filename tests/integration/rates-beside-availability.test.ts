import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "@/lib/dates";
import type { StaffRole } from "@/server/auth/users";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller } from "../support/hotel";

// Issue 39, point 7: the rates grid shows, beside each night's price and restrictions, the rooms
// left to sell, counted as GET /v1/availability counts them, so a price is set against demand.

let h: Harness;
let caller: Caller;

const session = (role: StaffRole): StaffSession => ({
  user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@rates.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const staff = (role: StaffRole) => createCaller({ db: h.db, session: session(role), livemode: true });

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

describe("the rates grid beside availability", () => {
  it("each night carries the rooms left (sold, held and out of order taken off) and its restrictions, as availability says", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, days: 10 });
    const setup = { propertyId: hotel.propertyId, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId };
    const [d2, d3, d4, d5] = [2, 3, 4, 5].map((n) => addDays(hotel.today, n));
    // Night 2: all three rooms sold. Night 3: one sold. Night 4: one held. From tonight until
    // night 5, one room out of order (taken after the sales, so night 2 stays sold out).
    for (let i = 0; i < 3; i++) ok(await h.post("/v1/reservations", bookingBody(setup, d2, d3), caller), 201);
    ok(await h.post("/v1/reservations", bookingBody(setup, d3, d4), caller), 201);
    ok(await h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: type.roomTypeId, from: d4, to: d5, rooms: 1 }, caller), 201);
    ok(await h.post(`/v1/rooms/${type.roomIds[0]}/housekeeping`, { status: "out-of-order", until: d5, reason: "Leak under the basin" }, caller));
    // Restrictions set through the contract: closed to arrival on night 3, minimum 2 nights on night 4.
    ok(await h.post(`/v1/rate_plans/${type.ratePlanId}/rates`, { room_type_id: type.roomTypeId, from: d3, to: d4, closed_to_arrival: true }, caller));
    ok(await h.post(`/v1/rate_plans/${type.ratePlanId}/rates`, { room_type_id: type.roomTypeId, from: d4, to: d5, min_stay: 2 }, caller));

    const grid = await staff("manager").rates.calendar({ rate_plan_id: type.ratePlanId, from: hotel.today, to: addDays(hotel.today, 6) });
    const night = (date: string) => grid.data.find((n) => n.date === date && n.room_type_id === type.roomTypeId)!;
    expect(grid.data).toHaveLength(6);
    expect(night(hotel.today)).toMatchObject({ rooms: 3, available: 2, amount: 10_000 });
    expect(night(d2)).toMatchObject({ rooms: 3, available: 0 });
    expect(night(d3)).toMatchObject({ rooms: 3, available: 1, closed_to_arrival: true, min_stay: 1 });
    expect(night(d4)).toMatchObject({ rooms: 3, available: 1, closed_to_arrival: false, min_stay: 2 });
    expect(night(d5)).toMatchObject({ rooms: 3, available: 3 });

    // The same count as a one-night search of /v1/availability, night by night.
    for (const date of [hotel.today, d2, d3, d4, d5]) {
      const search = ok(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${date}&check_out=${addDays(date, 1)}&adults=1`, caller));
      expect(search.data.find((t: { room_type_id: string }) => t.room_type_id === type.roomTypeId).available, date).toBe(night(date).available);
    }
  });

  it("is for those who set rates: the front desk is refused", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, days: 3 });
    await expect(staff("front_desk").rates.calendar({ rate_plan_id: type.ratePlanId, from: hotel.today, to: addDays(hotel.today, 3) })).rejects.toThrow();
  });
});
