import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { scopes } from "@/server/auth/scopes";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, insertProperty, ok, type Caller } from "../support/hotel";
import { authorizeCode, exchangeCode, registerClient, staffSession } from "../support/oauth";

// Contract §3: an OAuth install granted one of two properties. The other property's objects
// answer 403 property_not_granted on direct access and appear in no list or report.

let h: Harness;
let app: Caller;
const key: Caller = { token: "" };

type World = {
  propertyId: string;
  today: IsoDate;
  roomTypeId: string;
  roomId: string;
  ratePlanId: string;
  holdId: string;
  reservationId: string;
  folioId: string;
  paymentId: string;
  refundId: string;
  assignmentId: string;
  guestEmail: string;
  guestId: string;
};
const worlds = {} as Record<"granted" | "other", World>;

async function makeWorld(name: string): Promise<World> {
  const property = await insertProperty(h, h.main.account.id, { name: `${name} Inn` });
  const today = todayIn(property.timezone);
  const setup = await buildRoomType(h, key, property.id, today, { rooms: 2, days: 20 });
  const hold = ok(await h.post("/v1/inventory/holds", { property_id: property.id, room_type_id: setup.roomTypeId, from: addDays(today, 10), to: addDays(today, 11), rooms: 1 }, key), 201);
  const guestEmail = `${name.toLowerCase()}@example.com`;
  const body = bookingBody({ propertyId: property.id, ...setup }, addDays(today, 3), addDays(today, 5), { guest: { first_name: name, last_name: "Guest", email: guestEmail } });
  const reservation = ok(await h.post("/v1/reservations", body, key), 201);
  const payment = ok(await h.post("/v1/payments", { reservation_id: reservation.id, payment_method: { type: "cash" }, amount: 5_000 }, key), 201);
  const refund = ok(await h.post("/v1/refunds", { payment_id: payment.id, amount: 1_000 }, key), 201);
  const assignment = ok(await h.post("/v1/housekeeping/assignments", { property_id: property.id, date: addDays(today, 1), room_id: setup.roomIds[0], assignee: name }, key), 201);
  return {
    propertyId: property.id,
    today,
    roomTypeId: setup.roomTypeId,
    roomId: setup.roomIds[0],
    ratePlanId: setup.ratePlanId,
    holdId: hold.id,
    reservationId: reservation.id,
    folioId: reservation.folio_id,
    paymentId: payment.id,
    refundId: refund.id,
    assignmentId: assignment.id,
    guestEmail,
    guestId: reservation.guest.id,
  };
}

beforeAll(async () => {
  h = await startHarness();
  key.token = h.main.token;
  worlds.granted = await makeWorld("Granted");
  worlds.other = await makeWorld("Other");
  const client = await registerClient(h);
  const owner = await staffSession(h, "owner");
  const code = await authorizeCode(h, { client, session: owner, propertyIds: [worlds.granted.propertyId], scope: scopes.join(" ") });
  const tokens = await exchangeCode(h, client, code);
  expect(tokens.status, tokens.text).toBe(200);
  app = { token: tokens.json.access_token };
}, 180_000);
afterAll(async () => h?.close());

/** Every list endpoint, with the filters it needs. */
function lists(w: World): [string, string][] {
  const range = `from=${w.today}&to=${addDays(w.today, 20)}`;
  return [
    ["properties", "/v1/properties?limit=100"],
    ["room types", "/v1/room_types?limit=100"],
    ["rooms", "/v1/rooms?limit=100"],
    ["rate plans", "/v1/rate_plans?limit=100"],
    ["holds", "/v1/inventory/holds?limit=100"],
    ["reservations", "/v1/reservations?limit=100"],
    ["payments", "/v1/payments?limit=100"],
    ["refunds", "/v1/refunds?limit=100"],
    ["housekeeping assignments", "/v1/housekeeping/assignments?limit=100"],
    ["events", "/v1/events?limit=100"],
    ["guests", "/v1/guests?limit=100"],
    ["inventory", `/v1/inventory?property_id=${w.propertyId}&${range}`],
  ];
}

/** Every id of `w` that a list could show. */
const idsOf = (w: World) => [w.propertyId, w.roomTypeId, w.roomId, w.ratePlanId, w.holdId, w.reservationId, w.paymentId, w.refundId, w.assignmentId];

