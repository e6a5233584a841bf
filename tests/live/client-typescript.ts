/**
 * The TypeScript client's live suite: `@innkeep/node` against a real, running production server,
 * the same scenarios as the Python, Go and PHP live suites (clients/live-tests.sh typescript). Runs
 * with Node's test runner (`npx tsx --test tests/live/client-typescript.ts`); every test is
 * skipped unless INNKEEP_LIVE_URL is set. The variables are those of clients/live-server.mjs.
 * The in-process checks of the same client (tests/integration/client-*.test.ts) run against a
 * harness with database access; these see only the HTTP answers, as an integrator does.
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Innkeep, { AuthenticationError, InvalidRequestError, NotFoundError, PermissionError, RateLimitError, SignatureVerificationError } from "@innkeep/node";
import { startDropProxy } from "../support/drop-proxy";

const url = process.env.INNKEEP_LIVE_URL ?? "";
const skip = url ? false : "INNKEEP_LIVE_URL is not set";
const key = () => process.env.INNKEEP_LIVE_API_KEY ?? "";
const unique = () => randomBytes(4).toString("hex");
const uuidV4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Hotel = { property: string; roomType: string; ratePlan: string };

/** The sandbox hotel the server seeds: its KING room type and BAR rate plan. */
async function sandboxHotel(client: Innkeep): Promise<Hotel> {
  const [property] = (await client.properties.list()).data;
  assert.ok(property, "no sandbox property");
  const roomTypes = await client.roomTypes.list({ property_id: property.id, limit: 100 }).toArray({ limit: 1000 });
  const ratePlans = await client.ratePlans.list({ property_id: property.id, limit: 100 }).toArray({ limit: 1000 });
  const roomType = roomTypes.find((r) => r.code === "KING")?.id;
  const ratePlan = ratePlans.find((r) => r.code === "BAR")?.id;
  assert.ok(roomType && ratePlan, "the sandbox hotel has no KING room type or BAR rate plan");
  return { property: property.id, roomType, ratePlan };
}

let nights = 0;
/** A stay with only the required fields, on a night of its own (after the other suites' nights). */
function booking(hotel: Hotel, email: string) {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const start = 360 + ++nights; // Python 3+, PHP 200+, Go 320+: rates are loaded about a year ahead
  return {
    property_id: hotel.property,
    guest: { first_name: "Ada", last_name: "Lovelace", ...(email ? { email } : {}) },
    check_in: day(start),
    check_out: day(start + 1),
    room_type_id: hotel.roomType,
    rate_plan_id: hotel.ratePlan,
    adults: 1,
  };
}

/** The reservations of the guests with an e-mail, as the API lists them. */
async function reservationsOf(client: Innkeep, email: string): Promise<string[]> {
  const ids: string[] = [];
  for (const guest of (await client.guests.list({ email })).data) {
    for await (const r of client.reservations.list({ guest_id: guest.id })) ids.push(r.id);
  }
  return ids;
}

const newGuest = (client: Innkeep, label: string) =>
  client.guests.create({ first_name: "Walk", last_name: label, email: `ts-walk-${label}-${unique()}@example.com` });

