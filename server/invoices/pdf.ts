import PDFDocument from "pdfkit";
import { formatDay, formatMoment } from "@/lib/dates";
import { formatMoney, propertyLocale, type Money } from "@/lib/money";
import { fontFile, fontName, scriptRuns, type Weight } from "./fonts";
import type { PresentedInvoice } from "./present";

/** The invoice's file name: the hotel and the number, e.g. "Harbor Hotel invoice 17.pdf". */
export const invoiceFilename = (invoice: PresentedInvoice) => `${invoice.hotel.name.replace(/[^\p{L}\p{N} .-]/gu, "").trim() || "Invoice"} invoice ${invoice.number}.pdf`;

/**
 * The invoice as a PDF (A4, pdfkit): the hotel and the guest as issued, the stay, every line
 * with its net, tax and total, the totals, the taxes one by one, payments, refunds and the
 * balance. Money in the property's currency and its country's format, dates in words; text in
 * any script Noto Sans draws (server/invoices/fonts.ts).
 */
export async function renderInvoicePdf(invoice: PresentedInvoice): Promise<Buffer> {
  const locale = propertyLocale(invoice.hotel.address?.country);
  const money = (m: Money) => formatMoney(m, locale);
  const day = (d: string) => formatDay(d, locale, "medium");
  const moment = (at: string) => formatMoment(at, { timezone: invoice.hotel.timezone, locale });
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: `Invoice ${invoice.number}`, Author: invoice.hotel.name } });
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

  const address = (a: PresentedInvoice["hotel"]["address"]) =>
    a ? [a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.region, a.country].filter(Boolean).join(", ") : "";

  style(700, 18);
  text(invoice.hotel.name);
  style(400, 10);
  if (invoice.hotel.address) text(address(invoice.hotel.address));
  doc.moveDown();
  style(700, 14);
  text(`Invoice ${invoice.number}`);
  style(400, 10);
  text(`Issued ${day(invoice.issue_date)}`);
  doc.moveDown();
  style(700);
  text("Billed to");
  style(400);
  text(invoice.guest.name);
  if (invoice.guest.address) text(address(invoice.guest.address));
  if (invoice.guest.email) text(invoice.guest.email);
  if (invoice.guest.phone) text(invoice.guest.phone);
  doc.moveDown();
  text(`Stay: ${day(invoice.stay.check_in)} to ${day(invoice.stay.check_out)}, ${invoice.stay.room_type}, ${invoice.stay.rate_plan}`);
  doc.moveDown();

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
  row(columns.map((c) => c.title), true);
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.y += 4;
  for (const line of invoice.lines) row([line.description, money(line.net), money(line.tax), money(line.gross)]);
  doc.moveTo(left, doc.y).lineTo(left + width, doc.y).stroke();
  doc.y += 4;
  row(["Total", money(invoice.totals.net), money(invoice.totals.tax), money(invoice.totals.gross)], true);
  doc.moveDown();

  const pair = (label: string, value: string, bold = false) => row([label, "", "", value], bold);
  if (invoice.tax_summary.length) {
    style(700);
    text("Taxes", { width });
    for (const t of invoice.tax_summary) pair(t.name, money(t.amount));
    doc.moveDown();
  }
  style(700);
  text("Payments", { width });
  if (!invoice.payments.length) pair("None", money({ amount: 0, currency: invoice.currency }));
  for (const p of invoice.payments) pair(`${moment(p.captured_at)}, ${p.description}`, money(p.amount));
  for (const r of invoice.refunds) pair(`${moment(r.created_at)}, refund`, money({ ...r.amount, amount: -r.amount.amount }));
  doc.moveDown();
  pair(invoice.balance.amount < 0 ? "Owed to the guest" : "Balance due", money({ ...invoice.balance, amount: Math.abs(invoice.balance.amount) }), true);
  doc.end();
  return done;
}
