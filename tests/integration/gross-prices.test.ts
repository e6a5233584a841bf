import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StaffRole } from "@/server/auth/users";
import { addDays, todayIn } from "@/lib/dates";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, insertProperty, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 27: where staff see a stay's price (the tape chart's preview of a drag, the group page),
// they see what the guest pays (gross), as the folio charges it, beside the rates' total. The
// property adds VAT of 10 % to the net of each room night and a city tax of 3.00 per person per
// night; every figure below is worked out by hand beside it.

let h: Harness;
let api: Caller;
let hotel: { propertyId: string; today: string };
let std: RoomTypeSetup;
let suite: RoomTypeSetup;
const d = (n: number) => addDays(hotel.today, n);
const usd = (amount: number) => ({ amount, currency: "USD" });

const session = (role: StaffRole): StaffSession => ({
  user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@gross.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole) => createCaller({ db: h.db, session: session(role), livemode: false });

type Price = { net: { amount: number }; tax: { amount: number }; gross: { amount: number }; taxes: { name: string; amount: { amount: number }; inclusive: boolean }[] };
const figures = (p: Price) => ({ net: p.net.amount, tax: p.tax.amount, gross: p.gross.amount, taxes: p.taxes.map((t) => [t.name, t.amount.amount, t.inclusive]) });

const guest = (last: string) => ({ first_name: "Guest", last_name: last, email: `${last.toLowerCase()}@gross.example` });
const book = (t: RoomTypeSetup, checkIn: string, checkOut: string, adults: number, last: string) =>
  as("front_desk").reservations.create({
    property_id: hotel.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: checkIn,
    check_out: checkOut,
    adults,
    guest: guest(last),
    source: "phone",
  });

beforeAll(async () => {
  h = await startHarness();
  api = { token: h.main.token, sandbox: true };
  const property = await insertProperty(h, h.main.account.id, { livemode: false, name: "Gross Inn" });
  hotel = { propertyId: property.id, today: todayIn(property.timezone) };
  std = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 3, amount: 12_000, maxOccupancy: 3 });
  suite = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 1, amount: 20_000, maxOccupancy: 3 });
  // The standard plan sells the suite too, at 200.00 a night.
  ok(await h.patch(`/v1/rate_plans/${std.ratePlanId}`, { room_type_ids: [std.roomTypeId, suite.roomTypeId] }, api));
  ok(await h.post(`/v1/rate_plans/${std.ratePlanId}/rates`, { room_type_id: suite.roomTypeId, from: hotel.today, to: addDays(hotel.today, 60), amount: 20_000 }, api));
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 10 }, api), 201);
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "City tax", kind: "per_person_per_night", amount: 300 }, api), 201);
}, 120_000);
afterAll(async () => h?.close());

