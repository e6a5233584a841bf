import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, bookingSessions, mailOutbox, reservations } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { parseProxyTrust } from "@/server/proxy-trust";
import { expectError } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, eventsFor, inventoryOf, liveHotel, ok, type Caller, type RoomTypeSetup } from "../support/hotel";
import { guestRequests } from "../support/guest-requests";

// Issue 38, the direct booking engine: its settings through /v1 (GET and PATCH
// /v1/properties/{id}/booking_engine), and a guest's search, choice, hold and booking through the
// engine's public endpoints (/book-api/{slug}/…), which the /book/<slug> pages post to. Expected
// values come from the contract (§6: sources, channel null, the checks of POST /v1/reservations,
// the events of a booking) and from the rates and taxes each test sets, not from the engine.

let h: Harness;
let caller: Caller;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let main: RoomTypeSetup;
let slug: string;
const d = (n: number): IsoDate => addDays(hotel.today, n);

/** Each test speaks from its own address (X-Forwarded-For, trusted from loopback), so the per-address limits count it alone. */
const { search, postJson, postForm, freshAddress } = guestRequests(() => h.baseUrl, "198.51.100");

const choice = (t: RoomTypeSetup, checkIn: IsoDate, checkOut: IsoDate, extra: Record<string, unknown> = {}) => ({
  check_in: checkIn,
  check_out: checkOut,
  adults: "2",
  children: "0",
  room_type_id: t.roomTypeId,
  rate_plan_id: t.ratePlanId,
  ...extra,
});
const guestDetails = (token: string, extra: Record<string, unknown> = {}) => ({
  token,
  guest: { first_name: "Inês", last_name: "Guerreiro", email: "ines@example.com", phone: "+351 912 345 678" },
  arrival_time: "18:30",
  special_requests: "A quiet room, please.",
  ...extra,
});

/** Makes a session look as old as a person's form would be (the bot check refuses a form sent faster than BOOKING_MIN_FILL_SECONDS). */
async function age(token: string, seconds = 30) {
  const { createHash } = await import("node:crypto");
  const hash = createHash("sha256").update(token).digest("hex");
  await h.db.update(bookingSessions).set({ createdAt: sql`now() - make_interval(secs => ${seconds})` }).where(eq(bookingSessions.tokenHash, hash));
}

async function choose(t: RoomTypeSetup, checkIn: IsoDate, checkOut: IsoDate, s = slug) {
  const res = await postJson(`/book-api/${s}/sessions`, choice(t, checkIn, checkOut));
  return ok<{ token: string; expires_at: string }>(res, 201).token;
}

beforeAll(async () => {
  h = await startHarness({ trustProxy: parseProxyTrust("loopback"), max: 20 });
  caller = { token: h.main.token };
  hotel = await liveHotel(h, h.main.account.id);
  main = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, maxOccupancy: 3, amount: 12_000, days: 60 });
  // A tax of 10 % on top of the room price: the guest pays 13,200 a night (12,000 + 1,200).
  ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "VAT", kind: "percentage", percentage: 10, inclusive: false }, caller), 201);
  slug = `harbor-${Date.now().toString(36)}`;
}, 120_000);
afterAll(async () => h?.close());

