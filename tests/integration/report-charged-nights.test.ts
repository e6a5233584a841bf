import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { folioCharges } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 26: the revenue report's net, tax and gross per night are kept summed by triggers as stays
// and folio lines are written, in whichever order. After every step of a stay's life below, the
// report's nights must equal the sums of the folio lines (room nights and per-night taxes) of the
// nights sold, summed here from the folios, and the amounts worked out by hand beside each step.

let h: Harness;
let caller: Caller;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Money = { amount: number };
type Line = { kind: string; date: string | null; amount: Money; tax: Money };
type Night = { net: number; tax: number; gross: number };
const soldStatuses = ["confirmed", "checked_in", "checked_out"];

/** What the folios charge for each sold night: their room-night and tax lines of the nights the stays still have. */
async function folioSums(ids: string[]) {
  const sums = new Map<string, Night>();
  for (const id of ids) {
    const r = ok(await h.get(`/v1/reservations/${id}`, caller));
    if (!soldStatuses.includes(r.status)) continue;
    const nights = new Set((r.nightly as { date: string }[]).map((n) => n.date));
    const { charges } = ok(await h.get(`/v1/reservations/${id}/folio`, caller));
    for (const line of charges as Line[]) {
      if ((line.kind !== "room_night" && line.kind !== "tax") || !line.date || !nights.has(line.date)) continue;
      const s = sums.get(line.date) ?? { net: 0, tax: 0, gross: 0 };
      sums.set(line.date, { net: s.net + line.amount.amount - line.tax.amount, tax: s.tax + line.tax.amount, gross: s.gross + line.amount.amount });
    }
  }
  return sums;
}

