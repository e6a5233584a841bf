import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folioCharges, invoices } from "@/db/schema";
import { addDays, todayIn } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { pdfBytes, pdfText } from "../support/pdf";
import { bookingBody, buildRoomType, countEvents, insertProperty, ok, type Caller } from "../support/hotel";

// Issue 35, point 5: "A refund, a charge or an adjustment after check-out reopens nothing: it is
// posted on the current business date against the guest's account, and a credit note (or a
// corrective invoice) with its own gapless number and PDF references the original." A charge after
// check-out is billed on a supplementary invoice: the invoice the folio closed into never changes,
// the new one takes the next invoice number and names it, the guest owes the charge (a receivable)
// until paid, and a credit after check-out is a credit note, never a negative line.

let h: Harness;
const sandbox: Caller = { token: "", sandbox: true };
beforeAll(async () => {
  h = await startHarness();
  sandbox.token = h.main.token;
});
afterAll(async () => h?.close());

const usd = (amount: number) => ({ amount, currency: "USD" });

const pdf = (path: string) => pdfBytes(h, path, sandbox);

/** A sandbox hotel without taxes, one night at 100.00 paid in cash and checked out: invoice 1, balance 0. */
async function departedStay() {
  const property = await insertProperty(h, h.main.account.id, { livemode: false });
  const T = todayIn(property.timezone);
  const type = await buildRoomType(h, sandbox, property.id, T, { rooms: 2, amount: 10_000, days: 5 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${type.roomTypeId}`);
  const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: property.id, roomTypeId: type.roomTypeId, ratePlanId: type.ratePlanId }, T, addDays(T, 1)), sandbox), 201);
  ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, sandbox));
  ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 10_000, payment_method: { type: "cash" } }, sandbox), 201);
  ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, sandbox));
  const folio = ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox));
  expect(folio).toMatchObject({ status: "closed", balance: usd(0), supplementary_invoices: [] });
  const invoice = ok(await h.get(`/v1/invoices/${folio.invoice_id}`, sandbox));
  expect(invoice).toMatchObject({ number: 1, supplements: null, totals: { gross: usd(10_000) }, balance: usd(0) });
  return { propertyId: property.id, T, r, folio, invoice };
}

const invoicesOf = async (reservationId: string) =>
  (ok(await h.get(`/v1/invoices?reservation_id=${reservationId}`, sandbox)).data as { id: string; number: number }[]).sort((a, b) => a.number - b.number);

describe("a charge after check-out", () => {
  it("is posted on the current business date and billed on supplementary invoice 2, which names invoice 1; invoice 1, its PDF and the closed day stay as they were", { timeout: 120_000 }, async () => {
    const { propertyId, T, r, folio, invoice } = await departedStay();
    const invoicePdf = await pdf(`/v1/invoices/${invoice.id}/pdf`);
    // The night of T is closed; the business date is T+1.
    const audit = ok(await h.post("/v1/sandbox/advance_day", { property_id: propertyId }, sandbox)).audits[0];
    expect(audit.business_date).toBe(T);
    const flash = ok(await h.get(`/v1/night_audits/${audit.id}`, sandbox)).flash;
    const dayT = ok(await h.get(`/v1/reports/revenue?property_id=${propertyId}&from=${T}&to=${addDays(T, 1)}`, sandbox)).data[0];
    const created = await countEvents(h, h.main.account.id, "invoice.created");

    // The minibar found after departure: 12.50.
    const charge = ok(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Minibar", amount: 1_250 }, sandbox), 201);
    expect(charge).toMatchObject({ kind: "extra", description: "Minibar", amount: usd(1_250) });
    const [row] = await h.db.select().from(folioCharges).where(eq(folioCharges.id, charge.id));
    expect(row.postedOn).toBe(addDays(T, 1));

    const all = await invoicesOf(r.id);
    expect(all.map((i) => i.number)).toEqual([1, 2]);
    const supplementary = ok(await h.get(`/v1/invoices/${all[1].id}`, sandbox));
    expect(supplementary).toMatchObject({
      number: 2,
      reservation_id: r.id,
      folio_id: folio.id,
      supplements: { invoice_id: invoice.id, number: 1 },
      issue_date: addDays(T, 1),
      totals: { net: usd(1_250), tax: usd(0), gross: usd(1_250) },
      payments: [],
      refunds: [],
      balance: usd(1_250),
    });
    expect(supplementary.lines.map((l: { description: string; kind: string; gross: { amount: number } }) => [l.description, l.kind, l.gross.amount])).toEqual([["Minibar", "extra", 1_250]]);
    expect(await countEvents(h, h.main.account.id, "invoice.created")).toBe(created + 1);
    const text = await pdfText(await pdf(`/v1/invoices/${supplementary.id}/pdf`));
    for (const words of ["Supplementary invoice 2", "Supplements invoice 1", "Minibar", "$12.50", "Balance due"]) expect(text, words).toContain(words);

    // Invoice 1 as issued, byte for byte; the folio closed, owing the charge; the folio's own invoice still invoice 1.
    expect(ok(await h.get(`/v1/invoices/${invoice.id}`, sandbox))).toEqual(invoice);
    expect(Buffer.from(await pdf(`/v1/invoices/${invoice.id}/pdf`)).equals(Buffer.from(invoicePdf))).toBe(true);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox))).toMatchObject({
      status: "closed",
      invoice_id: invoice.id,
      supplementary_invoices: [{ id: supplementary.id, number: 2 }],
      balance: usd(1_250),
    });
    expect(expectError(await h.post(`/v1/folios/${folio.id}/invoice`, {}, sandbox), 409, "invalid_state_transition").message).toMatch(/already invoiced \(invoice 1\)/);

    // The books: the closed day unchanged, the charge in the other revenue of T+1; a receivable due from invoice 2's date.
    const days = ok(await h.get(`/v1/reports/revenue?property_id=${propertyId}&from=${T}&to=${addDays(T, 2)}`, sandbox)).data;
    expect(days[0]).toEqual(dayT);
    expect(days[1]).toMatchObject({ date: addDays(T, 1), other_gross: 1_250, gross: 0 });
    expect(ok(await h.get(`/v1/night_audits/${audit.id}`, sandbox)).flash).toEqual(flash);
    const receivables = ok(await h.get(`/v1/receivables?property_id=${propertyId}`, sandbox)).data;
    expect(receivables).toEqual([expect.objectContaining({ amount: usd(1_250), invoice_id: invoice.id, due_date: addDays(T, 1), age_days: 0 })]);

    // Paid at the desk: the folio at zero, nothing receivable, nothing more to pay.
    ok(await h.post("/v1/payments", { reservation_id: r.id, amount: 1_250, payment_method: { type: "cash" } }, sandbox), 201);
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox)).balance).toEqual(usd(0));
    expect(ok(await h.get(`/v1/receivables?property_id=${propertyId}`, sandbox)).data).toEqual([]);
    expectError(await h.post("/v1/payments", { reservation_id: r.id, amount: 100, payment_method: { type: "cash" } }, sandbox), 409, "invalid_state_transition");
  });

  it("a credit after check-out is refused and pointed at a credit note; a late charge billed in error is taken off its supplementary invoice by one", { timeout: 120_000 }, async () => {
    const { propertyId, T, r, folio, invoice } = await departedStay();
    const before = await h.db.select().from(invoices).where(eq(invoices.folioId, folio.id));
    const lines = (await h.db.select().from(folioCharges).where(eq(folioCharges.folioId, folio.id))).length;
    const refused = expectError(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Goodwill", amount: -500 }, sandbox), 409, "invalid_state_transition", "amount");
    expect(refused.message).toBe("The folio is invoiced (invoice 1), and an issued invoice never changes: take $5.00 off it with a credit note instead.");
    expect(await h.db.select().from(invoices).where(eq(invoices.folioId, folio.id))).toEqual(before);
    expect((await h.db.select().from(folioCharges).where(eq(folioCharges.folioId, folio.id))).length).toBe(lines);

    // Two late charges, two supplementary invoices (2 and 3): each lists only its own line.
    ok(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Parking", amount: 2_000 }, sandbox), 201);
    ok(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Laundry", amount: 800 }, sandbox), 201);
    const all = await invoicesOf(r.id);
    expect(all.map((i) => i.number)).toEqual([1, 2, 3]);
    const third = ok(await h.get(`/v1/invoices/${all[2].id}`, sandbox));
    expect(third.lines.map((l: { description: string }) => l.description)).toEqual(["Laundry"]);
    expect(third).toMatchObject({ supplements: { invoice_id: invoice.id, number: 1 }, balance: usd(2_800) });

    // The laundry was another room's: credited off invoice 3 in full, the guest owes the parking alone.
    const note = ok(await h.post(`/v1/invoices/${third.id}/credit_notes`, { reason: "Another room's laundry" }, sandbox), 201);
    expect(note).toMatchObject({ number: 1, invoice_id: third.id, invoice_number: 3, issue_date: T, totals: { gross: usd(-800) } });
    expect(ok(await h.get(`/v1/reservations/${r.id}/folio`, sandbox))).toMatchObject({ balance: usd(2_000), credit_notes: [{ id: note.id, number: 1 }] });
    // The credit note's line is billed by no invoice; the next late charge's invoice lists only its own line.
    ok(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Late newspaper", amount: 300 }, sandbox), 201);
    const fourth = (await invoicesOf(r.id))[3];
    expect(ok(await h.get(`/v1/invoices/${fourth.id}`, sandbox)).lines.map((l: { description: string }) => l.description)).toEqual(["Late newspaper"]);
    expect(ok(await h.get(`/v1/reports/revenue?property_id=${propertyId}&from=${T}&to=${addDays(T, 1)}`, sandbox)).data[0]).toMatchObject({ other_gross: 2_000 + 800 - 800 + 300 });
  });
});