describe("@innkeep/node against the live server", { skip }, () => {
  it("books a stay, reads it back, cancels, and a replayed key books once", async () => {
    const client = new Innkeep({ apiKey: key(), baseUrl: url, environment: "sandbox" });
    const hotel = await sandboxHotel(client);
    const stay = await client.reservations.create(booking(hotel, `ts-${unique()}@example.com`));
    assert.equal(stay.status, "confirmed");
    assert.equal(stay.source, "api");
    assert.equal(client.lastResponse?.status, 201);
    assert.equal(client.lastResponse?.attempts, 1);
    assert.match(client.lastResponse?.idempotencyKey ?? "", uuidV4);
    assert.match(client.lastResponse?.requestId ?? "", /^req_/);
    assert.equal((await client.reservations.retrieve(stay.id)).id, stay.id);
    assert.equal((await client.reservations.cancel(stay.id)).status, "cancelled");

    const body = booking(hotel, `ts-replay-${unique()}@example.com`);
    const idempotencyKey = `ts-${unique()}`;
    const first = await client.reservations.create(body, { idempotencyKey });
    const second = await client.reservations.create(body, { idempotencyKey });
    assert.equal(second.id, first.id);
    assert.equal(client.lastResponse?.idempotentReplayed, true);
    assert.deepEqual(await reservationsOf(client, body.guest.email!), [first.id]);
  });

  it("walks more than three pages while rows are inserted: no duplicate, no gap", async () => {
    const client = new Innkeep({ apiKey: key(), baseUrl: url });
    for (let i = 0; i < 11; i++) await newGuest(client, `before${i}`);
    const before = (await client.guests.list({ limit: 100 }).toArray({ limit: 100_000 })).map((g) => g.id);
    const seen: string[] = [];
    for await (const guest of client.guests.list({ limit: 3 })) {
      seen.push(guest.id);
      await newGuest(client, "during"); // newer than every cursor: never met by the walk
    }
    assert.ok(seen.length > 9, `walked ${seen.length}`);
    assert.deepEqual(seen, before);
  });

  it("meets a real 429 and succeeds after its Retry-After", async () => {
    const client = new Innkeep({ apiKey: process.env.INNKEEP_LIVE_SLOW_KEY, baseUrl: url });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await client.guests.list();
    const started = Date.now();
    await client.guests.list();
    assert.equal(client.lastResponse?.status, 200);
    assert.equal(client.lastResponse?.attempts, 2);
    assert.ok(Date.now() - started >= 900, `retried after ${Date.now() - started} ms`);
    const refused = await client.guests.list(undefined, { maxRetries: 0 }).then(
      () => assert.fail("a second call within the second was answered"),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof RateLimitError);
    assert.equal(refused.code, "too_many_requests");
    assert.ok((refused.retryAfter ?? 0) >= 1);
  });

  it("survives a connection dropped after the server committed: exactly one reservation", async () => {
    const client = new Innkeep({ apiKey: key(), baseUrl: url, environment: "sandbox" });
    const proxy = await startDropProxy(url);
    try {
      const proxied = new Innkeep({ apiKey: key(), baseUrl: proxy.url, environment: "sandbox" });
      const body = booking(await sandboxHotel(client), `ts-drop-${unique()}@example.com`);
      proxy.dropNextAnswers(1);
      const stay = await proxied.reservations.create(body);
      assert.equal(proxy.dropped(), 1);
      assert.equal(proxied.lastResponse?.attempts, 2);
      assert.equal(proxied.lastResponse?.idempotentReplayed, true);
      assert.deepEqual(await reservationsOf(client, body.guest.email!), [stay.id]);
    } finally {
      await proxy.close();
    }
  });

  it("answers 401, 403, 404 and 422 as typed errors with a request id", async () => {
    const failure = (call: PromiseLike<unknown>) => Promise.resolve(call).then(() => assert.fail("answered"), (error: unknown) => error);
    const unauthenticated = await failure(new Innkeep({ apiKey: "hk_not_a_real_key", baseUrl: url }).guests.list());
    assert.ok(unauthenticated instanceof AuthenticationError);
    assert.match(unauthenticated.requestId ?? "", /^req_/);
    const client = new Innkeep({ apiKey: key(), baseUrl: url, environment: "sandbox" });
    const hotel = await sandboxHotel(client);
    const limited = new Innkeep({ apiKey: process.env.INNKEEP_LIVE_LIMITED_KEY, baseUrl: url, environment: "sandbox" });
    const forbidden = await failure(limited.reservations.create(booking(hotel, "ts-403@example.com")));
    assert.ok(forbidden instanceof PermissionError);
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.code, "insufficient_scope");
    const missing = await failure(client.reservations.retrieve("res_doesnotexist000000000000"));
    assert.ok(missing instanceof NotFoundError && missing instanceof InvalidRequestError);
    assert.equal(missing.code, "resource_missing");
    const invalid = await failure(client.reservations.create(booking(hotel, "")));
    assert.ok(invalid instanceof InvalidRequestError);
    assert.equal(invalid.status, 422);
    assert.equal(invalid.param, "guest.email");
  });

  it("verifies real deliveries, before and during a secret rotation", async () => {
    const client = new Innkeep({ apiKey: key(), baseUrl: url });
    const deliveries: { header: string; body: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        deliveries.push({ header: String(req.headers["service-signature"] ?? ""), body: Buffer.concat(chunks).toString("utf8") });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const endpoint = await client.webhookEndpoints.create({ url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ts`, enabled_events: ["guest.created"] });
    const deliveryFor = async (id: string) => {
      for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
        const found = deliveries.find((d) => d.body.includes(id));
        if (found) return found;
      }
      assert.fail(`no delivery for ${id}`);
    };
    try {
      const guest = await newGuest(client, "hooked");
      const delivery = await deliveryFor(guest.id);
      const event = Innkeep.webhooks.constructEvent(delivery.body, delivery.header, endpoint.secret!);
      assert.equal(event.type, "guest.created");
      assert.throws(
        () => Innkeep.webhooks.constructEvent(delivery.body.replace("hooked", "hacked"), delivery.header, endpoint.secret!),
        (error: unknown) => error instanceof SignatureVerificationError && error.reason === "no_matching_signature",
      );
      const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id, { expires_in_seconds: 3600 });
      const later = await deliveryFor((await newGuest(client, "rotated")).id);
      assert.equal(later.header.match(/v1=/g)?.length, 2);
      for (const secret of [endpoint.secret!, rotated.secret!]) Innkeep.webhooks.constructEvent(later.body, later.header, secret);
    } finally {
      await client.webhookEndpoints.del(endpoint.id).catch(() => undefined);
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});
