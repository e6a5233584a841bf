import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, bookingSessions, mailOutbox, reservations } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { getManagedStay, previewStayChange } from "@/server/booking-engine/manage";
import { ApiError } from "@/server/errors";
import { parseProxyTrust } from "@/server/proxy-trust";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, eventsFor, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";
import { guestRequests } from "../support/guest-requests";

// Issue 38, point 3: a guest manages a booking made on the booking engine from the link in its
// confirmation e-mail, without an account: the page's data (what the manage page renders, read by
// its service), and its actions through the engine's real handlers (/book-api/{slug}/manage/…),
// which are plain forms answered 303. Point 4 in part: the engine's e-mails in the guest's
// language. Expected values come from the issue and from the rates, taxes and terms each test
// sets (a night at 12,000 with 10 % tax on top is 13,200; a non-refundable night at 10,000 is
// 11,000), not from the engine's output.

let h: Harness;
let caller: Caller;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let flex: RoomTypeSetup;
let saver: RoomTypeSetup;
let slug: string;
const d = (n: number): IsoDate => addDays(hotel.today, n);
const { postJson, postForm, used: addressesUsed } = guestRequests(() => h.baseUrl, "203.0.113");

/** Where a form's 303 sends the guest: the path and its query. */
function redirected(res: { status: number; text: string; headers: Headers }) {
  expect(res.status, res.text).toBe(303);
  const url = new URL(res.headers.get("location")!, "http://x");
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

/**
 * A guest books on the engine as the pages do (the choice a form in their language, then the
 * details), and the confirmation e-mail is read: its link is the manage page's.
 */
async function bookOnEngine(t: RoomTypeSetup, checkIn: IsoDate, checkOut: IsoDate, lang: string, email = `guest-${Date.now()}-${addressesUsed()}@example.com`) {
  const chosen = redirected(await postForm(`/book-api/${slug}/sessions`, { check_in: checkIn, check_out: checkOut, adults: 2, children: 0, room_type_id: t.roomTypeId, rate_plan_id: t.ratePlanId, lang }));
  const formToken = chosen.query.t;
  await h.db
    .update(bookingSessions)
    .set({ createdAt: sql`now() - interval '30 seconds'` })
    .where(eq(bookingSessions.tokenHash, createHash("sha256").update(formToken).digest("hex")));
  ok(await postJson(`/book-api/${slug}/bookings`, { token: formToken, guest: { first_name: "Inês", last_name: "Guerreiro", email } }), 201);
  const [session] = await h.db.select().from(bookingSessions).where(eq(bookingSessions.tokenHash, createHash("sha256").update(formToken).digest("hex")));
  const reservationId = session.reservationId!;
  const [mail] = await h.db.select().from(mailOutbox).where(and(eq(mailOutbox.reservationId, reservationId), eq(mailOutbox.kind, "confirmation")));
  const link = mail.text.match(/(https?:\/\/\S+\/book\/\S+\/manage\?\S+)/)?.[1];
  expect(link, mail.text).toBeDefined();
  const url = new URL(link!);
  return { reservationId, mail, url, token: url.searchParams.get("token")!, formToken };
}

const reservationOf = async (id: string) => ok(await h.get(`/v1/reservations/${id}`, caller));
const mailsOf = (id: string) => h.db.select().from(mailOutbox).where(eq(mailOutbox.reservationId, id)).orderBy(mailOutbox.createdAt);

beforeAll(async () => {
  h = await startHarness({ trustProxy: parseProxyTrust("loopback"), max: 20 });
  caller = { token: h.main.token };
  hotel = await liveHotel(h, h.main.account.id);
  flex = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, maxOccupancy: 3, amount: 12_000, days: 60 });
  saver = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, maxOccupancy: 3, amount: 10_000, days: 60, refundable: false });
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 10, inclusive: false }, caller), 201);
  slug = `manage-${Date.now().toString(36)}`;
  ok(await h.patch(`/v1/properties/${hotel.propertyId}/booking_engine`, { enabled: true, slug, rate_plan_ids: [flex.ratePlanId, saver.ratePlanId] }, caller));
}, 120_000);
afterAll(async () => h?.close());