describe("switching it on through /v1", { timeout: 60_000 }, () => {
  it("reads as off with no address until set", async () => {
    const engine = ok(await h.get(`/v1/properties/${hotel.propertyId}/booking_engine`, caller));
    expect(engine).toEqual({ object: "booking_engine", livemode: true, property_id: hotel.propertyId, enabled: false, slug: null, path: null, rate_plan_ids: [], updated_at: null });
  });

  it("refuses a malformed, reserved or missing address, foreign plans and switching on without plans", async () => {
    const path = `/v1/properties/${hotel.propertyId}/booking_engine`;
    for (const bad of ["Harbor-House", "ab", "-harbor", "harbor-", "harbor--house", "harbor house", "hárbor", "a".repeat(64)]) {
      expectError(await h.patch(path, { slug: bad }, caller), 422, "parameter_invalid", "slug");
    }
    expectError(await h.patch(path, { slug: "api" }, caller), 422, "parameter_invalid", "slug");
    expectError(await h.patch(path, { enabled: true }, caller), 422, "parameter_missing", "slug");
    expectError(await h.patch(path, { enabled: true, slug }, caller), 422, "parameter_missing", "rate_plan_ids");
    expectError(await h.patch(path, { rate_plan_ids: [main.ratePlanId, "rp_nope"] }, caller), 422, "parameter_invalid", "rate_plan_ids.1");
    expectError(await h.patch(path, { enabled: "yes" }, caller), 422, "parameter_invalid", "enabled");
    expectError(await h.patch(path, { colour: "teal" }, caller), 422, "parameter_unknown", "colour");
    expectError(await h.patch("/v1/properties/prop_nope/booking_engine", { enabled: false }, caller), 404, "resource_missing");
    // Nothing was kept from the refusals.
    expect(ok(await h.get(path, caller)).updated_at).toBeNull();
  });

  it("switches on with an address and the plans sold, on the trail; another account sees nothing and cannot take the address", async () => {
    const path = `/v1/properties/${hotel.propertyId}/booking_engine`;
    const engine = ok(await h.patch(path, { enabled: true, slug, rate_plan_ids: [main.ratePlanId] }, caller));
    expect(engine).toMatchObject({ enabled: true, slug, path: `/book/${slug}`, rate_plan_ids: [main.ratePlanId] });
    expect(ok(await h.get(path, caller))).toEqual(engine);
    const trail = await h.db.select().from(auditLog).where(and(eq(auditLog.objectType, "booking_engine"), eq(auditLog.objectId, hotel.propertyId)));
    expect(trail.map((e) => e.action)).toEqual(["booking_engine.updated"]);

    const other = await h.newAccount("Other Hotels");
    expectError(await h.get(path, { token: other.token }), 404, "resource_missing");
    const theirs = ok(await h.post("/v1/properties", { name: "Rival Inn", timezone: "Europe/Lisbon", currency: "EUR" }, { token: other.token }), 201);
    expectError(await h.patch(`/v1/properties/${theirs.id}/booking_engine`, { slug }, { token: other.token }), 422, "parameter_invalid", "slug");
    // Its own plans only: ours is not one of its property's.
    expectError(await h.patch(`/v1/properties/${theirs.id}/booking_engine`, { rate_plan_ids: [main.ratePlanId] }, { token: other.token }), 422, "parameter_invalid", "rate_plan_ids.0");
    // A read-only key reads, and may not write.
    const reader = await h.keyWith(["rooms:read"]);
    ok(await h.get(path, { token: reader }));
    expectError(await h.patch(path, { enabled: false }, { token: reader }), 403, "insufficient_scope");
  });
});