describe("the tape chart's preview states the gross", () => {
  it("extending a stay in house (two adults) by two nights: four nights' gross against two", async () => {
    const stay = await book(std, d(0), d(2), 2, "Inhouse");
    await as("front_desk").reservations.checkIn({ id: stay.id, room_id: std.roomIds[0] });
    const p = await as("front_desk").tapeChart.preview({ reservation_id: stay.id, check_out: d(4) });
    // A night: 12,000 net, VAT 10 % = 1,200, city tax 2 × 300 = 600: tax 1,800, gross 13,800.
    // Two nights: net 24,000, tax 3,600 (VAT 2,400, city tax 1,200), gross 27,600; four: twice that.
    expect(p.kind).toBe("departure");
    expect(p.before.total).toEqual(usd(24_000));
    expect(figures(p.before.price)).toEqual({ net: 24_000, tax: 3_600, gross: 27_600, taxes: [["VAT", 2_400, false], ["City tax", 1_200, false]] });
    expect(p.after.total).toEqual(usd(48_000));
    expect(figures(p.after.price)).toEqual({ net: 48_000, tax: 7_200, gross: 55_200, taxes: [["VAT", 4_800, false], ["City tax", 2_400, false]] });
    expect(p.fee).toEqual(usd(0));
    // The guest pays 55,200 − 27,600 = 27,600 more, not the rates' 24,000.
    expect(p.difference).toEqual(usd(27_600));
    // The reservation page states the same price the preview started from.
    expect((await as("front_desk").reservations.get({ id: stay.id })).reservation.price.gross).toEqual(usd(27_600));
  });

  it("a confirmed stay (one adult) to the suite, and a night longer: the gross of each", async () => {
    const stay = await book(std, d(1), d(3), 1, "Arriving");
    // A standard night for one: 12,000 + 1,200 + 300 = 13,500; two nights 27,000 (tax 3,000).
    // A suite night for one: 20,000 + 2,000 + 300 = 22,300; two nights 44,600 (tax 4,600).
    const upgrade = await as("front_desk").tapeChart.preview({ reservation_id: stay.id, room_type_id: suite.roomTypeId });
    expect(upgrade.kind).toBe("room_type");
    expect(figures(upgrade.before.price)).toMatchObject({ net: 24_000, tax: 3_000, gross: 27_000 });
    expect(figures(upgrade.after.price)).toEqual({ net: 40_000, tax: 4_600, gross: 44_600, taxes: [["VAT", 4_000, false], ["City tax", 600, false]] });
    expect(upgrade.difference).toEqual(usd(17_600));
    // Three standard nights: 40,500, so 13,500 more.
    const longer = await as("front_desk").tapeChart.preview({ reservation_id: stay.id, check_out: d(4) });
    expect(longer.kind).toBe("dates");
    expect(figures(longer.after.price)).toMatchObject({ net: 36_000, tax: 4_500, gross: 40_500 });
    expect(longer.difference).toEqual(usd(13_500));
    // Previews keep nothing.
    expect((await as("front_desk").reservations.get({ id: stay.id })).reservation.price.gross).toEqual(usd(27_000));
  });

  it("moving a guest in house to another room of the type changes no price", async () => {
    const stay = await book(std, d(0), d(1), 3, "Mover");
    await as("front_desk").reservations.checkIn({ id: stay.id, room_id: std.roomIds[1] });
    const p = await as("front_desk").tapeChart.preview({ reservation_id: stay.id, room_id: std.roomIds[2] });
    // One night for three: 12,000 + 1,200 + 900 = 14,100.
    expect(p.before.price.gross).toEqual(usd(14_100));
    expect(p.after.price.gross).toEqual(usd(14_100));
    expect(p.difference).toEqual(usd(0));
  });
});

describe("the group page states the gross", () => {
  it("each room's gross, and the group's over the rooms not cancelled", async () => {
    const group = await as("front_desk").groups.create({
      property_id: hotel.propertyId,
      billing: "master",
      guest: guest("Lovelace"),
      check_in: d(10),
      check_out: d(12),
      rooms: [
        { room_type_id: std.roomTypeId, rate_plan_id: std.ratePlanId, adults: 2, children: 0 },
        { room_type_id: suite.roomTypeId, rate_plan_id: std.ratePlanId, adults: 1, children: 0 },
        { room_type_id: std.roomTypeId, rate_plan_id: std.ratePlanId, adults: 1, children: 0 },
      ],
      source: "phone",
    });
    // The third room is cancelled (well before the 24-hour deadline): it leaves the group's price.
    await as("front_desk").reservations.cancel({ id: group.reservations[2].id });
    const desk = await as("front_desk").groups.desk({ id: group.id });
    // Standard for two, two nights: 27,600 (tax 3,600); suite for one, two nights: 44,600 (tax 4,600).
    expect(desk.rooms.map((r) => r.reservation.price.gross.amount)).toEqual([27_600, 44_600, 27_000]);
    // The group: 27,600 + 44,600 = 72,200, of which 8,200 tax (VAT 2,400 + 4,000, city tax 1,200 + 600).
    expect(figures(desk.price)).toEqual({ net: 64_000, tax: 8_200, gross: 72_200, taxes: [["VAT", 6_400, false], ["City tax", 1_800, false]] });
    // The rates' total stays what it was: 24,000 + 40,000.
    expect(desk.group.total).toEqual(usd(64_000));
  });
});
