import type { GuestMailKind, PlanFee } from "@/db/schema";
import { formatDay, formatGuestDay, formatGuestMoment, formatGuestTimeOfDay, formatTimeOfDay, daysBetween, hoursBeforeDay, wallClockWords, type IsoDate, type WallClock } from "@/lib/dates";
import type { GuestLocale } from "@/lib/guest-locale";
import { formatMoney } from "@/lib/money";
import { mailWords } from "./words";

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
  /**
   * The language the guest booked in on the booking engine: the mail is written in it, its dates
   * and money as that language writes them. Absent (staff and API bookings): English, as before.
   */
  language?: GuestLocale;
  /** The link where the guest manages the booking (a booking made on the engine), if the mail carries it. */
  manageUrl?: string;
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

/** The terms in the guest's language, as policyWords says them in English. */
function localizedPolicy(f: GuestMailFacts, language: GuestLocale): string[] {
  const w = mailWords[language];
  const c = f.cancellation ?? (f.plan.refundable ? { free: true as const, until: hoursBeforeDay(f.stay.checkIn, f.plan.cancellationDeadlineHours) } : { free: false as const, reason: "non_refundable" as const });
  const lines = [c.free ? w.freeUntil(formatGuestMoment(`${c.until.date}T${c.until.time}`, language)) : c.reason === "non_refundable" ? w.nonRefundable : w.deadlinePassed];
  const fee = f.plan.noShowFee;
  if (fee) {
    const words = fee.type === "fixed" ? formatMoney({ amount: fee.amount, currency: f.total.currency }, language) : fee.type === "nights" ? w.firstNights(fee.nights) : w.percentOfStay(fee.percent);
    lines.push(w.noShow(words));
  }
  return lines;
}

type Parts = { subject: string; greeting: string; lead: string; rows: [string, string][]; policyTitle: string; policy: string[]; closing: string; manage?: { title: string; text: string; url: string } };

/** A guest mail in the guest's own language (a booking made on the booking engine). */
function localizedParts(kind: GuestMailKind, f: GuestMailFacts, language: GuestLocale): Parts {
  const w = mailWords[language];
  const money = (amount: number) => formatMoney({ amount, currency: f.total.currency }, language);
  const time = (t: string) => formatGuestTimeOfDay(t, language);
  const rows: [string, string][] = [
    [w.arrival, `${formatGuestDay(f.stay.checkIn, language, "long")}, ${w.from(time(f.hotel.checkInTime))}`],
    [w.departure, `${formatGuestDay(f.stay.checkOut, language, "long")}, ${w.by(time(f.hotel.checkOutTime))}`],
    [w.nights, String(daysBetween(f.stay.checkIn, f.stay.checkOut))],
    [w.room, f.stay.roomType],
    [w.guests, w.party(f.stay.adults, f.stay.children)],
    [w.rate, f.stay.ratePlan],
    [w.total, money(f.total.amount)],
    ...(f.tax ? [[w.taxes, money(f.tax)] as [string, string]] : []),
  ];
  const cancelled = kind === "cancellation";
  return {
    subject: w.subject[kind](f.hotel.name),
    greeting: w.greeting(f.guest.firstName, f.guest.lastName),
    lead: w.lead[kind](f.hotel.name),
    rows,
    policyTitle: w.policyTitle,
    policy: cancelled ? [] : localizedPolicy(f, language),
    closing: cancelled ? w.closingCancelled : w.closing,
    manage: f.manageUrl ? { title: w.manageTitle, text: w.manageText, url: f.manageUrl } : undefined,
  };
}

/**
 * A guest e-mail, plain text and simple HTML, from its facts alone: the preview in the dashboard
 * and the queued mail are this one function's output. Every text in the HTML is escaped (a
 * guest's name is what they typed). In English, unless the guest booked on the booking engine
 * in another language (`facts.language`).
 */
export function composeGuestMail(kind: GuestMailKind, f: GuestMailFacts): ComposedMail {
  if (f.language) return assemble(localizedParts(kind, f, f.language), f);
  const { subject, lead } = headline[kind](f.hotel.name);
  return assemble(
    {
      subject,
      lead,
      greeting: `Dear ${f.guest.firstName} ${f.guest.lastName},`,
      rows: details(f),
      policyTitle: "Cancellation policy",
      policy: kind === "cancellation" ? [] : policyWords(f),
      closing: kind === "cancellation" ? "We hope to welcome you another time." : "We look forward to welcoming you.",
      manage: f.manageUrl ? { title: mailWords.en.manageTitle, text: mailWords.en.manageText, url: f.manageUrl } : undefined,
    },
    f,
  );
}

function assemble({ subject, greeting, lead, rows, policyTitle, policy, closing, manage }: Parts, f: GuestMailFacts): ComposedMail {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const text = [
    greeting,
    "",
    lead,
    "",
    ...rows.map(([label, value]) => `${`${label}:`.padEnd(width)}${value}`),
    ...(policy.length ? ["", policyTitle, ...policy] : []),
    ...(manage ? ["", manage.title, manage.text, manage.url] : []),
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
      ? [`<h3 style="margin-bottom: 4px">${e(policyTitle)}</h3>`, ...policy.map((line) => `<p style="margin: 0">${e(line)}</p>`)]
      : []),
    ...(manage ? [`<h3 style="margin-bottom: 4px">${e(manage.title)}</h3>`, `<p style="margin: 0">${e(manage.text)}<br><a href="${e(manage.url)}">${e(manage.url)}</a></p>`] : []),
    `<p>${e(closing)}</p>`,
    `<p><strong>${e(f.hotel.name)}</strong>${f.hotel.address.map((line) => `<br>${e(line)}`).join("")}</p>`,
    `</body></html>`,
  ].join("\n");
  return { subject, text, html };
}
