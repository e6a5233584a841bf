import type PDFKit from "pdfkit";
import { datesInWords, formatDay, formatMoment } from "@/lib/dates";
import { formatMoney, propertyLocale, type Money } from "@/lib/money";
import { fontFile, fontName, scriptRuns, type Weight } from "./fonts";
import type { PresentedCreditNote, PresentedInvoice } from "./present";

const fileSafe = (name: string, fallback: string) => name.replace(/[^\p{L}\p{N} .-]/gu, "").trim() || fallback;

/** The invoice's file name: the hotel and the number, e.g. "Harbor Hotel invoice 17.pdf". */
export const invoiceFilename = (invoice: PresentedInvoice) => `${fileSafe(invoice.hotel.name, "Invoice")} invoice ${invoice.number}.pdf`;

/** The credit note's file name, e.g. "Harbor Hotel credit note 3.pdf". */
export const creditNoteFilename = (note: PresentedCreditNote) => `${fileSafe(note.hotel.name, "Credit note")} credit note ${note.number}.pdf`;

type Party = PresentedInvoice["hotel"];
type Lines = { description: string; net: Money; tax: Money; gross: Money }[];

/**
 * An A4 document of the house's (pdfkit): the hotel's heading, the party billed, the stay and a
 * table of lines with net, tax and total; money in the property's currency and its country's
 * format, dates in words; text in any script Noto Sans draws (server/invoices/fonts.ts). The
 * document's creation date is the moment, so the same document always renders to the
 * same bytes.
 */
/** pdfkit loaded on the first document, not at start: it is 3 s and 23 MB of a loaded 2-core machine's start, and most processes never draw a PDF. */
const pdfkit = async () => (await import("pdfkit")).default;

function houseDocument(PDFDocument: typeof PDFKit, head: { title: string; hotel: Party; issuedAt: string }) {
  const locale = propertyLocale(head.hotel.address?.country);
  const money = (m: Money) => formatMoney(m, locale);
  const day = (d: string) => formatDay(d, locale, "medium");
  const moment = (at: string) => formatMoment(at, { timezone: head.hotel.timezone, locale });
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: head.title, Author: head.hotel.name, CreationDate: new Date(head.issuedAt) } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = 50;
  const width = doc.page.width - 100;

  // Every text goes through here: cut into runs by script (server/invoices/fonts.ts), each run in
  // the part of Noto Sans that draws it, registered with the document the first time it is used.
  const registered = new Set<string>();
  let weight: Weight = 400;
  const write = (s: string, options: PDFKit.Mixins.TextOptions = {}, at?: { x: number; y: number }) => {
    const runs = scriptRuns(s);
    if (!runs.length) runs.push({ subset: "latin", text: "" });
    runs.forEach((run, i) => {
      const name = fontName(run.subset, weight);
      if (!registered.has(name)) {
        doc.registerFont(name, fontFile(run.subset, weight));
        registered.add(name);
      }
      doc.font(name);
      const opts = { ...options, continued: i < runs.length - 1 };
      if (i === 0 && at) doc.text(run.text, at.x, at.y, opts);
      else doc.text(run.text, opts);
    });
  };
  const text = (s: string, options: PDFKit.Mixins.TextOptions = {}) => write(s, options);
  const style = (w: Weight, size?: number) => {
    weight = w;
    if (size) doc.fontSize(size);
  };
  const address = (a: Party["address"]) =>
    a ? [a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.region, a.country].filter(Boolean).join(", ") : "";

  // The lines: description (with its night), then net, tax and total in right-aligned columns.
  const columns = [
    { title: "Description", x: left, w: width - 270, align: "left" as const },
    { title: "Net", x: left + width - 270, w: 85, align: "right" as const },
    { title: "Tax", x: left + width - 185, w: 85, align: "right" as const },
    { title: "Total", x: left + width - 100, w: 100, align: "right" as const },
  ];
  const row = (cells: string[], bold = false) => {
    if (doc.y > doc.page.height - 100) doc.addPage();
    style(bold ? 700 : 400);
    const y = doc.y;
    let bottom = y;
    cells.forEach((cell, i) => {
      write(cell, { width: columns[i].w, align: columns[i].align }, { x: columns[i].x, y });
      bottom = Math.max(bottom, doc.y);
    });
    doc.x = left;
    doc.y = bottom + 3;
  };
  const pair = (label: string, value: string, bold = false) => row([label, "", "", value], bold);
  const rule = () => {
    doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
    doc.y += 4;
  };

  return {
    doc,
    done,
    money,
    day,
    moment,
    text,
    style,
    pair,
    /** The hotel, the document's title and date, the party billed and the stay. */
    heading(billed: PresentedInvoice["guest"], stay: PresentedInvoice["stay"], title: string, issued: string[]) {
      style(700, 18);
      text(head.hotel.name);
      style(400, 10);
      if (head.hotel.address) text(address(head.hotel.address));
      doc.moveDown();
      style(700, 14);
      text(title);
      style(400, 10);
      for (const line of issued) text(line);
      doc.moveDown();
      style(700);
      text("Billed to");
      style(400);
      text(billed.name);
      if (billed.address) text(address(billed.address));
      if (billed.email) text(billed.email);
      if (billed.phone) text(billed.phone);
      doc.moveDown();
      text(`Stay: ${day(stay.check_in)} to ${day(stay.check_out)}, ${stay.room_type}, ${stay.rate_plan}`);
      doc.moveDown();
    },
    /** The lines, their total, and each tax's sum. */
    table(lines: Lines, totals: { net: Money; tax: Money; gross: Money }, taxes: { name: string; amount: Money }[]) {
      row(columns.map((c) => c.title), true);
      rule();
      // A line names its night as the folio shows it ("night of Nov 27, 2026"), never as the API stores it.
      for (const line of lines) row([datesInWords(line.description, locale), money(line.net), money(line.tax), money(line.gross)]);
      rule();
      row(["Total", money(totals.net), money(totals.tax), money(totals.gross)], true);
      doc.moveDown();
      if (taxes.length) {
        style(700);
        text("Taxes", { width });
        for (const t of taxes) pair(t.name, money(t.amount));
        doc.moveDown();
      }
    },
    heading2(s: string) {
      style(700);
      text(s, { width });
    },
  };
}

