import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reservations } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { addDays, todayIn } from "@/lib/dates";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, insertProperty, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 23, item 3: the front desk's home (`reservations.deskDay`): today's counts, occupancy
// tonight from the occupancy report, and the rooms that keep arriving guests waiting.

let h: Harness;
let api: Caller;
let hotel: { propertyId: string; today: string };
let kings: RoomTypeSetup;
let suite: RoomTypeSetup;

const session = (role: StaffRole, accountId = h.main.account.id): StaffSession => ({
  user: { id: `usr_${role}`, accountId, role, name: role, email: `${role}@home.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole, accountId?: string) => createCaller({ db: h.db, session: session(role, accountId), livemode: false });

async function arrive(t: RoomTypeSetup, last: string) {
  const body = {
    property_id: hotel.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: hotel.today,
    check_out: addDays(hotel.today as never, 1),
    adults: 1,
    guest: { first_name: "Home", last_name: last, email: `${last.toLowerCase()}@home.example` },
  };
  return ok(await h.post("/v1/reservations", body, api), 201);
}
const mark = async (roomId: string, status: string) => ok(await h.post(`/v1/rooms/${roomId}/housekeeping`, { status }, api));

beforeAll(async () => {
  h = await startHarness();
  api = { token: h.main.token, sandbox: true };
  const property = await insertProperty(h, h.main.account.id, { livemode: false, name: "Home Test Inn" });
  hotel = { propertyId: property.id, today: todayIn(property.timezone) };
  kings = await buildRoomType(h, api, hotel.propertyId, hotel.today as never, { rooms: 3 });
  suite = await buildRoomType(h, api, hotel.propertyId, hotel.today as never, { rooms: 2 });
}, 120_000);
afterAll(async () => h?.close());

describe("the front desk's day", () => {
  it("counts arrivals, in-house and departures, occupancy tonight, and the rooms not ready for arrivals", async () => {
    const [k1, k2, k3] = kings.roomIds;
    await mark(k1, "inspected");
    await mark(k2, "dirty");
    await mark(k3, "dirty");
    const a = await arrive(kings, "Alpha");
    await arrive(kings, "Bravo");
    await arrive(kings, "Charlie");
    const s = await arrive(suite, "Delta");
    // Alpha takes the inspected king, Delta a suite.
    expect(ok(await h.post(`/v1/reservations/${a.id}/check_in`, {}, api)).room_id).toBe(k1);
    ok(await h.post(`/v1/reservations/${s.id}/check_in`, {}, api));
    // Tonight: three kings and a suite sold of five rooms, as the occupancy report counts them.
    const first = await as("front_desk").reservations.deskDay({ property_id: hotel.propertyId });
    expect(first.tonight).toMatchObject({ rooms_available: 5, rooms_sold: 4, occupancy: 0.8 });
    // Delta moved a day back (by hand: no action moves a stay into the past) is due out today.
    await h.db
      .update(reservations)
      .set({ checkIn: addDays(hotel.today as never, -1), checkOut: hotel.today })
      .where(eq(reservations.id, s.id));

    const day = await as("front_desk").reservations.deskDay({ property_id: hotel.propertyId });
    expect(day.today).toBe(hotel.today);
    // Arrivals: the three kings (Alpha in, Bravo and Charlie to come); in house: Alpha and Delta;
    // departures: Delta, still to check out.
    expect(day.counts).toEqual({ arrivals: 3, arrivals_pending: 2, in_house: 2, departures: 1, departures_pending: 1 });
    // Two kings still to arrive, none ready: the two dirty kings are what keeps them waiting.
    expect(day.rooms_not_ready).toEqual([
      {
        room_type: expect.objectContaining({ id: kings.roomTypeId }),
        arrivals_pending: 2,
        ready: 0,
        rooms: [
          expect.objectContaining({ id: k2, housekeeping_status: "dirty" }),
          expect.objectContaining({ id: k3, housekeeping_status: "dirty" }),
        ],
      },
    ]);

    // One king cleaned: still one short, one dirty room left to clean.
    await mark(k2, "clean");
    const later = await as("front_desk").reservations.deskDay({ property_id: hotel.propertyId });
    expect(later.rooms_not_ready).toEqual([expect.objectContaining({ arrivals_pending: 2, ready: 1, rooms: [expect.objectContaining({ id: k3 })] })]);
    await mark(k3, "clean");
    expect((await as("front_desk").reservations.deskDay({ property_id: hotel.propertyId })).rooms_not_ready).toEqual([]);
  });

  it("is the front desk's, owners' and managers', not housekeeping's; another account's property is missing", async () => {
    await expect(as("housekeeping").reservations.deskDay({ property_id: hotel.propertyId })).rejects.toBeInstanceOf(TRPCError);
    expect((await as("owner").reservations.deskDay({ property_id: hotel.propertyId })).today).toBe(hotel.today);
    const other = await h.newAccount("Elsewhere Inns");
    const error = await as("owner", other.account.id)
      .reservations.deskDay({ property_id: hotel.propertyId })
      .then(
        () => null,
        (e: TRPCError) => e,
      );
    expect(error?.code).toBe("NOT_FOUND");
  });
});
