import type { GuestMailKind, PlanFee } from "@/db/schema";
import { formatDay, formatTimeOfDay, daysBetween, hoursBeforeDay, wallClockWords, type IsoDate, type WallClock } from "@/lib/dates";
import { formatMoney } from "@/lib/money";

/** Everything a guest e-mail says, read from the reservation, its guest, property, room type and rate plan. */
export type GuestMailFacts = {
  locale: string;
  hotel: { name: string; address: string[]; checkInTime: string; checkOutTime: string };
  guest: { firstName: string; lastName: string };
  stay: { checkIn: IsoDate; checkOut: IsoDate; adults: number; children: number; roomType: string; ratePlan: string };
  /** What the guest pays for the nights (the stay's gross), and the taxes in it. */
  total: { amount: number; currency: string };
  tax?: number;
  plan: { refundable: boolean; cancellationDeadlineHours: number; noShowFee: PlanFee | null };
  /**
   * The cancellation terms as the guest meets them when the mail is written: free until the
   * deadline (the hotel's wall clock), or not free, because the rate is non-refundable or its
   * deadline had already passed (a booking made inside it). Absent: the plan's terms, unjudged.
   */
  cancellation?: { free: true; until: WallClock } | { free: false; reason: "non_refundable" | "deadline_passed" };
};

export type ComposedMail = { subject: string; text: string; html: string };

const headline: Record<GuestMailKind, (hotel: string) => { subject: string; lead: string }> = {
  confirmation: (hotel) => ({
    subject: `Your booking at ${hotel} is confirmed`,
    lead: `Thank you for booking with ${hotel}. Your reservation is confirmed.`,
  }),
  modification: (hotel) => ({
    subject: `Your booking at ${hotel} has changed`,
    lead: `Your reservation at ${hotel} has been changed. Here it is as it now stands.`,
  }),
  cancellation: (hotel) => ({
    subject: `Your booking at ${hotel} is cancelled`,
    lead: `Your reservation at ${hotel} has been cancelled. These were its details.`,
  }),
};

/** "15:00" as the hotel's locale writes a time of day ("3:00 PM" in the US). */
const clock = (time: string, locale: string) => formatTimeOfDay(time, locale);

function feeWords(fee: PlanFee, f: GuestMailFacts): string {
  if (fee.type === "fixed") return formatMoney({ amount: fee.amount, currency: f.total.currency }, f.locale);
  if (fee.type === "nights") return fee.nights === 1 ? "the first night" : `the first ${fee.nights} nights`;
  return `${fee.percent} % of the stay`;
}

/** The rate plan's cancellation and no-show terms in a guest's words. */
export function policyWords(f: GuestMailFacts): string[] {
  const lines: string[] = [];
  const c = f.cancellation ?? (f.plan.refundable ? { free: true as const, until: hoursBeforeDay(f.stay.checkIn, f.plan.cancellationDeadlineHours) } : { free: false as const, reason: "non_refundable" as const });
  if (c.free) lines.push(`Free cancellation until ${wallClockWords(c.until, f.locale)} (hotel time). After that, the room charges are due.`);
  else if (c.reason === "non_refundable") lines.push("This rate is non-refundable: if you cancel, the stay is charged in full.");
  else lines.push("This booking can no longer be cancelled free of charge: the free cancellation period has already ended, so if you cancel, the room charges are due.");
  if (f.plan.noShowFee) lines.push(`If you do not arrive, ${feeWords(f.plan.noShowFee, f)} is charged.`);
  return lines;
}

const party = (adults: number, children: number) =>
  [`${adults} ${adults === 1 ? "adult" : "adults"}`, children ? `${children} ${children === 1 ? "child" : "children"}` : null]
    .filter(Boolean)
    .join(", ");

/** The mail's facts as label and value pairs, in the order they are read. */
function details(f: GuestMailFacts): [string, string][] {
  const nights = daysBetween(f.stay.checkIn, f.stay.checkOut);
  return [
    ["Arrival", `${formatDay(f.stay.checkIn, f.locale, "long")}, from ${clock(f.hotel.checkInTime, f.locale)}`],
    ["Departure", `${formatDay(f.stay.checkOut, f.locale, "long")}, by ${clock(f.hotel.checkOutTime, f.locale)}`],
    ["Nights", String(nights)],
    ["Room", f.stay.roomType],
    ["Guests", party(f.stay.adults, f.stay.children)],
    ["Rate", f.stay.ratePlan],
    ["Total", formatMoney(f.total, f.locale)],
    ...(f.tax ? [["Of which taxes", formatMoney({ amount: f.tax, currency: f.total.currency }, f.locale)] as [string, string]] : []),
  ];
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * A guest e-mail, plain text and simple HTML, from its facts alone: the preview in the dashboard
 * and the queued mail are this one function's output. Every text in the HTML is escaped (a
 * guest's name is what they typed).
 */
export function composeGuestMail(kind: GuestMailKind, f: GuestMailFacts): ComposedMail {
  const { subject, lead } = headline[kind](f.hotel.name);
  const greeting = `Dear ${f.guest.firstName} ${f.guest.lastName},`;
  const rows = details(f);
  const policy = kind === "cancellation" ? [] : policyWords(f);
  const closing = kind === "cancellation" ? "We hope to welcome you another time." : "We look forward to welcoming you.";
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const text = [
    greeting,
    "",
    lead,
    "",
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    ...(policy.length ? ["", "Cancellation policy", ...policy] : []),
    "",
    closing,
    "",
    f.hotel.name,
    ...f.hotel.address,
    "",
  ].join("\n");
  const e = escapeHtml;
  const html = [
    `<!doctype html><html><body style="font-family: Arial, sans-serif; color: #1f2933; line-height: 1.5">`,
    `<p>${e(greeting)}</p>`,
    `<p>${e(lead)}</p>`,
    `<table cellpadding="4" style="border-collapse: collapse">`,
    ...rows.map(([label, value]) => `<tr><th align="left" style="padding-right: 16px">${e(label)}</th><td>${e(value)}</td></tr>`),
    `</table>`,
    ...(policy.length
      ? [`<h3 style="margin-bottom: 4px">Cancellation policy</h3>`, ...policy.map((line) => `<p style="margin: 0">${e(line)}</p>`)]
      : []),
    `<p>${e(closing)}</p>`,
    `<p><strong>${e(f.hotel.name)}</strong>${f.hotel.address.map((line) => `<br>${e(line)}`).join("")}</p>`,
    `</body></html>`,
  ].join("\n");
  return { subject, text, html };
}