describe("the confirmation e-mail and its link", { timeout: 60_000 }, () => {
  it("is written in Portuguese for a guest who booked in Portuguese, dates and money as Portuguese writes them, with the manage link", async () => {
    const { mail, url } = await bookOnEngine(flex, d(10), d(12), "pt");
    expect(url.pathname).toBe(`/book/${slug}/manage`);
    expect(url.searchParams.get("lang")).toBe("pt");
    expect(url.searchParams.get("token")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.subject).toBe("A sua reserva em Test Inn está confirmada");
    expect(mail.text).toContain("Obrigado por reservar com Test Inn. A sua reserva está confirmada.");
    // "qua., 9 de dez. de 2026, a partir das 15:00": a weekday, the day, the month's word, the year.
    expect(mail.text).toMatch(/Chegada:\s+\S+, \d{1,2} de \S+ de \d{4}, a partir das 15:00/);
    expect(mail.text).toMatch(/Partida:\s+\S+, \d{1,2} de \S+ de \d{4}, até às 11:00/);
    expect(mail.text).toContain("2 adultos");
    // Two nights at 13,200 (12,000 and 10 % tax): 264 dollars, with a decimal comma.
    expect(mail.text).toMatch(/Total:\s+US\$\s264,00/);
    expect(mail.text).toMatch(/Dos quais impostos:\s+US\$\s24,00/);
    expect(mail.text).toContain("Cancelamento gratuito até");
    expect(mail.text).toContain("Alterar ou cancelar a sua reserva");
    expect(mail.html).toContain(`href="${url.href.replace(/&/g, "&amp;")}"`);
    for (const english of ["Arrival", "Departure", "Dear", "Guests", "Of which taxes", "Cancellation policy", "confirmed", "We look forward", " PM", " AM"]) expect(mail.text).not.toContain(english);
  });

  it("is written in German for a guest who booked in German; a booking made by staff keeps its English mail, without a link", async () => {
    const { mail } = await bookOnEngine(saver, d(14), d(15), "de");
    expect(mail.subject).toBe("Ihre Buchung im Test Inn ist bestätigt");
    expect(mail.text).toMatch(/Anreise:\s+\S+\., \d{1,2}\. \S+ \d{4}, ab 15:00 Uhr/);
    // One night at 11,000 (10,000 and 10 % tax): "110,00 $".
    expect(mail.text).toMatch(/Gesamtpreis:\s+110,00\s\$/);
    expect(mail.text).toContain("Dieser Tarif ist nicht erstattbar");
    const staff = ok(
      await h.post("/v1/reservations", { property_id: hotel.propertyId, guest: { first_name: "Ann", last_name: "Lee", email: "ann@example.com" }, check_in: d(14), check_out: d(15), room_type_id: flex.roomTypeId, rate_plan_id: flex.ratePlanId, adults: 1 }, caller),
      201,
    );
    const [staffMail] = await mailsOf(staff.id);
    expect(staffMail.subject).toBe("Your booking at Test Inn is confirmed");
    expect(staffMail.text).toContain("Arrival:");
    expect(staffMail.text).not.toContain("/manage?");
  });

  it("opens the booking's page: the stay, its price and terms as the guest meets them now, what cancelling costs now", async () => {
    const { token, reservationId } = await bookOnEngine(flex, d(16), d(18), "en");
    const page = await getManagedStay({ db: h.db, slug, token });
    expect(reservationId.toUpperCase().endsWith(page.reference)).toBe(true);
    expect(page).toMatchObject({
      status: "confirmed",
      guest_first_name: "Inês",
      stay: { check_in: d(16), check_out: d(18), nights: 2, adults: 2, children: 0 },
      room: { name: "Test room" },
      total: { amount: 26_400, currency: "USD" },
      tax: { amount: 2_400, currency: "USD" },
      // The plan's 24 hours before the arrival day starts, on the hotel's clock.
      terms: { free: true, until: `${d(15)}T00:00` },
      cancel_fee: { amount: 0, currency: "USD" },
      can_change: true,
      can_cancel: true,
      link_expires_on: d(18 + 14),
    });
  });

  it("refuses a tampered link, another hotel's address and an expired link, and their actions change nothing", async () => {
    const { token, reservationId } = await bookOnEngine(flex, d(20), d(21), "fr");
    const tampered = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof ApiError ? [e.code, e.param] : e));
    expect(await refusal(getManagedStay({ db: h.db, slug, token: tampered }))).toEqual(["resource_missing", "token"]);
    expect(await refusal(getManagedStay({ db: h.db, slug, token: "" }))).toEqual(["resource_missing", "token"]);
    expect(await refusal(getManagedStay({ db: h.db, slug: "no-such-hotel", token }))).toEqual(["resource_missing", "slug"]);
    // The form token (the confirmation page's) is not the manage link's.
    const { formToken } = await bookOnEngine(flex, d(22), d(23), "fr");
    expect(await refusal(getManagedStay({ db: h.db, slug, token: formToken }))).toEqual(["resource_missing", "token"]);
    // A tampered link's actions: back to the page (which says the link opens nothing), nothing done.
    const cancel = redirected(await postForm(`/book-api/${slug}/manage/cancel`, { token: tampered, fee: 0, lang: "fr" }));
    expect(cancel).toEqual({ path: `/book/${slug}/manage`, query: { token: tampered, lang: "fr" } });
    redirected(await postForm(`/book-api/${slug}/manage/requests`, { token: tampered, special_requests: "Late check-out" }));
    redirected(await postForm(`/book-api/${slug}/manage/change`, { token: tampered, check_in: d(20), check_out: d(22), adults: 2, children: 0, total: 26_400 }));
    expectError(await postForm(`/book-api/no-such-hotel/manage/cancel`, { token, fee: 0 }), 404, "resource_missing", "slug");
    const r = await reservationOf(reservationId);
    expect(r).toMatchObject({ status: "confirmed", check_in: d(20), check_out: d(21), notes: null });

    // Two weeks after the departure day (at the hotel) the link still opens; the day after, it has expired.
    const departed = (daysAgo: number) => h.db.update(reservations).set({ checkIn: d(-daysAgo - 1), checkOut: d(-daysAgo) }).where(eq(reservations.id, reservationId));
    await departed(14);
    expect((await getManagedStay({ db: h.db, slug, token })).link_expires_on).toBe(hotel.today);
    await departed(15);
    expect(await refusal(getManagedStay({ db: h.db, slug, token }))).toEqual(["token_expired", "token"]);
    // An expired link refuses its actions the same way: back to the page, which says so; nothing done.
    expect(redirected(await postForm(`/book-api/${slug}/manage/requests`, { token, special_requests: "Late check-out" })).query).toEqual({ token });
    const [row] = await h.db.select().from(reservations).where(eq(reservations.id, reservationId));
    expect(row.notes).toBeNull();
  });
});

