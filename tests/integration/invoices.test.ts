import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { folios, invoices, properties } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { issueInvoice } from "@/server/invoices/invoices";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { pdfText } from "../support/pdf";
import { bookingBody, buildRoomType, countEvents, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 27, item 5: a folio closes into an invoice, numbered without gaps per property, stored as
// issued (a later rename changes nothing), and downloadable as a PDF whose text is read back here.

let h: Harness;
let caller: Caller;

beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof liveHotel>> & { type: RoomTypeSetup };

async function hotelAt(nightly: number, rooms = 3): Promise<Hotel> {
  const hotel = await liveHotel(h, h.main.account.id);
  const type = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms, amount: nightly, days: 10, maxOccupancy: 4 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  return { ...hotel, type };
}
const book = (hotel: Hotel, from: string, to: string, extra: Record<string, unknown> = {}) =>
  h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: hotel.type.roomTypeId, ratePlanId: hotel.type.ratePlanId }, from, to, extra), caller);

async function invoiceText(id: string) {
  // Through the harness once, so the answer is checked against the document (content type, headers)…
  const checked = await h.get(`/v1/invoices/${id}/pdf`, caller);
  expect(checked.status).toBe(200);
  expect(checked.headers.get("content-type")).toBe("application/pdf");
  expect(checked.headers.get("content-disposition")).toMatch(/^attachment; filename="invoice-\d+\.pdf"/);
  // …and as bytes, which a text answer would have mangled.
  const res = await fetch(`${h.baseUrl}/v1/invoices/${id}/pdf`, { headers: { authorization: `Bearer ${caller.token}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  return pdfText(bytes);
}

describe("invoices", () => {
  it("check-out closes the folio into invoice 1 with the hotel, the guest, lines, taxes, payments and balance; the PDF says the same", async () => {
    const hotel = await hotelAt(12_345);
    const T = hotel.today;
    await h.db.update(properties).set({ name: "Harbor View Hotel", address: { line1: "1 Pier Road", city: "Boston", postal_code: "02110", country: "US" } }).where(eq(properties.id, hotel.propertyId));
    ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "State tax", kind: "percentage", percentage: 8.875 }, caller), 201);
    ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "City tax", kind: "per_person_per_night", amount: 250 }, caller), 201);
    const r = ok(await book(hotel, T, addDays(T, 1), { adults: 2, guest: { first_name: "Ada", last_name: "Lovelace", email: "ada.invoice@example.com" } }), 201);
    ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller));
    // One night: 12,345 + 1,096 (8.875 %, 1,095.61875 rounded) = 13,441; city tax 2 × 250 = 500. Total 13,941, tax 1,596.
    ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 13_941, payment_method: { type: "cash" } }, caller), 201);
    const events = await countEvents(h, h.main.account.id, "invoice.created");
    ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller));
    expect(await countEvents(h, h.main.account.id, "invoice.created")).toBe(events + 1);
    const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, caller));
    expect(folio.status).toBe("closed");
    expect(folio.invoice_id).toMatch(/^inv_/);
    const invoice = ok(await h.get(`/v1/invoices/${folio.invoice_id}`, caller));
    const usd = (amount: number) => ({ amount, currency: "USD" });
    expect(invoice).toMatchObject({
      object: "invoice",
      number: 1,
      property_id: hotel.propertyId,
      reservation_id: r.id,
      folio_id: r.folio_id,
      hotel: { name: "Harbor View Hotel", address: { line1: "1 Pier Road", city: "Boston" } },
      guest: { name: "Ada Lovelace", email: "ada.invoice@example.com" },
      stay: { check_in: T, check_out: addDays(T, 1) },
      totals: { net: usd(12_345), tax: usd(1_596), gross: usd(13_941) },
      balance: usd(0),
    });
    expect(invoice.lines.map((l: { kind: string; net: { amount: number }; tax: { amount: number }; gross: { amount: number } }) => [l.kind, l.net.amount, l.tax.amount, l.gross.amount])).toEqual([
      ["room_night", 12_345, 1_096, 13_441],
      ["tax", 0, 500, 500],
    ]);
    expect(invoice.tax_summary.map((t: { name: string; amount: { amount: number } }) => [t.name, t.amount.amount])).toEqual([["State tax", 1_096], ["City tax", 500]]);
    expect(invoice.payments).toEqual([expect.objectContaining({ method: "cash", amount: usd(13_941) })]);
    expect(ok(await h.get(`/v1/invoices?reservation_id=${r.id}`, caller)).data.map((i: { id: string }) => i.id)).toEqual([invoice.id]);

    // Issued is issued: renaming the hotel and the guest afterwards changes neither the invoice nor its PDF.
    ok(await h.patch(`/v1/properties/${hotel.propertyId}`, { name: "Renamed Hotel" }, caller));
    ok(await h.patch(`/v1/guests/${r.guest.id}`, { first_name: "Augusta" }, caller));
    expect(ok(await h.get(`/v1/invoices/${invoice.id}`, caller))).toEqual(invoice);
    const text = await invoiceText(invoice.id);
    for (const words of ["Harbor View Hotel", "1 Pier Road", "Invoice 1", "Ada Lovelace", "$123.45", "$10.96", "$139.41", "$15.96", "$5.00", "State tax", "City tax", "Balance due", "$0.00"]) {
      expect(text, words).toContain(words);
    }
    expect(text).not.toContain("Renamed Hotel");
    expect(text).not.toContain("Augusta");
    // A second close of the same folio is refused.
    expectError(await h.post(`/v1/folios/${r.folio_id}/invoice`, {}, caller), 409, "invalid_state_transition");
  });

  it("is made out to the guest with their contact and postal address, in any script Noto Sans draws, and the PDF prints them", async () => {
    const hotel = await hotelAt(10_000, 4);
    const T = hotel.today;
    await h.db.update(properties).set({ name: "Ξενοδοχείο Αιγαίο", address: { line1: "Οδός Ερμού 5", city: "Αθήνα", country: "GR" } }).where(eq(properties.id, hotel.propertyId));
    const guestAddress = { line1: "ul. Źródlana 7", city: "Łódź", postal_code: "90-001", country: "PL" };
    const stays = [];
    for (const [first, last, email] of [
      ["Łukasz", "Żółć", "lukasz.zolc@example.com"],
      ["Δημήτρης", "Παπαδόπουλος", "dimitris@example.com"],
      ["Анна", "Кузнецова", "anna.k@example.com"],
      ["太郎", "山田", "yamada@example.com"],
    ]) {
      const r = ok(await book(hotel, T, addDays(T, 1), { guest: { first_name: first, last_name: last, email, phone: "+48 42 555 0101" } }), 201);
      stays.push({ r, name: `${first} ${last}` });
    }
    // The guest's postal address, set on the guest before check-out, goes on the invoice.
    const withAddress = ok(await h.patch(`/v1/guests/${stays[0].r.guest.id}`, { address: { ...guestAddress, line2: "  ", country: "pl" } }, caller));
    expect(withAddress.address).toEqual(guestAddress);
    const pdfs: string[] = [];
    for (const { r } of stays) {
      ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller));
      ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 10_000, payment_method: { type: "cash" } }, caller), 201);
      ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller));
      const invoiceId = ok(await h.get(`/v1/reservations/${r.id}/folio`, caller)).invoice_id;
      pdfs.push(invoiceId);
    }
    const first = ok(await h.get(`/v1/invoices/${pdfs[0]}`, caller));
    expect(first.guest).toEqual({ name: "Łukasz Żółć", address: guestAddress, email: "lukasz.zolc@example.com", phone: "+48 42 555 0101" });
    expect(ok(await h.get(`/v1/invoices/${pdfs[1]}`, caller)).guest).toEqual({ name: "Δημήτρης Παπαδόπουλος", address: null, email: "dimitris@example.com", phone: "+48 42 555 0101" });
    // The PDF's text, read back: the hotel in Greek, each guest's name as written, the address, the contact.
    const text = await invoiceText(pdfs[0]);
    for (const words of ["Ξενοδοχείο Αιγαίο", "Οδός Ερμού 5", "Łukasz Żółć", "ul. Źródlana 7", "90-001 Łódź", "lukasz.zolc@example.com", "+48 42 555 0101"]) expect(text, words).toContain(words);
    expect(await invoiceText(pdfs[1])).toContain("Δημήτρης Παπαδόπουλος");
    expect(await invoiceText(pdfs[2])).toContain("Анна Кузнецова");
    // No CJK font is embedded (docs/decisions.md): each such character prints as U+FFFD, never as a wrong letter.
    const cjk = await invoiceText(pdfs[3]);
    expect(cjk).toContain("\ufffd\ufffd \ufffd\ufffd");
    expect(ok(await h.get(`/v1/invoices/${pdfs[3]}`, caller)).guest.name).toBe("太郎 山田");
  });

  it("a stay to come or in house is not invoiced on request; a cancelled one with a charge is invoiced at its cancellation, with its balance", async () => {
    const hotel = await hotelAt(10_000);
    const T = hotel.today;
    const r = ok(await book(hotel, addDays(T, 1), addDays(T, 2)), 201);
    expectError(await h.post(`/v1/folios/${r.folio_id}/invoice`, {}, caller), 409, "invalid_state_transition");
    expectError(await h.post("/v1/folios/fol_missing/invoice", {}, caller), 404, "resource_missing");
    expectError(await h.post(`/v1/folios/${r.folio_id}/invoice`, { note: 1 }, caller), 422, "parameter_unknown");
    expect(rowsOf(await h.db.execute(sql`select id from invoices where folio_id = ${r.folio_id}`))).toEqual([]);
    // A late cancellation keeps the charge: the invoice says what is owed.
    await h.db.execute(sql`update rate_plans set refundable = false where id = ${hotel.type.ratePlanId}`);
    ok(await h.post(`/v1/reservations/${r.id}/cancel`, {}, caller));
    const [invoice] = ok(await h.get(`/v1/invoices?reservation_id=${r.id}`, caller)).data;
    expect(invoice).toMatchObject({ number: 1, totals: { gross: { amount: 10_000 } }, balance: { amount: 10_000 } });
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, caller))).toMatchObject({ status: "closed", invoice_id: invoice.id });
    expectError(await h.post(`/v1/folios/${r.folio_id}/invoice`, {}, caller), 409, "invalid_state_transition");
  });

  it("numbers are gapless per property under concurrent closings, and a rolled-back close gives its number back", { timeout: 120_000 }, async () => {
    const hotel = await hotelAt(10_000, 25);
    const T = hotel.today;
    await h.db.execute(sql`update rate_plans set refundable = false where id = ${hotel.type.ratePlanId}`);
    const stays = [];
    for (let i = 0; i < 21; i++) {
      stays.push(ok(await book(hotel, addDays(T, 1), addDays(T, 2), { guest: { first_name: "Guest", last_name: `N${i}`, email: `g${i}@example.com` } }), 201));
    }
    // A close that fails after taking its number: the transaction rolls back, the number with it.
    const [folio] = await h.db.select().from(folios).where(eq(folios.id, stays[20].folio_id));
    const tenant = { accountId: folio.accountId, livemode: folio.livemode, propertyIds: null };
    await expect(
      h.db.transaction(async (tx) => {
        await issueInvoice(tx, tenant, folio.id);
        throw new Error("printer on fire");
      }),
    ).rejects.toThrow("printer on fire");
    // Late cancellations keep their charge and are invoiced as they are made: twenty at once.
    const invoiceOf = async (id: string) => ok(await h.get(`/v1/invoices?reservation_id=${id}`, caller)).data[0];
    await Promise.all(stays.slice(0, 20).map(async (r) => ok(await h.post(`/v1/reservations/${r.id}/cancel`, {}, caller))));
    const numbers = (await Promise.all(stays.slice(0, 20).map((r) => invoiceOf(r.id)))).map((i) => i.number).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    ok(await h.post(`/v1/reservations/${stays[20].id}/cancel`, {}, caller));
    expect((await invoiceOf(stays[20].id)).number).toBe(21);
    const stored = await h.db.select({ number: invoices.number }).from(invoices).where(and(eq(invoices.propertyId, hotel.propertyId)));
    expect(stored.map((s) => s.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    // Another property counts from 1.
    const other = await hotelAt(10_000);
    const o = ok(await book(other, addDays(T, 1), addDays(T, 2)), 201);
    await h.db.execute(sql`update rate_plans set refundable = false where id = ${other.type.ratePlanId}`);
    ok(await h.post(`/v1/reservations/${o.id}/cancel`, {}, caller));
    expect((await invoiceOf(o.id)).number).toBe(1);
  });
});
