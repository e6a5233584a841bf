import { eq, sql } from "drizzle-orm";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, countEvents, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 27, item 4: quotes, bookings and reports state net, tax and gross by the one rule that
// posts the folio's lines, so a quote equals what its folio then charges and a report's totals
// equal the sums of the folios' lines. Every amount is worked out by hand beside it.

let h: Harness;
let caller: Caller;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };
type Money = { amount: number; currency: string };
type Price = { net: Money; tax: Money; gross: Money; taxes: { tax_id: string; name: string; amount: Money; inclusive: boolean }[] };
type Line = { kind: string; amount: Money; net: Money; tax: Money };

const usd = (amount: number) => ({ amount, currency: "USD" });

async function hotelAt(nightly: number, rooms = 3): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, amount: nightly, days: 10, maxOccupancy: 4 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { ...hotel, type };
}
const addTax = async (hotel: Hotel, body: Record<string, unknown>) => ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, ...body }, caller), 201);
/** VAT 7.5 % inside the rate, a sales tax of 4.5 % added to the net, and a city tax of 2.50 per person per night. */
async function taxedHotel() {
  const hotel = await hotelAt(12_345);
  const vat = await addTax(hotel, { name: "VAT", kind: "percentage", percentage: 7.5, inclusive: true });
  const sales = await addTax(hotel, { name: "Sales tax", kind: "percentage", percentage: 4.5 });
  const city = await addTax(hotel, { name: "City tax", kind: "per_person_per_night", amount: 250 });
  return { hotel, vat, sales, city };
}
const book = (hotel: Hotel, from: IsoDate, to: IsoDate, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, extra), caller);
async function quote(hotel: Hotel, from: IsoDate, to: IsoDate, adults: number, children = 0) {
  const answer = ok(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${from}&check_out=${to}&adults=${adults}&children=${children}`, caller));
  return answer.data[0].quotes[0] as { total: Money; price: Price; bookable: boolean };
}
const nightLines = async (reservationId: string): Promise<Line[]> =>
  ok(await h.get(`/v1/reservations/${reservationId}/folio`, caller)).charges.filter((c: Line) => c.kind === "room_night" || c.kind === "tax");
/** net, tax and gross summed over folio lines. */
const sums = (lines: Line[]) => ({
  net: lines.reduce((s, l) => s + l.net.amount, 0),
  tax: lines.reduce((s, l) => s + l.tax.amount, 0),
  gross: lines.reduce((s, l) => s + l.amount.amount, 0),
});
const amounts = (p: Price) => ({ net: p.net.amount, tax: p.tax.amount, gross: p.gross.amount });
const shares = (p: Price) => p.taxes.map((t) => [t.name, t.amount.amount, t.inclusive]);

describe("quotes and bookings state net, tax and gross as the folio charges them", () => {
  it("an inclusive VAT, an exclusive sales tax and a per-person city tax: the quote, the reservation and the folio agree to the unit", async () => {
    const { hotel } = await taxedHotel();
    const T = hotel.today;
    // A night at 12,345 with VAT 7.5 % inside: net = 12,345 ÷ 1.075 = 11,483.72 → 11,484, VAT 12,345 − 11,484 = 861;
    // sales tax 4.5 % of the net: 516.78 → 517, so the room line is 12,345 + 517 = 12,862 with 1,378 of tax.
    // City tax for 2 adults and 1 child: 3 × 250 = 750 a night. A night: net 11,484, tax 2,128, gross 13,612.
    // Three nights: net 34,452, tax 6,384, gross 40,836; VAT 2,583, sales tax 1,551, city tax 2,250.
    const expected = { net: 34_452, tax: 6_384, gross: 40_836 };
    const expectedShares = [["VAT", 2_583, true], ["Sales tax", 1_551, false], ["City tax", 2_250, false]];
    const q = await quote(hotel, T, addDays(T, 3), 2, 1);
    expect(q.bookable).toBe(true);
    expect(q.total).toEqual(usd(3 * 12_345));
    expect(amounts(q.price)).toEqual(expected);
    expect(shares(q.price)).toEqual(expectedShares);
    expect(q.price.gross).toEqual(usd(40_836));

    const r = ok(await book(hotel, T, addDays(T, 3), { adults: 2, children: 1 }), 201);
    expect(r.price).toEqual(q.price);
    expect(r.total).toEqual(q.total);
    expect(sums(await nightLines(r.id))).toEqual(expected);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, caller)).totals).toEqual({ net: usd(34_452), tax: usd(6_384), gross: usd(40_836) });
    expect(ok(await h.get(`/v1/reservations/${r.id}`, caller)).price).toEqual(q.price);
    const listed = ok(await h.get(`/v1/reservations?property_id=${hotel.propertyId}`, caller)).data.find((x: { id: string }) => x.id === r.id);
    expect(listed.price).toEqual(q.price);
    // The guest's confirmation states the same price: what they pay, and the taxes in it.
    const [mail] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.reservationId, r.id));
    expect(mail.text).toMatch(/Total:\s+\$408\.36\n/);
    expect(mail.text).toMatch(/Of which taxes:\s+\$63\.84\n/);

    // Two nights for one adult: city tax 250 a night. Net 2 × 11,484 = 22,968; tax 2 × (1,378 + 250) = 3,256; gross 26,224.
    const shorter = await quote(hotel, T, addDays(T, 2), 1);
    expect(amounts(shorter.price)).toEqual({ net: 22_968, tax: 3_256, gross: 26_224 });
    const changed = ok(await h.patch(`/v1/reservations/${r.id}`, { check_out: addDays(T, 2), adults: 1, children: 0 }, caller));
    expect(changed.price).toEqual(shorter.price);
    expect(shares(changed.price)).toEqual([["VAT", 1_722, true], ["Sales tax", 1_034, false], ["City tax", 500, false]]);
    expect(sums(await nightLines(r.id))).toEqual({ net: 22_968, tax: 3_256, gross: 26_224 });

    // A tax changed afterwards prices new quotes; the booked stay keeps what its folio was charged.
    const { data: taxes } = ok(await h.get(`/v1/taxes?property_id=${hotel.propertyId}`, caller));
    const city = taxes.find((t: { name: string }) => t.name === "City tax");
    ok(await h.patch(`/v1/taxes/${city.id}`, { amount: 300 }, caller));
    expect(amounts((await quote(hotel, T, addDays(T, 2), 1)).price)).toEqual({ net: 22_968, tax: 3_356, gross: 26_324 });
    expect(ok(await h.get(`/v1/reservations/${r.id}`, caller)).price).toEqual(changed.price);
  });

  it("an early departure keeps the nights stayed and their taxes; a property without taxes quotes its rates as net", async () => {
    const { hotel } = await taxedHotel();
    const T = hotel.today;
    const r = ok(await book(hotel, T, addDays(T, 3), { adults: 2 }), 201);
    // A night for two: 12,862 + 500 = 13,362 with 1,878 of tax; three nights 40,086 with 5,634.
    expect(amounts(r.price)).toEqual({ net: 34_452, tax: 5_634, gross: 40_086 });
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller));
    ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 13_362, payment_method: { type: "cash" } }, caller), 201);
    const out = ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller));
    expect(out.check_out).toBe(addDays(T, 1));
    // One night left: net 11,484, tax 1,878, gross 13,362, as the folio's remaining lines.
    expect(amounts(out.price)).toEqual({ net: 11_484, tax: 1_878, gross: 13_362 });
    expect(sums(await nightLines(r.id))).toEqual({ net: 11_484, tax: 1_878, gross: 13_362 });

    const plain = await hotelAt(9_900);
    const q = await quote(plain, plain.today, addDays(plain.today, 2), 2);
    expect(q.price).toEqual({ net: usd(19_800), tax: usd(0), gross: usd(19_800), taxes: [] });
    const booked = ok(await book(plain, plain.today, addDays(plain.today, 2), { adults: 2 }), 201);
    expect(booked.price).toEqual(q.price);
  });

  it("a wrong availability query is refused with the contract's error and prices nothing", async () => {
    const { hotel } = await taxedHotel();
    const T = hotel.today;
    const events = await countEvents(h, h.main.account.id);
    expectError(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${T}&check_out=${addDays(T, 1)}&adults=0`, caller), 400, "parameter_invalid", "adults");
    expectError(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${T}&check_out=${T}&adults=1`, caller), 400, "parameter_invalid", "check_out");
    expectError(await h.get(`/v1/availability?property_id=prop_missing&check_in=${T}&check_out=${addDays(T, 1)}&adults=1`, caller), 404, "resource_missing", "property_id");
    expect(await countEvents(h, h.main.account.id)).toBe(events);
  });
});

describe("reports state net, tax and gross as the sums of the folios' lines", () => {
  it("the production and revenue reports' totals equal the folios' room-night and per-night-tax lines", async () => {
    const { hotel } = await taxedHotel();
    const T = hotel.today;
    // A: two nights for two: 2 × (net 11,484, tax 1,378 + 500) = net 22,968, tax 3,756, gross 26,724.
    const a = ok(await book(hotel, T, addDays(T, 2), { adults: 2 }), 201);
    // B: one night (T+1) for an adult and a child: net 11,484, tax 1,878, gross 13,362.
    const b = ok(await book(hotel, addDays(T, 1), addDays(T, 2), { adults: 1, children: 1 }), 201);
    // C: one night (T) for one: net 11,484, tax 1,628, gross 13,112; an extra on its folio is no room revenue.
    const c = ok(await book(hotel, T, addDays(T, 1), { adults: 1 }), 201);
    ok(await h.post(`/v1/folios/${c.folio_id}/charges`, { description: "Minibar", amount: 1_000 }, caller), 201);
    // D: booked and cancelled: counted in neither report.
    const d = ok(await book(hotel, addDays(T, 3), addDays(T, 4), { adults: 1 }), 201);
    ok(await h.post(`/v1/reservations/${d.id}/cancel`, {}, caller));
    // Totals: net 22,968 + 11,484 + 11,484 = 45,936; tax 3,756 + 1,878 + 1,628 = 7,262; gross 53,198.
    const expected = { net: 45_936, tax: 7_262, gross: 53_198 };
    const folios = sums([...(await nightLines(a.id)), ...(await nightLines(b.id)), ...(await nightLines(c.id))]);
    expect(folios).toEqual(expected);

    const range = `property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 7)}`;
    const production = ok(await h.get(`/v1/reports/production?${range}&group_by=source`, caller));
    expect(production.totals).toMatchObject({ reservations: 3, room_nights: 4, room_revenue: 4 * 12_345, ...expected });
    expect(production.data).toEqual([expect.objectContaining({ group: "api", net: 45_936, tax: 7_262, gross: 53_198 })]);

    const revenue = ok(await h.get(`/v1/reports/revenue?${range}`, caller));
    expect(revenue.totals).toMatchObject({ room_revenue: 4 * 12_345, ...expected });
    // Night T: A's first night and C; night T+1: A's second night and B.
    const byNight = (date: IsoDate) => revenue.data.find((row: { date: string }) => row.date === date);
    expect(byNight(T)).toMatchObject({ net: 22_968, tax: 3_506, gross: 26_474 });
    expect(byNight(addDays(T, 1))).toMatchObject({ net: 22_968, tax: 3_756, gross: 26_724 });
    expect(byNight(addDays(T, 3))).toMatchObject({ net: 0, tax: 0, gross: 0 });

    // The CSV carries the same columns.
    const csv = await h.get(`/v1/reports/production?${range}&group_by=source&format=csv`, caller);
    expect(csv.status).toBe(200);
    const rows = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual([expect.objectContaining({ group: "api", net: "45936", tax: "7262", gross: "53198" })]);
    const revenueCsv = parse((await h.get(`/v1/reports/revenue?${range}&format=csv`, caller)).text, { columns: true }) as Record<string, string>[];
    expect(revenueCsv.find((row) => row.date === T)).toMatchObject({ net: "22968", tax: "3506", gross: "26474" });
  });
});
