import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { folioCharges, folios } from "@/db/schema";
import { addDays, todayIn } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { pdfBytes as pdfBytesOf, pdfText } from "../support/pdf";
import { bookingBody, buildRoomType, countEvents, insertProperty, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 35, point 5: an issued invoice never changes; corrections are credit notes. A refund after
// check-out of money the guest was charged issues a credit note (its own gapless number, its own
// PDF, the invoice's number on it), posted on the current business date as negative lines of the
// credited kinds with their taxes reversed; the folio returns to zero and the invoice stays byte
// for byte as issued. A refund of an overpayment only settles the balance. Every figure expected
// here is worked out by hand in the comments.

let h: Harness;
let live: Caller;
let sandbox: Caller;

beforeAll(async () => {
  h = await startHarness();
  live = { token: h.main.token };
  sandbox = { token: h.main.token, sandbox: true };
});
afterAll(async () => h?.close());

type Hotel = { propertyId: string; today: string; type: RoomTypeSetup; caller: Caller };
const usd = (amount: number) => ({ amount, currency: "USD" });

async function hotelAt(caller: Caller, nightly: number, rooms = 3): Promise<Hotel> {
  const property = await insertProperty(h, h.main.account.id, { livemode: !caller.sandbox });
  const today = todayIn(property.timezone);
  const type = await buildRoomType(h, caller, property.id, today, { rooms, amount: nightly, days: 10, maxOccupancy: 4 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { propertyId: property.id, today, type, caller };
}
const book = (hotel: Hotel, from: string, to: string, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, extra), hotel.caller);

const pdfBytes = (path: string, caller: Caller) => pdfBytesOf(h, path, caller);

/**
 * One night at 123.45 with 8.875 % state tax added and a city tax of 2.50 per person (two adults):
 * the room line 12,345 + 1,096 = 13,441 (tax 1,096), the city tax line 500. Total 13,941, tax 1,596.
 * Paid in cash and checked out: invoice 1, balance 0.
 */
async function checkedOutStay(hotel: Hotel) {
  const T = hotel.today;
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "State tax", kind: "percentage", percentage: 8.875 }, hotel.caller), 201);
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "City tax", kind: "per_person_per_night", amount: 250 }, hotel.caller), 201);
  const r = ok(await book(hotel, T, addDays(T, 1), { adults: 2 }), 201);
  ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, hotel.caller));
  const payment = ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 13_941, payment_method: { type: "cash" } }, hotel.caller), 201);
  ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, hotel.caller));
  const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, hotel.caller));
  expect(folio).toMatchObject({ status: "closed", balance: usd(0), credit_notes: [] });
  const invoice = ok(await h.get(`/v1/invoices/${folio.invoice_id}`, hotel.caller));
  return { r, payment, invoice };
}

const lineFigures = (lines: { invoice_line: number; kind: string; net: { amount: number }; tax: { amount: number }; gross: { amount: number } }[]) =>
  lines.map((l) => [l.invoice_line, l.kind, l.net.amount, l.tax.amount, l.gross.amount]);