describe("a guest searches", { timeout: 60_000 }, () => {
  it("sees the rooms free for the whole stay with the rates sold directly, priced with the property's taxes", async () => {
    // A second plan the engine does not sell: never shown.
    const hidden = ok(await h.post("/v1/rate_plans", { property_id: hotel.propertyId, code: "CORP", name: "Corporate", room_type_ids: [main.roomTypeId] }, caller), 201);
    ok(await h.post(`/v1/rate_plans/${hidden.id}/rates`, { room_type_id: main.roomTypeId, from: hotel.today, to: d(60), amount: 9_000 }, caller));
    const res = ok(await search(slug, { check_in: d(10), check_out: d(12), adults: 2, children: 1 }));
    expect(res.stay).toEqual({ check_in: d(10), check_out: d(12), nights: 2, adults: 2, children: 1 });
    expect(res.hotel).toMatchObject({ name: "Test Inn", currency: "USD" });
    expect(res.rooms).toHaveLength(1);
    const [room] = res.rooms;
    expect(room).toMatchObject({ name: "Test room", max_occupancy: 3 });
    expect(room.offers.map((o: { name: string }) => o.name)).toEqual(["Test rate"]);
    // Two nights at 12,000 with 10 % on top: 24,000 net, 2,400 tax, 26,400 to pay.
    expect(room.offers[0].price).toMatchObject({ net: { amount: 24_000, currency: "USD" }, tax: { amount: 2_400, currency: "USD" }, gross: { amount: 26_400, currency: "USD" } });
    // Refundable until 24 hours before the arrival day begins, at the hotel.
    expect(room.offers[0].policy).toEqual({ refundable: true, free_cancellation_until: `${d(9)}T00:00`, no_show_fee: null });
    // Nothing of the staff's: no codes, no internal counts.
    expect(JSON.stringify(res)).not.toMatch(/"code"|"sold"|"held"/);
  });

  it("is refused for an unknown address, an engine switched off, bad dates and a party no room sleeps", async () => {
    expectError(await search("no-such-hotel", { check_in: d(10), check_out: d(12) }), 404, "resource_missing", "slug");
    expectError(await search("Not A Slug", { check_in: d(10), check_out: d(12) }), 404, "resource_missing", "slug");
    expectError(await search(slug, { check_in: d(-1), check_out: d(1) }), 400, "parameter_invalid", "check_in");
    expectError(await search(slug, { check_in: d(5), check_out: d(5) }), 400, "parameter_invalid", "check_out");
    expectError(await search(slug, { check_in: d(5), check_out: d(40) }), 400, "parameter_invalid", "check_out");
    expectError(await search(slug, { check_in: "2026-02-30", check_out: d(5) }), 400, "parameter_invalid", "check_in");
    expectError(await search(slug, { check_in: d(5), check_out: d(6), adults: 0 }), 400, "parameter_invalid", "adults");
    expectError(await search(slug, { check_in: d(5), check_out: d(6), adults: "two" }), 400, "parameter_invalid", "adults");
    expectError(await search(slug, { check_in: d(5), check_out: d(6), pets: 1 }), 400, "parameter_invalid", "pets");
    const crowd = ok(await search(slug, { check_in: d(5), check_out: d(6), adults: 3, children: 1 }));
    expect(crowd).toMatchObject({ rooms: [], notice: "party_too_large" });

    const off = await h.newAccount("Closed Hotels");
    const closed = await liveHotel(h, off.account.id);
    const t = await buildRoomType(h, { token: off.token }, closed.propertyId, closed.today);
    const closedSlug = `closed-${Date.now().toString(36)}`;
    ok(await h.patch(`/v1/properties/${closed.propertyId}/booking_engine`, { enabled: true, slug: closedSlug, rate_plan_ids: [t.ratePlanId] }, { token: off.token }));
    ok(await search(closedSlug, { check_in: closed.today, check_out: addDays(closed.today, 1) }));
    ok(await h.patch(`/v1/properties/${closed.propertyId}/booking_engine`, { enabled: false }, { token: off.token }));
    expectError(await search(closedSlug, { check_in: closed.today, check_out: addDays(closed.today, 1) }), 404, "resource_missing", "slug");
  });

  it("never shows a stay the rate restrictions refuse: minimum stay, closed to arrival or departure, stop-sell", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, amount: 8_000, days: 60 });
    ok(await h.patch(`/v1/properties/${hotel.propertyId}/booking_engine`, { rate_plan_ids: [main.ratePlanId, t.ratePlanId] }, caller));
    const offered = async (checkIn: IsoDate, checkOut: IsoDate) =>
      ok(await search(slug, { check_in: checkIn, check_out: checkOut, adults: 1 })).rooms.some((r: { offers: { rate_plan_id: string }[] }) => r.offers.some((o) => o.rate_plan_id === t.ratePlanId));
    expect(await offered(d(20), d(22))).toBe(true);
    const restrict = (from: IsoDate, to: IsoDate, what: Record<string, unknown>) => h.post(`/v1/rate_plans/${t.ratePlanId}/rates`, { room_type_id: t.roomTypeId, from, to, ...what }, caller);
    ok(await restrict(d(20), d(21), { min_stay: 3 }));
    expect(await offered(d(20), d(22))).toBe(false);
    expect(await offered(d(20), d(23))).toBe(true);
    ok(await restrict(d(25), d(26), { closed_to_arrival: true }));
    expect(await offered(d(25), d(27))).toBe(false);
    ok(await restrict(d(29), d(30), { closed_to_departure: true }));
    expect(await offered(d(27), d(29))).toBe(false);
    ok(await restrict(d(32), d(33), { stop_sell: true }));
    expect(await offered(d(31), d(34))).toBe(false);
    // A stay the inventory would refuse: every room of the type out of sale for a night.
    ok(await h.post("/v1/inventory/holds", { property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(40), to: d(41), rooms: 2 }, caller), 201);
    expect(await offered(d(39), d(42))).toBe(false);
    // Choosing it anyway (a stale page) is refused in the same words as the API's checks.
    expectError(await postJson(`/book-api/${slug}/sessions`, choice(t, d(20), d(22), { adults: "1" })), 409, "restriction_violated", "rate_plan_id");
    expectError(await postJson(`/book-api/${slug}/sessions`, choice(t, d(39), d(42), { adults: "1" })), 409, "no_availability", "room_type_id");
    expectError(await postJson(`/book-api/${slug}/sessions`, choice(t, d(20), d(23), { adults: "3" })), 422, "parameter_invalid", "adults");
    ok(await h.patch(`/v1/properties/${hotel.propertyId}/booking_engine`, { rate_plan_ids: [main.ratePlanId] }, caller));
    expectError(await postJson(`/book-api/${slug}/sessions`, choice(t, d(20), d(23), { adults: "1" })), 422, "parameter_invalid", "rate_plan_id");
  });
});

