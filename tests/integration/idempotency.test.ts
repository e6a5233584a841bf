import { and, count, eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { guests, idempotencyKeys, payments, reservations } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { expectError, expectStandardHeaders } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, inventoryOf, liveHotel, ok } from "../support/hotel";

// Idempotency-Key on POST (contract §5): at most once per account, environment and key.

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

let n = 0;
const guest = () => ({ first_name: "Idem", last_name: `Potent${++n}`, email: `idem${n}@example.com` });
const withKey = (key: string, extra: Record<string, string> = {}) => ({ headers: { "idempotency-key": key, ...extra } });
const guestsWithEmail = async (email: string) => Number((await h.db.select({ n: count() }).from(guests).where(eq(guests.emailKey, email)))[0].n);
const guestCount = async () => Number((await h.db.select({ n: count() }).from(guests))[0].n);

describe("replay", () => {
  it("a retry returns the stored status and body, marked Idempotent-Replayed", async () => {
    const body = guest();
    const first = await h.post("/v1/guests", body, withKey("replay-1"));
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await h.post("/v1/guests", body, withKey("replay-1"));
    expect(second.status).toBe(201);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expectStandardHeaders(second);
    expect(second.headers.get("service-request-id")).not.toBe(first.headers.get("service-request-id"));
    expect(await guestsWithEmail(body.email)).toBe(1);
  });

  it("the same body written differently (key order, white space) is the same body", async () => {
    const body = guest();
    const first = await h.post("/v1/guests", body, withKey("reordered"));
    expect(first.status).toBe(201);
    const reordered = `{ "email": ${JSON.stringify(body.email)},\n  "last_name": ${JSON.stringify(body.last_name)}, "first_name": ${JSON.stringify(body.first_name)} }`;
    const second = await h.request("POST", "/v1/guests", { rawBody: reordered, headers: { "content-type": "application/json", "idempotency-key": "reordered" } });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.text).toBe(first.text);
    expect(await guestsWithEmail(body.email)).toBe(1);
  });

  it("the same key with a different body is idempotency_key_reused (422)", async () => {
    const body = guest();
    expect((await h.post("/v1/guests", body, withKey("reused"))).status).toBe(201);
    const changed = { ...body, email: "someone.else@example.com" };
    const res = await h.post("/v1/guests", changed, withKey("reused"));
    expectError(res, 422, "idempotency_key_reused", "Idempotency-Key");
    expect(res.json.error.type).toBe("idempotency_error");
    expect(await guestsWithEmail(changed.email)).toBe(0);
    // A field added is a different body too.
    expectError(await h.post("/v1/guests", { ...body, phone: "+1 555 0100" }, withKey("reused")), 422, "idempotency_key_reused");
  });

  it("a refused body (422) is not stored: the key works again with the body fixed", async () => {
    const body = guest();
    const { last_name: _omitted, ...incomplete } = body;
    expectError(await h.post("/v1/guests", incomplete, withKey("fix-me")), 422, "parameter_missing", "last_name");
    expect(await h.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "fix-me"))).toEqual([]);
    const fixed = await h.post("/v1/guests", body, withKey("fix-me"));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
    const again = await h.post("/v1/guests", body, withKey("fix-me"));
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.json.id).toBe(fixed.json.id);
  });

  it("a duplicate e-mail (422) is not stored either", async () => {
    const body = guest();
    expect((await h.post("/v1/guests", body)).status).toBe(201);
    expectError(await h.post("/v1/guests", body, withKey("dup-email")), 422, "parameter_invalid", "email");
    expectError(await h.post("/v1/guests", body, withKey("dup-email")), 422, "parameter_invalid", "email");
    expect(await h.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, "dup-email"))).toEqual([]);
  });
});