describe("credit notes", () => {
  it("a refund after check-out issues credit note 1 on the business date: the folio back at zero, the invoice and its PDF unchanged, the flash and the revenue report agree", { timeout: 120_000 }, async () => {
    const hotel = await hotelAt(sandbox, 12_345);
    const T = hotel.today;
    const { r, payment, invoice } = await checkedOutStay(hotel);
    const invoicePdf = await pdfBytes(`/v1/invoices/${invoice.id}/pdf`, sandbox);
    const events = await countEvents(h, h.main.account.id, "credit_note.created");

    // 50.00 back to the guest. Spread over the invoice's lines in proportion to their 13,441 and 500:
    // 5,000 × 13,441 / 13,941 = 4,820.74 and 5,000 × 500 / 13,941 = 179.26 → 4,820 + 179 = 4,999,
    // the last unit to the larger remainder (0.74): 4,821 and 179. Taxes: the room line's 1,096 ×
    // 4,821 / 13,441 = 393.11 → 393 (net 4,428); the city tax line is all tax: 179. Note: gross
    // 5,000, tax 572, net 4,428.
    const refund = ok(await h.post("/v1/refunds", { payment_id: payment.id, amount: 5_000, reason: "Noisy room" }, sandbox), 201);
    expect(refund.credit_note_id).toMatch(/^cn_/);
    expect(await countEvents(h, h.main.account.id, "credit_note.created")).toBe(events + 1);
    const note = ok(await h.get(`/v1/credit_notes/${refund.credit_note_id}`, sandbox));
    expect(note).toMatchObject({
      object: "credit_note",
      number: 1,
      invoice_id: invoice.id,
      invoice_number: invoice.number,
      reservation_id: r.id,
      refund_id: refund.id,
      reason: "Noisy room",
      issue_date: T,
      totals: { net: usd(-4_428), tax: usd(-572), gross: usd(-5_000) },
    });
    expect(lineFigures(note.lines)).toEqual([
      [1, "room_night", -4_428, -393, -4_821],
      [2, "tax", 0, -179, -179],
    ]);
    expect(note.tax_summary.map((t: { name: string; amount: { amount: number } }) => [t.name, t.amount.amount])).toEqual([["State tax", -393], ["City tax", -179]]);
    expect(ok(await h.get(`/v1/credit_notes?invoice_id=${invoice.id}`, sandbox)).data.map((n: { id: string }) => n.id)).toEqual([note.id]);

    // The folio: closed, back at zero, the note's lines among its charges, posted on the business date.
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox));
    expect(folio).toMatchObject({ status: "closed", balance: usd(0), credit_notes: [{ id: note.id, number: 1 }], totals: { gross: usd(8_941), tax: usd(1_024) } });
    const posted = await h.db.select().from(folioCharges).where(eq(folioCharges.creditNoteId, note.id));
    expect(posted.map((c) => [c.kind, c.amount, c.taxAmount, c.date, c.postedOn]).sort()).toEqual([
      ["room_night", -4_821, -393, null, T],
      ["tax", -179, -179, null, T],
    ]);

    // The invoice, as issued: the same object and the same PDF, byte for byte.
    expect(ok(await h.get(`/v1/invoices/${invoice.id}`, sandbox))).toEqual(invoice);
    expect(Buffer.from(await pdfBytes(`/v1/invoices/${invoice.id}/pdf`, sandbox)).equals(Buffer.from(invoicePdf))).toBe(true);

    // The credit note's PDF names itself, the invoice it corrects, the reason and the amounts.
    const text = await pdfText(await pdfBytes(`/v1/credit_notes/${note.id}/pdf`, sandbox));
    for (const words of ["Credit note 1", "Corrects invoice 1", "Noisy room", "-$48.21", "-$3.93", "-$1.79", "-$50.00", "Credited to the guest", "$50.00"]) expect(text, words).toContain(words);

    // The revenue report of the business date: the night as sold, and the credit note in its other revenue.
    const day = ok(await h.get(`/v1/reports/revenue?property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 1)}`, sandbox)).data[0];
    expect(day).toMatchObject({ gross: 13_941, tax: 1_596, payments: 13_941, refunds: 5_000, other_net: -4_428, other_tax: -572, other_gross: -5_000 });

    // The flash of the day, written by its audit: the lines of the day less the note, by kind and by tax.
    const closed = ok(await h.post("/v1/sandbox/advance_day", { property_id: hotel.propertyId }, sandbox)).audits[0];
    expect(closed.business_date).toBe(T);
    const flash = ok(await h.get(`/v1/night_audits/${closed.id}`, sandbox)).flash;
    expect(flash.revenue_by_kind).toMatchObject({ room_night: 13_441 - 4_821, tax: 500 - 179 });
    expect(flash.charged).toEqual({ net: 12_345 - 4_428, tax: 1_596 - 572, gross: 13_941 - 5_000 });
    expect(flash.charged.gross).toBe(day.gross + day.other_gross);
    expect(flash.charged.tax).toBe(day.tax + day.other_tax);
    expect(flash.taxes.by_tax.map((t: { name: string; amount: number }) => [t.name, t.amount]).sort()).toEqual([["City tax", 500 - 179], ["State tax", 1_096 - 393]]);
    expect(flash.refunds).toBe(5_000);
    expect(flash.charged.gross).toBe(folio.totals.gross.amount);

    // The next day: an allowance on the room line posts on the new business date, never into the closed day.
    const next = addDays(T, 1);
    const allowance = ok(await h.post(`/v1/invoices/${invoice.id}/credit_notes`, { reason: "Goodwill", lines: [{ line: 1, amount: 1_000 }], currency: "usd" }, sandbox), 201);
    // 1,096 × 1,000 / 13,441 = 81.54 → 82 of tax; net 918.
    expect(allowance).toMatchObject({ number: 2, issue_date: next, refund_id: null, totals: { net: usd(-918), tax: usd(-82), gross: usd(-1_000) } });
    expect(ok(await h.get(`/v1/night_audits/${closed.id}`, sandbox)).flash).toEqual(flash);
    const after = ok(await h.get(`/v1/reports/revenue?property_id=${hotel.propertyId}&from=${T}&to=${addDays(T, 2)}`, sandbox)).data;
    expect(after[0]).toEqual(day);
    expect(after[1]).toMatchObject({ other_net: -918, other_tax: -82, other_gross: -1_000 });
    // The allowance leaves the guest owed 10.00: the folio says so, as a balance the hotel owes.
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox)).balance).toEqual(usd(-1_000));

    // The rest of the invoice, credited in full (neither amount nor lines): 13,941 − 5,000 − 1,000 = 7,941;
    // each line's rest of tax: state 1,096 − 393 − 82 = 621, city 500 − 179 = 321. Then nothing is left.
    const rest = ok(await h.post(`/v1/invoices/${invoice.id}/credit_notes`, { reason: "Stay waived" }, sandbox), 201);
    expect(rest).toMatchObject({ number: 3, totals: { gross: usd(-7_941), tax: usd(-942), net: usd(-6_999) } });
    expect(lineFigures(rest.lines)).toEqual([
      [1, "room_night", -6_999, -621, -7_620],
      [2, "tax", 0, -321, -321],
    ]);
    const all = ok(await h.get(`/v1/credit_notes?reservation_id=${r.id}`, sandbox)).data as { tax_summary: { amount: { amount: number } }[]; totals: { tax: { amount: number }; gross: { amount: number } } }[];
    // Every note's taxes sum to its tax total, and the three together reverse the invoice exactly.
    for (const n of all) expect(n.tax_summary.reduce((s, t) => s + t.amount.amount, 0)).toBe(n.totals.tax.amount);
    expect(all.reduce((s, n) => s + n.totals.gross.amount, 0)).toBe(-13_941);
    expect(all.reduce((s, n) => s + n.totals.tax.amount, 0)).toBe(-1_596);
    expectError(await h.post(`/v1/invoices/${invoice.id}/credit_notes`, { reason: "Again" }, sandbox), 409, "invalid_state_transition");
  });

  it("a refund of an overpayment only settles the balance; the part beyond it is credited", { timeout: 60_000 }, async () => {
    const hotel = await hotelAt(live, 10_000);
    const T = hotel.today;
    // Paid 10,000 ahead, cancelled free of charge: the nights go, 10,000 is owed to the guest. A fee of
    // 20.00 (no tax at this property) is charged and the folio closed into its invoice: owed 8,000.
    const r = ok(await book(hotel, addDays(T, 2), addDays(T, 3)), 201);
    const payment = ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 10_000, payment_method: { type: "cash" } }, live), 201);
    ok(await h.post(`/v1/reservations/${r.id}/cancel`, {}, live));
    ok(await h.post(`/v1/folios/${r.folio_id}/charges`, { description: "Handling fee", amount: 2_000 }, live), 201);
    const invoice = ok(await h.post(`/v1/folios/${r.folio_id}/invoice`, {}, live));
    expect(invoice).toMatchObject({ totals: { gross: usd(2_000) }, balance: usd(-8_000) });

    // 8,000 back: the overpayment, no credit note; the folio at zero.
    const settle = ok(await h.post("/v1/refunds", { payment_id: payment.id, amount: 8_000 }, live), 201);
    expect(settle.credit_note_id).toBeNull();
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live))).toMatchObject({ balance: usd(0), credit_notes: [] });
    // The other 2,000 back too: money the guest was charged, so credit note 1 for the fee; still zero.
    const beyond = ok(await h.post("/v1/refunds", { payment_id: payment.id }, live), 201);
    expect(beyond.amount).toEqual(usd(2_000));
    const note = ok(await h.get(`/v1/credit_notes/${beyond.credit_note_id}`, live));
    expect(note).toMatchObject({ number: 1, reason: "Refund", totals: { gross: usd(-2_000), tax: usd(0) } });
    expect(lineFigures(note.lines)).toEqual([[1, "extra", -2_000, 0, -2_000]]);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, live))).toMatchObject({ balance: usd(0), credit_notes: [{ id: note.id, number: 1 }] });

    // Erasing the guest leaves the note's number and amounts, made out to no one.
    expect(note.guest).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com" });
    ok(await h.post(`/v1/guests/${r.guest.id}/erase`, { confirm: true }, live));
    const erased = ok(await h.get(`/v1/credit_notes/${note.id}`, live));
    expect(erased.guest).toMatchObject({ email: null, phone: null, address: null });
    expect(erased.guest.name).not.toContain("Lovelace");
    expect({ ...erased, guest: note.guest }).toEqual(note);
  });

  it("wrong requests get the contract's errors and change nothing", { timeout: 60_000 }, async () => {
    const hotel = await hotelAt(live, 12_345);
    const { r, payment, invoice } = await checkedOutStay(hotel);
    const state = async () => ({
      notes: rowsOf(await h.db.execute(sql`select id from credit_notes where property_id = ${hotel.propertyId}`)).length,
      lines: rowsOf(await h.db.execute(sql`select id from folio_charges where folio_id = ${r.folio_id}`)).length,
      counter: rowsOf(await h.db.execute(sql`select last_number from credit_note_counters where property_id = ${hotel.propertyId}`)),
      events: await countEvents(h, h.main.account.id, "credit_note.created"),
      folio: ok(await h.get(`/v1/reservations/${r.id}/folio`, live)),
    });
    const before = await state();
    const path = `/v1/invoices/${invoice.id}/credit_notes`;
    // More than was invoiced (13,941).
    expectError(await h.post(path, { reason: "Too much", amount: 13_942 }, live), 422, "parameter_invalid", "amount");
    expectError(await h.post(path, { reason: "Too much", lines: [{ line: 2, amount: 501 }] }, live), 422, "parameter_invalid", "lines[0].amount");
    // Another currency, a line that is not there, a line twice, both forms at once, no reason.
    expectError(await h.post(path, { reason: "Euros", amount: 100, currency: "EUR" }, live), 422, "parameter_invalid", "currency");
    expectError(await h.post(path, { reason: "Nowhere", lines: [{ line: 3 }] }, live), 422, "parameter_invalid", "lines[0].line");
    expectError(await h.post(path, { reason: "Twice", lines: [{ line: 1, amount: 1 }, { line: 1, amount: 1 }] }, live), 422, "parameter_invalid", "lines[1].line");
    expectError(await h.post(path, { reason: "Both", amount: 100, lines: [{ line: 1 }] }, live), 422, "parameter_invalid", "lines");
    expectError(await h.post(path, { amount: 100 }, live), 422, "parameter_missing", "reason");
    // Another account's invoice, and a missing one, are not found.
    const other = await h.newAccount("Other Hotels");
    expectError(await h.post(path, { reason: "Not mine", amount: 100 }, { token: other.token }), 404, "resource_missing");
    expectError(await h.get(`/v1/invoices/${invoice.id}`, { token: other.token }), 404, "resource_missing");
    expectError(await h.post("/v1/invoices/inv_missing/credit_notes", { reason: "Gone", amount: 100 }, live), 404, "resource_missing");
    expect(await state()).toEqual(before);
    // A refund of more than the payment holds is refused before any credit is made.
    expectError(await h.post("/v1/refunds", { payment_id: payment.id, amount: 13_942 }, live), 422, "amount_exceeds_refundable");
    expect(await state()).toEqual(before);

    // A stay checked out before invoices existed: its folio is closed with no invoice, so a refund of
    // money it was charged has nothing to credit and is refused (409), changing nothing.
    const legacy = await hotelAt(live, 10_000);
    const stay = ok(await book(legacy, legacy.today, addDays(legacy.today, 1)), 201);
    const paid = ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: 10_000, payment_method: { type: "cash" } }, live), 201);
    await h.db.update(folios).set({ status: "closed" }).where(eq(folios.id, stay.folio_id));
    expectError(await h.post("/v1/refunds", { payment_id: paid.id, amount: 3_000 }, live), 409, "invalid_state_transition");
    expect(rowsOf(await h.db.execute(sql`select id from refunds where payment_id = ${paid.id}`))).toEqual([]);
    expect(ok(await h.get(`/v1/payments/${paid.id}`, live)).amount_refunded).toEqual(usd(0));
  });

  it("two credit notes at once take consecutive numbers, apart from invoices' numbers", { timeout: 60_000 }, async () => {
    const hotel = await hotelAt(live, 12_345);
    const { invoice } = await checkedOutStay(hotel);
    const answers = await Promise.all([
      h.post(`/v1/invoices/${invoice.id}/credit_notes`, { reason: "One", amount: 100 }, live),
      h.post(`/v1/invoices/${invoice.id}/credit_notes`, { reason: "Two", amount: 200 }, live),
    ]);
    const numbers = answers.map((a) => ok(a, 201).number).sort();
    expect(numbers).toEqual([1, 2]);
    expect(invoice.number).toBe(1);
    // Both notes were posted: 13,941 − 300 charged, 13,941 paid.
    expect(ok(await h.get(`/v1/reservations/${invoice.reservation_id}/folio`, live)).balance).toEqual(usd(-300));
  });
});