describe("the revenue report's net, tax and gross follow the folios through every order of writing", () => {
  it("booking, cancellation without refund, early departure, upgrade, re-quote, extension and changed lines", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const T = hotel.today;
    // Non-refundable: a cancellation keeps its room nights on the folio, as its charge.
    const a: RoomTypeSetup = await buildRoomType(h, caller, hotel.propertyId, T, { rooms: 3, amount: 10_000, days: 10, refundable: false, maxOccupancy: 2 });
    const b: RoomTypeSetup = await buildRoomType(h, caller, hotel.propertyId, T, { rooms: 3, amount: 20_000, days: 10, maxOccupancy: 2 });
    await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id in (${a.roomTypeId}, ${b.roomTypeId})`);
    ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 10 }, caller), 201);
    ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "City tax", kind: "per_person_per_night", amount: 250 }, caller), 201);
    const book = async (from: IsoDate, to: IsoDate, adults: number) =>
      ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: a.roomTypeId, ratePlanId: a.ratePlanId }, from, to, { adults }), caller), 201);

    const stays: string[] = [];
    const range = `property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 7)}`;
    // A night at 10,000 with VAT 10 % added: a room line of 11,000 with 1,000 of tax; the city tax
    // 250 a person. For two: gross 11,500, tax 1,500; for one: gross 11,250, tax 1,250; net 10,000.
    const two = { gross: 11_500, tax: 1_500 };
    const one = { gross: 11_250, tax: 1_250 };
    const add = (...nights: { gross: number; tax: number }[]) => {
      const gross = nights.reduce((s, n) => s + n.gross, 0);
      const tax = nights.reduce((s, n) => s + n.tax, 0);
      return { net: gross - tax, tax, gross };
    };
    const none = { net: 0, tax: 0, gross: 0 };
    async function expectReport(byHand: Record<number, Night>) {
      const report = ok(await h.get(`/v1/reports/revenue?${range}`, caller));
      const folios = await folioSums(stays);
      for (const row of report.data as (Night & { date: IsoDate })[]) {
        const night = { net: row.net, tax: row.tax, gross: row.gross };
        expect(night, `the folios' lines of the sold night ${row.date}`).toEqual(folios.get(row.date) ?? none);
        const day = Object.entries(byHand).find(([offset]) => addDays(T, Number(offset)) === row.date);
        expect(night, `the night ${row.date} by hand`).toEqual(day ? day[1] : none);
      }
      const total = (k: keyof Night) => (report.data as Night[]).reduce((s, r) => s + r[k], 0);
      expect(report.totals).toMatchObject({ net: total("net"), tax: total("tax"), gross: total("gross") });
      // Every kept night agrees with the rule it replaces, read from the raw lines, and every day with its nights.
      const drift = await h.db.execute(sql`
        select n.reservation_id, n.date from sales_nights n
        left join lateral (
          select coalesce(sum(c.amount), 0) as gross, coalesce(sum(c.tax_amount), 0) as tax from folio_charges c join reservations r on r.id = n.reservation_id
          where c.folio_id = r.folio_id and c.reservation_id = n.reservation_id and c.date = n.date and c.kind in ('room_night', 'tax')
        ) c on true
        where n.property_id = ${hotel.propertyId} and (n.charged_gross <> c.gross or n.charged_tax <> c.tax)
        union all
        select d.room_type_id, d.date from sales_days d
        left join lateral (
          select coalesce(sum(n.charged_gross), 0) as gross, coalesce(sum(n.charged_tax), 0) as tax from sales_nights n where n.room_type_id = d.room_type_id and n.date = d.date and n.sold
        ) n on true
        where d.property_id = ${hotel.propertyId} and (d.charged_gross <> n.gross or d.charged_tax <> n.tax)`);
      expect(rowsOf(drift)).toEqual([]);
    }

    // Booked: S1 T..T+3 for two, S2 T+1..T+3 for one, S3 T..T+2 for two, S4 T+2..T+4 for one.
    const s1 = await book(T, addDays(T, 3), 2);
    const s2 = await book(addDays(T, 1), addDays(T, 3), 1);
    const s3 = await book(T, addDays(T, 2), 2);
    const s4 = await book(addDays(T, 2), addDays(T, 4), 1);
    stays.push(s1.id, s2.id, s3.id, s4.id);
    await expectReport({ 0: add(two, two), 1: add(two, one, two), 2: add(two, one, one), 3: add(one) });

    // S2 cancelled without refund: its lines stay on its folio, its nights are no longer sold.
    ok(await h.post(`/v1/reservations/${s2.id}/cancel`, {}, caller));
    expect((await folioSums([s2.id])).size).toBe(0);
    const s2Lines = ok(await h.get(`/v1/reservations/${s2.id}/folio`, caller)).charges.filter((l: Line) => l.kind === "room_night");
    expect(s2Lines).toHaveLength(2);
    await expectReport({ 0: add(two, two), 1: add(two, two), 2: add(two, one), 3: add(one) });

    // S1 leaves early, on its first day: the nights from T+1 on and their lines go.
    ok(await h.post(`/v1/reservations/${s1.id}/check_in`, {}, caller));
    ok(await h.post("/v1/payments", { reservation_id: s1.id, amount: 11_500, payment_method: { type: "cash" } }, caller), 201);
    expect(ok(await h.post(`/v1/reservations/${s1.id}/check_out`, {}, caller)).check_out).toBe(addDays(T, 1));
    await expectReport({ 0: add(two, two), 1: add(two), 2: add(one), 3: add(one) });

    // S4 now for two: re-quoted, its lines posted again with the city tax for two.
    ok(await h.patch(`/v1/reservations/${s4.id}`, { adults: 2 }, caller));
    await expectReport({ 0: add(two, two), 1: add(two), 2: add(two), 3: add(two) });

    // S4 upgraded to the other type without a charge: its lines are taken off and posted again at the same price.
    const upgraded = ok(await h.post(`/v1/reservations/${s4.id}/upgrade`, { room_type_id: b.roomTypeId, charge: "none" }, caller));
    expect(upgraded.room_type_id).toBe(b.roomTypeId);
    await expectReport({ 0: add(two, two), 1: add(two), 2: add(two), 3: add(two) });

    // S3 in house and extended by two nights: their lines are posted before the stay's new nights are written.
    ok(await h.post(`/v1/reservations/${s3.id}/check_in`, {}, caller));
    expect(ok(await h.post(`/v1/reservations/${s3.id}/change_departure`, { check_out: addDays(T, 4) }, caller)).check_out).toBe(addDays(T, 4));
    await expectReport({ 0: add(two, two), 1: add(two), 2: add(two, two), 3: add(two, two) });

    // Lines changed where they are kept (no operation edits a posted line; an import or a correction
    // could): S3's room night of T+3 up by 100 of tax, S4's city tax of T+2 removed, a description rewritten.
    const [s3Folio, s4Folio] = [ok(await h.get(`/v1/reservations/${s3.id}`, caller)).folio_id, ok(await h.get(`/v1/reservations/${s4.id}`, caller)).folio_id];
    await h.db
      .update(folioCharges)
      .set({ amount: sql`${folioCharges.amount} + 100`, taxAmount: sql`${folioCharges.taxAmount} + 100` })
      .where(and(eq(folioCharges.folioId, s3Folio), eq(folioCharges.kind, "room_night"), eq(folioCharges.date, addDays(T, 3))));
    await h.db.delete(folioCharges).where(and(eq(folioCharges.folioId, s4Folio), eq(folioCharges.kind, "tax"), eq(folioCharges.date, addDays(T, 2))));
    await h.db.update(folioCharges).set({ description: "Room" }).where(eq(folioCharges.folioId, s3Folio));
    const cityForTwo = { gross: 500, tax: 500 };
    await expectReport({
      0: add(two, two),
      1: add(two),
      2: add(two, { gross: two.gross - cityForTwo.gross, tax: two.tax - cityForTwo.tax }),
      3: add(two, { gross: two.gross + 100, tax: two.tax + 100 }),
    });

    // A line posted before its stay is written: the stay's nights start from what its folio already charges.
    const s5 = await book(addDays(T, 5), addDays(T, 6), 1);
    stays.push(s5.id);
    await h.db.execute(sql`update reservations set nightly = '[]'::jsonb where id = ${s5.id}`);
    await h.db.execute(sql`update folio_charges set amount = amount + 1000, tax_amount = tax_amount + 1000 where reservation_id = ${s5.id} and kind = 'room_night'`);
    await h.db.execute(sql`update reservations set nightly = jsonb_build_array(jsonb_build_object('date', ${addDays(T, 5)}::text, 'amount', 10000)) where id = ${s5.id}`);
    await expectReport({
      0: add(two, two),
      1: add(two),
      2: add(two, { gross: two.gross - cityForTwo.gross, tax: two.tax - cityForTwo.tax }),
      3: add(two, { gross: two.gross + 100, tax: two.tax + 100 }),
      5: add({ gross: one.gross + 1_000, tax: one.tax + 1_000 }),
    });
  });
});