describe("scope: account + environment + key", () => {
  it("the same key in the other environment, or another account, is another request", async () => {
    const body = guest();
    const live = await h.post("/v1/guests", body, withKey("shared-key"));
    const sandbox = await h.post("/v1/guests", body, { ...withKey("shared-key"), sandbox: true });
    const other = await h.newAccount("Other");
    const theirs = await h.post("/v1/guests", body, { ...withKey("shared-key"), token: other.token });
    for (const res of [live, sandbox, theirs]) {
      expect(res.status).toBe(201);
      expect(res.headers.get("idempotent-replayed")).toBeNull();
    }
    expect(new Set([live.json.id, sandbox.json.id, theirs.json.id]).size).toBe(3);
    expect(sandbox.json.livemode).toBe(false);
    expect(await guestsWithEmail(body.email)).toBe(3);
  });
});

describe("the key itself", () => {
  it("must be 1 to 255 printable ASCII characters (400, param Idempotency-Key)", async () => {
    const before = await guestCount();
    for (const key of ["", "k".repeat(256), "clé", "tab\there"]) {
      const res = await h.post("/v1/guests", guest(), withKey(key));
      expectError(res, 400, "parameter_invalid", "Idempotency-Key");
    }
    expect(await guestCount()).toBe(before);
    expect((await h.post("/v1/guests", guest(), withKey("k".repeat(255)))).status).toBe(201);
    expect((await h.post("/v1/guests", guest(), withKey(" !~"))).status).toBe(201);
  });
});

