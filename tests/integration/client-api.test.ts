import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import Innkeep, { AuthenticationError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError } from "@innkeep/node";
import { guests, reservations } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { startDropProxy } from "../support/drop-proxy";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, liveHotel, type RoomTypeSetup } from "../support/hotel";

// The client library against the real server, as an integrator uses it: every call below is a
// real HTTP request to the app over a real database.

let h: Harness;
let innkeep: Innkeep;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let setup: RoomTypeSetup;

beforeAll(async () => {
  h = await startHarness();
  innkeep = new Innkeep({ apiKey: h.main.token, baseUrl: h.baseUrl });
  hotel = await liveHotel(h, h.main.account.id);
  setup = await buildRoomType(h, { token: h.main.token }, hotel.propertyId, hotel.today, { rooms: 5 });
});
afterAll(async () => h?.close());

const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
let stays = 0;
/** A booking with only the required fields, on its own nights. */
const booking = (email = `guest${++stays}@example.com`) => ({
  property_id: hotel.propertyId,
  guest: { first_name: "Ada", last_name: "Lovelace", email },
  check_in: addDays(hotel.today, stays),
  check_out: addDays(hotel.today, stays + 1),
  room_type_id: setup.roomTypeId,
  rate_plan_id: setup.ratePlanId,
  adults: 1,
});

/** Reservations stored for a guest e-mail, counted in the database itself. */
async function reservationsOf(email: string) {
  const rows = await h.db
    .select({ id: reservations.id })
    .from(reservations)
    .innerJoin(guests, eq(guests.id, reservations.guestId))
    .where(and(eq(reservations.accountId, h.main.account.id), eq(guests.email, email)));
  return rows.length;
}