describe("changing the dates or the party", { timeout: 60_000 }, () => {
  it("is re-priced and re-checked against the inventory as the desk's change is: a change into a full night is refused and nothing changes; an accepted one moves the nights, the price, the trail and mails the guest", async () => {
    const { token, reservationId } = await bookOnEngine(flex, d(30), d(32), "pt");
    // Both rooms of the type gone on the night of d(32): the one booked above stays free for it.
    ok(await h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: flex.roomTypeId, from: d(32), to: d(33), rooms: 2 }, caller), 201);
    const before = await inventoryOf(h, caller, hotel.propertyId, flex.roomTypeId, d(30), d(36));

    const refusal = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => (e instanceof ApiError ? e.code : e));
    expect(await refusal(previewStayChange({ db: h.db, slug, token, change: { check_in: d(30), check_out: d(33), adults: 2, children: 0 } }))).toBe("no_availability");
    const full = redirected(await postForm(`/book-api/${slug}/manage/change`, { token, lang: "pt", check_in: d(30), check_out: d(33), adults: 2, children: 0, total: 39_600 }));
    expect(full.query).toEqual({ token, lang: "pt", problem: "no_availability", step: "change", check_in: d(30), check_out: d(33), adults: "2", children: "0" });
    // Impossible dates and parties, in words the page has.
    const problem = async (body: Record<string, string | number>) => redirected(await postForm(`/book-api/${slug}/manage/change`, { token, check_in: d(30), check_out: d(32), adults: 2, children: 0, total: 26_400, ...body })).query.problem;
    expect(await problem({ check_out: d(29) })).toBe("dates");
    expect(await problem({ check_in: d(-1) })).toBe("dates");
    expect(await problem({ check_in: "2026-02-30" })).toBe("dates");
    expect(await problem({ check_out: d(62) })).toBe("dates");
    expect(await problem({ adults: 4 })).toBe("party");
    expect(await problem({ adults: 0 })).toBe("party");
    expect(await reservationOf(reservationId)).toMatchObject({ check_in: d(30), check_out: d(32), adults: 2, price: { gross: { amount: 26_400 } } });
    expect(await inventoryOf(h, caller, hotel.propertyId, flex.roomTypeId, d(30), d(36))).toEqual(before);

    // Three nights from d(33): 39,600, shown before it is kept; a stale price keeps nothing.
    const preview = await previewStayChange({ db: h.db, slug, token, change: { check_in: d(33), check_out: d(36), adults: 2, children: 0 } });
    expect(preview).toMatchObject({ stay: { check_in: d(33), check_out: d(36), nights: 3 }, total: { amount: 39_600, currency: "USD" }, before: { amount: 26_400 }, unchanged: false });
    expect(await problem({ check_in: d(33), check_out: d(36), total: 26_400 })).toBe("price_changed");
    expect(await reservationOf(reservationId)).toMatchObject({ check_in: d(30), check_out: d(32) });

    const done = redirected(await postForm(`/book-api/${slug}/manage/change`, { token, lang: "pt", check_in: d(33), check_out: d(36), adults: 2, children: 0, total: 39_600 }));
    expect(done.query).toEqual({ token, lang: "pt", done: "changed" });
    const changed = await reservationOf(reservationId);
    expect(changed).toMatchObject({ status: "confirmed", check_in: d(33), check_out: d(36), price: { gross: { amount: 39_600, currency: "USD" } } });
    expect(ok(await h.get(`/v1/reservations/${reservationId}/folio`, caller)).balance).toEqual({ amount: 39_600, currency: "USD" });
    const after = await inventoryOf(h, caller, hotel.propertyId, flex.roomTypeId, d(30), d(36));
    for (const day of [d(30), d(31)]) expect(after.get(day)!.sold, day).toBe(before.get(day)!.sold - 1);
    for (const day of [d(33), d(34), d(35)]) expect(after.get(day)!.sold, day).toBe(before.get(day)!.sold + 1);
    // The same event and trail as the desk's change, by the booking engine; the change mailed in Portuguese.
    expect(await eventsFor(h, h.main.account.id, "reservation.updated", (o) => o.id === reservationId)).toHaveLength(1);
    const trail = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, reservationId), eq(auditLog.action, "reservation.updated")));
    expect(trail.map((e) => e.actorType)).toEqual(["booking_engine"]);
    const mails = await mailsOf(reservationId);
    expect(mails.map((m) => m.kind)).toEqual(["confirmation", "modification"]);
    expect(mails[1].subject).toBe("A sua reserva em Test Inn foi alterada");
    expect(mails[1].text).toMatch(/Total:\s+US\$\s396,00/);
  });

  it("is not offered on a non-refundable rate, and refused if asked anyway", async () => {
    const { token, reservationId } = await bookOnEngine(saver, d(40), d(41), "es");
    const page = await getManagedStay({ db: h.db, slug, token });
    expect(page).toMatchObject({ can_change: false, change_refusal: "non_refundable", terms: { free: false, reason: "non_refundable" } });
    const res = redirected(await postForm(`/book-api/${slug}/manage/change`, { token, check_in: d(41), check_out: d(42), adults: 2, children: 0, total: 11_000 }));
    expect(res.query.problem).toBe("not_allowed");
    expect(await reservationOf(reservationId)).toMatchObject({ check_in: d(40), check_out: d(41) });
  });
});