describe("an install granted one of two properties", { timeout: 60_000 }, () => {
  it("sees the granted property's objects in every list, and none of the other's", async () => {
    for (const [what, path] of lists(worlds.granted)) {
      const res = await h.get(path, app);
      expect(res.status, `${what}: ${res.text}`).toBe(200);
      for (const id of idsOf(worlds.other)) expect(res.text, `${what} shows ${id}`).not.toContain(id);
      expect(res.text, `${what} shows the other guest`).not.toContain(worlds.other.guestEmail);
      // The API key (all properties) does see the other property's objects in the same lists.
      const all = await h.get(path.replace(worlds.granted.propertyId, worlds.other.propertyId), key);
      if (!path.startsWith("/v1/inventory?")) expect(idsOf(worlds.other).some((id) => all.text.includes(id)) || all.text.includes(worlds.other.guestEmail), `${what} via the key`).toBe(true);
    }
    const props = ok(await h.get("/v1/properties", app));
    expect(props.data.map((p: { id: string }) => p.id)).toEqual([worlds.granted.propertyId]);
    const reservations = ok(await h.get("/v1/reservations", app));
    expect(reservations.data.map((r: { id: string }) => r.id)).toEqual([worlds.granted.reservationId]);
  });

  it("events of the other property are left out", async () => {
    const mine = ok(await h.get("/v1/events?limit=100", app)).data as { data: { object: Record<string, unknown> } }[];
    const everything = ok(await h.get("/v1/events?limit=100", key)).data as unknown[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.length).toBeLessThan(everything.length);
    expect(JSON.stringify(mine)).not.toContain(worlds.other.propertyId);
  });

  it("answers 403 property_not_granted on direct access to the other property's objects", async () => {
    const w = worlds.other;
    const own = worlds.granted;
    const range = `from=${w.today}&to=${addDays(w.today, 5)}`;
    const attempts: [string, () => ReturnType<Harness["get"]>][] = [
      ["GET property", () => h.get(`/v1/properties/${w.propertyId}`, app)],
      ["GET room type", () => h.get(`/v1/room_types/${w.roomTypeId}`, app)],
      ["PATCH room type", () => h.patch(`/v1/room_types/${w.roomTypeId}`, { name: "Taken" }, app)],
      ["GET room", () => h.get(`/v1/rooms/${w.roomId}`, app)],
      ["GET rate plan", () => h.get(`/v1/rate_plans/${w.ratePlanId}`, app)],
      ["GET rates", () => h.get(`/v1/rate_plans/${w.ratePlanId}/rates?${range}`, app)],
      ["DELETE hold", () => h.del(`/v1/inventory/holds/${w.holdId}`, app)],
      ["GET inventory", () => h.get(`/v1/inventory?property_id=${w.propertyId}&${range}`, app)],
      ["GET availability", () => h.get(`/v1/availability?property_id=${w.propertyId}&check_in=${addDays(w.today, 1)}&check_out=${addDays(w.today, 2)}&adults=1`, app)],
      ["GET reservation", () => h.get(`/v1/reservations/${w.reservationId}`, app)],
      ["cancel reservation", () => h.post(`/v1/reservations/${w.reservationId}/cancel`, {}, app)],
      ["GET folio", () => h.get(`/v1/reservations/${w.reservationId}/folio`, app)],
      ["GET payment", () => h.get(`/v1/payments/${w.paymentId}`, app)],
      ["GET refund", () => h.get(`/v1/refunds/${w.refundId}`, app)],
      ["GET guest who stayed only there", () => h.get(`/v1/guests/${w.guestId}`, app)],
      ["GET that guest's preferences", () => h.get(`/v1/guests/${w.guestId}/preferences`, app)],
      ["PATCH that guest", () => h.patch(`/v1/guests/${w.guestId}`, { first_name: "Taken" }, app)],
      ["PATCH assignment", () => h.patch(`/v1/housekeeping/assignments/${w.assignmentId}`, { assignee: "x" }, app)],
      ["book at the other property", () => h.post("/v1/reservations", bookingBody({ propertyId: w.propertyId, roomTypeId: w.roomTypeId, ratePlanId: w.ratePlanId }, addDays(w.today, 1), addDays(w.today, 2)), app)],
      ["create a room type there", () => h.post("/v1/room_types", { property_id: w.propertyId, code: "SNEAK", name: "Sneak", max_occupancy: 2 }, app)],
      ["occupancy report", () => h.get(`/v1/reports/occupancy?property_id=${w.propertyId}&${range}`, app)],
      ["revenue report", () => h.get(`/v1/reports/revenue?property_id=${w.propertyId}&${range}`, app)],
      ["production report", () => h.get(`/v1/reports/production?property_id=${w.propertyId}&${range}`, app)],
    ];
    for (const [what, attempt] of attempts) {
      const res = await attempt();
      expect(res.status, `${what}: ${res.text}`).toBe(403);
      expectError(res, 403, "property_not_granted");
    }
    // The other property's reservation is untouched.
    expect(ok(await h.get(`/v1/reservations/${w.reservationId}`, key)).status).not.toBe("cancelled");
    // And the granted property works on the same routes.
    expect((await h.get(`/v1/reports/occupancy?property_id=${own.propertyId}&from=${own.today}&to=${addDays(own.today, 5)}`, app)).status).toBe(200);
    expect((await h.get(`/v1/reservations/${own.reservationId}`, app)).status).toBe(200);
  });
});