describe("a guest chooses and books", { timeout: 60_000 }, () => {
  it("holds the room while the form is filled, then books it through the reservations service, once however often sent", async () => {
    const before = await inventoryOf(h, caller, hotel.propertyId, main.roomTypeId, d(3), d(5));
    const token = await choose(main, d(3), d(5));
    const held = await inventoryOf(h, caller, hotel.propertyId, main.roomTypeId, d(3), d(5));
    for (const [date, n] of held) expect(n.held, date).toBe(before.get(date)!.held + 1);

    // The bot checks: a form sent at once, and one whose hidden field was filled.
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails(token)), 422, "parameter_invalid", "token");
    await age(token);
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails(token, { website: "http://spam.example" })), 422, "parameter_invalid", "website");
    // The guest's details as the API checks them.
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails(token, { guest: { first_name: "Inês", last_name: "Guerreiro", email: "not-an-email" } })), 422, "parameter_invalid", "guest.email");
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails(token, { guest: { first_name: " ", last_name: "Guerreiro", email: "ines@example.com" } })), 422, "parameter_invalid", "guest.first_name");
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails(token, { guest: { first_name: "Inês", last_name: "Guerreiro" } })), 422, "parameter_missing", "guest.email");
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails(token, { arrival_time: "25:00" })), 422, "parameter_invalid", "arrival_time");
    expectError(await postJson(`/book-api/${slug}/bookings`, guestDetails("x".repeat(43))), 404, "resource_missing", "token");
    expectError(await postJson(`/book-api/no-such-hotel/bookings`, guestDetails(token)), 404, "resource_missing", "slug");

    const first = await postJson(`/book-api/${slug}/bookings`, guestDetails(token));
    const booked = ok(first, 201);
    expect(booked.reference).toMatch(/^[0-9A-Z]{10}$/);
    expect(booked.confirmation_path).toBe(`/book/${slug}/confirmed?t=${encodeURIComponent(token)}`);
    const again = ok(await postJson(`/book-api/${slug}/bookings`, guestDetails(token)), 200);
    expect(again).toEqual({ ...booked, replayed: true });

    const rows = await h.db.select().from(reservations).where(and(eq(reservations.propertyId, hotel.propertyId), eq(reservations.checkIn, d(3))));
    expect(rows).toHaveLength(1);
    const reservation = ok(await h.get(`/v1/reservations/${rows[0].id}`, caller));
    expect(reservation.id.toUpperCase().endsWith(booked.reference)).toBe(true);
    expect(reservation).toMatchObject({
      status: "confirmed",
      source: "booking_engine",
      channel: null,
      check_in: d(3),
      check_out: d(5),
      adults: 2,
      children: 0,
      room_type_id: main.roomTypeId,
      rate_plan_id: main.ratePlanId,
      total: { amount: 24_000, currency: "USD" },
      guest: { first_name: "Inês", last_name: "Guerreiro", email: "ines@example.com" },
      notes: "Expected arrival: 18:30\nRequests: A quiet room, please.",
    });
    expect(reservation.price.gross).toEqual({ amount: 26_400, currency: "USD" });
    // The same events as any booking, and the guest's confirmation e-mail.
    expect(await eventsFor(h, h.main.account.id, "reservation.created", (o) => o.id === reservation.id)).toHaveLength(1);
    expect(await eventsFor(h, h.main.account.id, "guest.created", (o) => o.email === "ines@example.com")).toHaveLength(1);
    const mail = await h.db.select().from(mailOutbox).where(eq(mailOutbox.reservationId, reservation.id));
    expect(mail.map((m) => [m.kind, m.to])).toEqual([["confirmation", "ines@example.com"]]);
    // The hold became the sale: one more sold, none held for it any more.
    const after = await inventoryOf(h, caller, hotel.propertyId, main.roomTypeId, d(3), d(5));
    for (const [date, n] of after) expect({ sold: n.sold, held: n.held }, date).toEqual({ sold: before.get(date)!.sold + 1, held: before.get(date)!.held });
    // A release after the booking changes nothing.
    expect(ok(await postJson(`/book-api/${slug}/sessions/release`, { token }))).toEqual({ released: false });
  });

  it("a plain form choosing a room is answered with the details page, or back to the search saying why", async () => {
    const res = await postForm(`/book-api/${slug}/sessions`, { ...choice(main, d(6), d(7)), lang: "pt" });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get("location")!, "http://x");
    expect(location.pathname).toBe(`/book/${slug}/details`);
    expect(location.searchParams.get("lang")).toBe("pt");
    expect(location.searchParams.get("t")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Its room goes back on sale when the guest leaves the page.
    expect(ok(await postForm(`/book-api/${slug}/sessions/release`, { token: location.searchParams.get("t")! }))).toEqual({ released: true });
    expect(ok(await postForm(`/book-api/${slug}/sessions/release`, { token: location.searchParams.get("t")! }))).toEqual({ released: false });

    const refused = await postForm(`/book-api/${slug}/sessions`, { ...choice(main, d(-2), d(1)), lang: "de" });
    expect(refused.status).toBe(303);
    const back = new URL(refused.headers.get("location")!, "http://x");
    expect(back.pathname).toBe(`/book/${slug}`);
    expect(Object.fromEntries(back.searchParams)).toEqual({ check_in: d(-2), check_out: d(1), adults: "2", children: "0", lang: "de", problem: "unavailable" });
    expectError(await postForm(`/book-api/no-such-hotel/sessions`, choice(main, d(6), d(7))), 404, "resource_missing", "slug");
  });

  it("gives an abandoned form's room back once its time is up", async () => {
    const token = await choose(main, d(45), d(46));
    expect((await inventoryOf(h, caller, hotel.propertyId, main.roomTypeId, d(45), d(46))).get(d(45))!.held).toBe(1);
    await h.db.update(bookingSessions).set({ expiresAt: sql`now() - interval '1 second'` }).where(sql`${bookingSessions.holdId} is not null and ${bookingSessions.checkIn} = ${d(45)}`);
    ok(await search(slug, { check_in: d(45), check_out: d(46) }));
    expect((await inventoryOf(h, caller, hotel.propertyId, main.roomTypeId, d(45), d(46))).get(d(45))!.held).toBe(0);
    // The late form may still book, if a room is free.
    await age(token);
    ok(await postJson(`/book-api/${slug}/bookings`, guestDetails(token, { guest: { first_name: "Late", last_name: "Guest", email: "late@example.com" } })), 201);
  });

  it("counts each address: too many searches or bookings answer 429 with Retry-After", async () => {
    const address = freshAddress();
    // Sent together: more than the ten a second one address may search.
    const answers = await Promise.all(Array.from({ length: 15 }, () => search(slug, { check_in: d(10), check_out: d(11) }, { address })));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expectError(refused[0], 429, "too_many_requests");
    expect(Number(refused[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another address is not held back by it.
    ok(await search(slug, { check_in: d(10), check_out: d(11) }));
  });
});

describe.skipIf(!onPostgres)("guests racing on PostgreSQL (skipped on PGlite: one connection, nothing races)", { timeout: 60_000 }, () => {
  it("two guests choosing the last room: one holds it and books, the other is told it is gone", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, amount: 15_000, days: 60 });
    ok(await h.patch(`/v1/properties/${hotel.propertyId}/booking_engine`, { rate_plan_ids: [main.ratePlanId, t.ratePlanId] }, caller));
    const answers = await Promise.all(Array.from({ length: 6 }, () => postJson(`/book-api/${slug}/sessions`, choice(t, d(50), d(52), { adults: "1" }))));
    const won = answers.filter((a) => a.status === 201);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((a) => a.status !== 201)) expectError(lost, 409, "no_availability", "room_type_id");
    const token = won[0].json.token;
    await age(token);
    // The same form sent twice at the same moment: one booking.
    const sent = await Promise.all([postJson(`/book-api/${slug}/bookings`, guestDetails(token)), postJson(`/book-api/${slug}/bookings`, guestDetails(token))]);
    expect(sent.map((s) => s.status).sort()).toEqual([200, 201]);
    expect(sent[0].json.reference).toBe(sent[1].json.reference);
    const rows = await h.db.select().from(reservations).where(eq(reservations.roomTypeId, t.roomTypeId));
    expect(rows).toHaveLength(1);
    const nights = await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, d(50), d(52));
    for (const [date, n] of nights) expect({ sold: n.sold, held: n.held, available: n.available }, date).toEqual({ sold: 1, held: 0, available: 0 });
    // And the room is gone for the next guest.
    const next = ok(await search(slug, { check_in: d(50), check_out: d(52), adults: 1 }));
    expect(next.rooms.some((r: { offers: { rate_plan_id: string }[] }) => r.offers.some((o) => o.rate_plan_id === t.ratePlanId))).toBe(false);
  });
});