describe("concurrency", () => {
  it("20 concurrent POSTs with one key create exactly one guest", async () => {
    const body = guest();
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.post("/v1/guests", body, withKey("stampede"))));
    expect(await guestsWithEmail(body.email)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    const fresh = created.filter((a) => a.headers.get("idempotent-replayed") === null);
    expect(fresh).toHaveLength(1);
    for (const a of created) expect(a.json.id).toBe(fresh[0].json.id);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 409, "idempotency_key_in_use", "Idempotency-Key");
    // Once settled, every retry is a replay of the one answer.
    const retry = await h.post("/v1/guests", body, withKey("stampede"));
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.json.id).toBe(fresh[0].json.id);
  });

  /**
   * Another process's claim on a key, as the `idempotency_keys` row it leaves. Its fingerprint is
   * the one the server itself stored for the same body, sent by another account.
   */
  async function claim(key: string, body: Record<string, string>, lockedAt: Date) {
    const other = await h.newAccount("Fingerprint Probe");
    expect((await h.post("/v1/guests", body, { token: other.token, headers: { "idempotency-key": `probe-${key}` } })).status).toBe(201);
    const [probe] = await h.db
      .select({ fingerprint: idempotencyKeys.fingerprint })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, other.account.id), eq(idempotencyKeys.key, `probe-${key}`)));
    await h.db.insert(idempotencyKeys).values({
      accountId: h.main.account.id,
      livemode: true,
      key,
      method: "POST",
      path: "/v1/guests",
      fingerprint: probe.fingerprint,
      state: "in_flight",
      lockedAt,
    });
  }
  /** Guests with this e-mail in the main account (the probe's account has its own). */
  const mainGuestsWithEmail = async (email: string) =>
    Number((await h.db.select({ n: count() }).from(guests).where(and(eq(guests.emailKey, email), eq(guests.accountId, h.main.account.id))))[0].n);

  it("while the first request is in flight, a retry is idempotency_key_in_use (409)", async () => {
    const body = guest();
    await claim("in-flight", body, new Date());
    const res = await h.post("/v1/guests", body, withKey("in-flight"));
    expectError(res, 409, "idempotency_key_in_use", "Idempotency-Key");
    expect(res.json.error.type).toBe("idempotency_error");
    expect(await mainGuestsWithEmail(body.email)).toBe(0);
    // A different body is still "reused", in flight or not.
    expectError(await h.post("/v1/guests", guest(), withKey("in-flight")), 422, "idempotency_key_reused");
  });

  it("a claim left committed without its answer (by the version that stored them apart) is never run again", async () => {
    const body = guest();
    await claim("abandoned", body, new Date(Date.now() - 10 * 60 * 1000));
    expectError(await h.post("/v1/guests", body, withKey("abandoned")), 409, "idempotency_key_in_use", "Idempotency-Key");
    expect(await mainGuestsWithEmail(body.email)).toBe(0);
  });

  it("20 concurrent bookings with one key make exactly one reservation, and every answer is that one or 'in use'", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const setup = { propertyId: hotel.propertyId, ...(await buildRoomType(h, { token: h.main.token }, hotel.propertyId, hotel.today, { rooms: 30 })) };
    const body = bookingBody(setup, addDays(hotel.today, 2), addDays(hotel.today, 4));
    const answers = await Promise.all(Array.from({ length: 20 }, () => h.post("/v1/reservations", body, withKey("stampede-booking"))));
    const booked = await h.db.select().from(reservations).where(eq(reservations.propertyId, hotel.propertyId));
    expect(booked).toHaveLength(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.filter((a) => a.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    for (const a of created) expect(a.json.id).toBe(booked[0].id);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 409, "idempotency_key_in_use", "Idempotency-Key");
    const inventory = await inventoryOf(h, { token: h.main.token }, hotel.propertyId, setup.roomTypeId, addDays(hotel.today, 2), addDays(hotel.today, 4));
    for (const night of inventory.values()) expect(night.sold).toBe(1);
  });

  // PGlite has one connection: a request's transaction holds it, so nothing else runs meanwhile.
  it.skipIf(!onPostgres)("a request held past the old five-minute mark is still the only one: a retry meanwhile is 409, never a second run", async () => {
    const hotel = await liveHotel(h, h.main.account.id);
    const caller = { token: h.main.token };
    const setup = { propertyId: hotel.propertyId, ...(await buildRoomType(h, caller, hotel.propertyId, hotel.today)) };
    const booking = ok(await h.post("/v1/reservations", bookingBody(setup, addDays(hotel.today, 1), addDays(hotel.today, 2)), caller), 201);
    const payment = { reservation_id: booking.id, amount: 2_500, payment_method: { type: "cash" } };

    // Another session holds the folio's row, so the first payment stops inside its work.
    const locker = postgres(h.databaseUrl!, { max: 2, onnotice: () => {} });
    let release!: () => void;
    const locked = new Promise<void>((resolveLocked) => {
      void locker.begin(async (s) => {
        await s`select id from folios where id = ${booking.folio_id} for update`;
        resolveLocked();
        await new Promise<void>((r) => (release = r));
      });
    });
    await locked;
    try {
      const first = h.post("/v1/payments", payment, withKey("slow-payment"));
      for (let i = 0; ; i++) {
        const [{ n }] = await locker<{ n: number }[]>`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
        if (n > 0) break;
        if (i > 200) throw new Error("the first payment never reached the folio's lock");
        await new Promise((r) => setTimeout(r, 25));
      }
      // Six minutes later by the server's clock, the retry still finds the first in flight.
      vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 6 * 60 * 1000 });
      try {
        expectError(await h.post("/v1/payments", payment, withKey("slow-payment")), 409, "idempotency_key_in_use", "Idempotency-Key");
      } finally {
        vi.useRealTimers();
      }
      release();
      const done = await first;
      expect(done.status, done.text).toBe(201);
      const retry = await h.post("/v1/payments", payment, withKey("slow-payment"));
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      expect(retry.json.id).toBe(done.json.id);
      expect(await h.db.select().from(payments).where(eq(payments.reservationId, booking.id))).toHaveLength(1);
    } finally {
      release?.();
      await locker.end();
    }
  });

  it("a key older than 24 hours is forgotten", async () => {
    await h.db.insert(idempotencyKeys).values({
      accountId: h.main.account.id,
      livemode: true,
      key: "yesterday",
      method: "POST",
      path: "/v1/guests",
      fingerprint: "another body",
      state: "completed",
      responseStatus: 201,
      responseBody: "{}",
      createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000),
    });
    const res = await h.post("/v1/guests", guest(), withKey("yesterday"));
    expect(res.status).toBe(201);
    expect(res.headers.get("idempotent-replayed")).toBeNull();
  });
});