/**
 * The invoice as a PDF (A4): the hotel and the guest as issued, the stay, every line with its
 * net, tax and total, the totals, the taxes one by one, payments, refunds and the balance.
 */
export async function renderInvoicePdf(invoice: PresentedInvoice): Promise<Buffer> {
  const d = houseDocument(await pdfkit(), { title: `Invoice ${invoice.number}`, hotel: invoice.hotel, issuedAt: invoice.issued_at });
  const supplements = invoice.supplements ? [`Supplements invoice ${invoice.supplements.number}`] : [];
  d.heading(invoice.guest, invoice.stay, invoice.supplements ? `Supplementary invoice ${invoice.number}` : `Invoice ${invoice.number}`, [`Issued ${d.day(invoice.issue_date)}`, ...supplements]);
  d.table(invoice.lines, invoice.totals, invoice.tax_summary);
  d.heading2("Payments");
  // A supplementary invoice's payments are those before it, on the invoice it supplements.
  if (invoice.supplements) d.pair(`See invoice ${invoice.supplements.number}`, "");
  else if (!invoice.payments.length) d.pair("None", d.money({ amount: 0, currency: invoice.currency }));
  for (const p of invoice.payments) d.pair(`${d.moment(p.captured_at)}, ${p.description}`, d.money(p.amount));
  for (const r of invoice.refunds) d.pair(`${d.moment(r.created_at)}, refund`, d.money({ ...r.amount, amount: -r.amount.amount }));
  d.doc.moveDown();
  d.pair(invoice.balance.amount < 0 ? "Owed to the guest" : "Balance due", d.money({ ...invoice.balance, amount: Math.abs(invoice.balance.amount) }), true);
  d.doc.end();
  return d.done;
}

/**
 * A credit note as a PDF (A4): the invoice it corrects by number, its reason, the lines it takes
 * off (negative, with their taxes) and the total credited.
 */
export async function renderCreditNotePdf(note: PresentedCreditNote): Promise<Buffer> {
  const d = houseDocument(await pdfkit(), { title: `Credit note ${note.number}`, hotel: note.hotel, issuedAt: note.issued_at });
  d.heading(note.guest, note.stay, `Credit note ${note.number}`, [`Issued ${d.day(note.issue_date)}`, `Corrects invoice ${note.invoice_number}`, `Reason: ${note.reason}`]);
  d.table(note.lines, note.totals, note.tax_summary);
  d.pair("Credited to the guest", d.money({ ...note.totals.gross, amount: Math.abs(note.totals.gross.amount) }), true);
  d.doc.end();
  return d.done;
}