describe("@innkeep/node against the real server", () => {
  it("books a stay with only the required fields, reads it back, takes a cash payment, cancels", async () => {
    const reservation = await innkeep.reservations.create(booking());
    expect(reservation).toMatchObject({ object: "reservation", status: "confirmed", children: 0, source: "api" });
    expect(innkeep.lastResponse).toMatchObject({ status: 201, attempts: 1, idempotentReplayed: false });
    expect(innkeep.lastResponse?.idempotencyKey).toMatch(uuidV4);
    expect(innkeep.lastResponse?.requestId).toMatch(/^req_/);
    expect(innkeep.lastResponse?.rateLimit.limit).toBeGreaterThan(0);

    const again = await innkeep.reservations.retrieve(reservation.id);
    expect(again.id).toBe(reservation.id);
    const page = await innkeep.reservations.list({ status: "confirmed", limit: 100 });
    expect(page.data.map((r) => r.id)).toContain(reservation.id);

    const payment = await innkeep.payments.create({ reservation_id: reservation.id, payment_method: { type: "cash" } });
    expect(payment).toMatchObject({ object: "payment", status: "succeeded" });
    const cancelled = await innkeep.reservations.cancel(reservation.id);
    expect(cancelled.status).toBe("cancelled");
  });

  it("a caller's own Idempotency-Key is sent, and a repeat is answered from the store", async () => {
    const body = booking();
    const first = await innkeep.reservations.create(body, { idempotencyKey: "my-key-1" });
    const second = await innkeep.reservations.create(body, { idempotencyKey: "my-key-1" });
    expect(second.id).toBe(first.id);
    expect(innkeep.lastResponse).toMatchObject({ idempotencyKey: "my-key-1", idempotentReplayed: true });
    expect(await reservationsOf(body.guest.email)).toBe(1);
  });

  it("walks a list of more than three pages while rows are inserted: no duplicate, no gap", async () => {
    const { token } = await h.newAccount("Walkers");
    const client = new Innkeep({ apiKey: token, baseUrl: h.baseUrl });
    const before: string[] = [];
    for (let i = 0; i < 11; i++) before.push((await client.guests.create({ first_name: "G", last_name: `${i}`, email: `walk${i}@example.com` })).id);

    const seen: string[] = [];
    let inserted = 0;
    for await (const guest of client.guests.list({ limit: 3 })) {
      seen.push(guest.id);
      // A new row after every item: newer than every cursor, so the walk never meets it.
      await client.guests.create({ first_name: "New", last_name: `${inserted}`, email: `new${inserted++}@example.com` });
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...before].reverse());
    expect(inserted).toBe(11);

    const capped = await client.guests.list({ limit: 2 }).toArray({ limit: 5 });
    expect(capped).toHaveLength(5);
    expect(new Set(capped.map((g) => g.id)).size).toBe(5);
  });

  it("a 429 from the real rate limiter is retried after Retry-After, then succeeds", async () => {
    const { token } = await h.newAccount("One a second", "scale", { perSecond: 1, perMinute: 1000 });
    const client = new Innkeep({ apiKey: token, baseUrl: h.baseUrl });
    await client.guests.list({ limit: 1 });
    const started = Date.now();
    const page = await client.guests.list({ limit: 1 });
    expect(page.object).toBe("list");
    expect(client.lastResponse).toMatchObject({ status: 200, attempts: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    // Without retries the 429 surfaces: of two calls in one second, one is refused.
    const impatient = new Innkeep({ apiKey: token, baseUrl: h.baseUrl, maxRetries: 0 });
    const results = await Promise.allSettled([impatient.guests.list({ limit: 1 }), impatient.guests.list({ limit: 1 })]);
    const error = results.find((r) => r.status === "rejected")?.reason;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((error as RateLimitError).code).toBe("too_many_requests");
  });

  it("a connection dropped after the server committed a POST is retried with the same key: exactly one reservation", async () => {
    const proxy = await startDropProxy(h.baseUrl);
    try {
      const sent: string[] = [];
      const client = new Innkeep({
        apiKey: h.main.token,
        baseUrl: proxy.url,
        fetch: (input, init) => {
          sent.push(new Headers(init?.headers).get("idempotency-key") ?? "");
          return fetch(input, init);
        },
      });
      const body = booking();
      proxy.dropNextAnswers(2);
      const reservation = await client.reservations.create(body);
      expect(proxy.dropped()).toBe(2);
      expect(sent).toHaveLength(3);
      expect(new Set(sent).size).toBe(1);
      expect(sent[0]).toMatch(uuidV4);
      expect(client.lastResponse).toMatchObject({ status: 201, attempts: 3, idempotentReplayed: true });
      expect(await reservationsOf(body.guest.email)).toBe(1);
      expect((await innkeep.reservations.retrieve(reservation.id)).id).toBe(reservation.id);
    } finally {
      await proxy.close();
    }
  });

  it("401, 403, 404 and 422 surface as typed errors with code, param and requestId", async () => {
    const fail = (p: PromiseLike<unknown>) => Promise.resolve(p).then(() => expect.fail("should have failed"), (e: unknown) => e as InvalidRequestError);

    const unauthenticated = await fail(new Innkeep({ apiKey: "hk_nope", baseUrl: h.baseUrl }).guests.list());
    expect(unauthenticated).toBeInstanceOf(AuthenticationError);
    expect(unauthenticated).toMatchObject({ status: 401, type: "authentication_error", code: "invalid_token" });
    expect(unauthenticated.requestId).toMatch(/^req_/);

    const readOnly = new Innkeep({ apiKey: await h.keyWith(["reservations:read"]), baseUrl: h.baseUrl });
    const forbidden = await fail(readOnly.guests.create({ first_name: "A", last_name: "B", email: "ab@example.com" }));
    expect(forbidden).toBeInstanceOf(PermissionError);
    expect(forbidden).toMatchObject({ status: 403, code: "insufficient_scope" });
    expect(forbidden.message).toContain("reservations:write");

    const missing = await fail(innkeep.reservations.retrieve("res_doesnotexist"));
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, code: "resource_missing", param: "id" });
    expect(missing.requestId).toMatch(/^req_/);

    const invalid = await fail(innkeep.reservations.create({ ...booking(), guest: { first_name: "A", last_name: "B", email: "not-an-email" } }));
    expect(invalid).toBeInstanceOf(InvalidRequestError);
    expect(invalid).not.toBeInstanceOf(NotFoundError);
    expect(invalid).toMatchObject({ status: 422, type: "invalid_request_error", code: "parameter_invalid", param: "guest.email" });
    expect(invalid.requestId).toMatch(/^req_/);
  });

  it("speaks to the sandbox with environment: 'sandbox'", async () => {
    const sandbox = new Innkeep({ apiKey: h.main.token, baseUrl: `${h.baseUrl}/v1`, environment: "sandbox" });
    const names = (await sandbox.properties.list().toArray({ limit: 100 })).map((p) => p.name);
    expect(names).toContain("Sandbox Harbor Hotel");
    const live = (await innkeep.properties.list().toArray({ limit: 100 })).map((p) => p.name);
    expect(live).not.toContain("Sandbox Harbor Hotel");
  });
});