describe("special requests", { timeout: 60_000 }, () => {
  it("go to the reservation's notes in the staff's words, on the trail by the booking engine", async () => {
    const { token, reservationId } = await bookOnEngine(flex, d(44), d(45), "en");
    const res = redirected(await postForm(`/book-api/${slug}/manage/requests`, { token, special_requests: "  A cot for the baby  " }));
    expect(res.query).toEqual({ token, done: "requests" });
    expect((await reservationOf(reservationId)).notes).toBe("Requests: A cot for the baby");
    expect(redirected(await postForm(`/book-api/${slug}/manage/requests`, { token, special_requests: "x".repeat(1001) })).query.problem).toBe("requests");
    expect(redirected(await postForm(`/book-api/${slug}/manage/requests`, { token, special_requests: "   " })).query.problem).toBe("requests");
    expect((await reservationOf(reservationId)).notes).toBe("Requests: A cot for the baby");
    // Notes do not mail the guest.
    expect((await mailsOf(reservationId)).map((m) => m.kind)).toEqual(["confirmation"]);
  });
});

describe("cancelling", { timeout: 60_000 }, () => {
  it("states the fee first and keeps the room charges on the folio as the desk's cancellation does; the link then shows the cancelled stay", async () => {
    const { token, reservationId } = await bookOnEngine(saver, d(46), d(48), "de");
    const before = await inventoryOf(h, caller, hotel.propertyId, saver.roomTypeId, d(46), d(48));
    // Non-refundable: two nights at 11,000 are due.
    expect((await getManagedStay({ db: h.db, slug, token })).cancel_fee).toEqual({ amount: 22_000, currency: "USD" });
    // A fee other than the one due (a page read before the deadline passed) cancels nothing.
    expect(redirected(await postForm(`/book-api/${slug}/manage/cancel`, { token, lang: "de", fee: 0 })).query).toEqual({ token, lang: "de", problem: "fee_changed", step: "cancel" });
    expect((await reservationOf(reservationId)).status).toBe("confirmed");

    expect(redirected(await postForm(`/book-api/${slug}/manage/cancel`, { token, lang: "de", fee: 22_000 })).query).toEqual({ token, lang: "de", done: "cancelled" });
    expect((await reservationOf(reservationId)).status).toBe("cancelled");
    expect(ok(await h.get(`/v1/reservations/${reservationId}/folio`, caller)).balance).toEqual({ amount: 22_000, currency: "USD" });
    const after = await inventoryOf(h, caller, hotel.propertyId, saver.roomTypeId, d(46), d(48));
    for (const [day, n] of after) expect(n.sold, day).toBe(before.get(day)!.sold - 1);
    expect(await eventsFor(h, h.main.account.id, "reservation.cancelled", (o) => o.id === reservationId)).toHaveLength(1);
    const trail = await h.db.select().from(auditLog).where(and(eq(auditLog.objectId, reservationId), eq(auditLog.action, "reservation.cancelled")));
    expect(trail.map((e) => e.actorType)).toEqual(["booking_engine"]);
    const mails = await mailsOf(reservationId);
    expect(mails.map((m) => m.kind)).toEqual(["confirmation", "cancellation"]);
    expect(mails[1].subject).toBe("Ihre Buchung im Test Inn ist storniert");
    expect(mails[1].text).toContain("Wir hoffen, Sie ein anderes Mal begrüßen zu dürfen.");

    // The link again: the cancelled stay, nothing more to do; a second cancel is refused in words.
    expect(await getManagedStay({ db: h.db, slug, token })).toMatchObject({ status: "cancelled", cancel_fee: null, can_cancel: false, can_change: false, stay: { check_in: d(46), check_out: d(48) } });
    expect(redirected(await postForm(`/book-api/${slug}/manage/cancel`, { token, fee: 22_000 })).query.problem).toBe("not_allowed");
  });

  it("is free before the deadline on a refundable rate: the folio is left empty", async () => {
    const { token, reservationId } = await bookOnEngine(flex, d(50), d(51), "en");
    expect((await getManagedStay({ db: h.db, slug, token })).cancel_fee).toEqual({ amount: 0, currency: "USD" });
    expect(redirected(await postForm(`/book-api/${slug}/manage/cancel`, { token, fee: 0 })).query.done).toBe("cancelled");
    expect(ok(await h.get(`/v1/reservations/${reservationId}/folio`, caller)).balance).toEqual({ amount: 0, currency: "USD" });
  });
});
