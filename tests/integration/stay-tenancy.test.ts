import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { expectError, type HttpAnswer } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, insertProperty, ok, sandboxProperty, type Caller } from "../support/hotel";

// Another account's objects, and the other environment's, do not exist on any route of issue
// #3: 404 on direct access (never 403), absent from lists, left unchanged. Every operation with an
// id in its path is also tried with another account's ids in tenancy-every-operation.test.ts,
// generated from the OpenAPI document; the list below adds ids inside bodies and queries, and the
// account's own objects of the other environment.

let h: Harness;

type World = {
  name: string;
  caller: Caller;
  today: IsoDate;
  propertyId: string;
  roomTypeId: string;
  roomId: string;
  ratePlanId: string;
  holdId: string;
  reservationId: string;
  arrivingTodayId: string;
  folioId: string;
  eventId: string;
};
const worlds: Record<"mineLive" | "mineSandbox" | "otherLive" | "otherSandbox", World> = {} as never;

async function makeWorld(name: string, caller: Caller, property: { id: string; timezone: string }): Promise<World> {
  const today = todayIn(property.timezone);
  const setup = await buildRoomType(h, caller, property.id, today, { rooms: 2, days: 20 });
  const hold = ok(await h.post("/v1/inventory/holds", { property_id: property.id, room_type_id: setup.roomTypeId, from: addDays(today, 10), to: addDays(today, 11), rooms: 1 }, caller), 201);
  const body = (from: number, to: number) => bookingBody({ propertyId: property.id, ...setup }, addDays(today, from), addDays(today, to), { guest: { first_name: name, last_name: "Owner", email: `${name.toLowerCase()}@example.com` } });
  const reservation = ok(await h.post("/v1/reservations", body(3, 5), caller), 201);
  const arriving = ok(await h.post("/v1/reservations", body(0, 1), caller), 201);
  const [event] = ok(await h.get("/v1/events?limit=1", caller)).data;
  return {
    name,
    caller,
    today,
    propertyId: property.id,
    roomTypeId: setup.roomTypeId,
    roomId: setup.roomIds[0],
    ratePlanId: setup.ratePlanId,
    holdId: hold.id,
    reservationId: reservation.id,
    arrivingTodayId: arriving.id,
    folioId: reservation.folio_id,
    eventId: event.id,
  };
}

/** What the owner sees of its world: must not change whatever strangers try. */
async function ownerView(w: World) {
  const get = async (path: string) => ok(await h.get(path, w.caller));
  return {
    roomType: await get(`/v1/room_types/${w.roomTypeId}`),
    room: await get(`/v1/rooms/${w.roomId}`),
    plan: await get(`/v1/rate_plans/${w.ratePlanId}`),
    rates: await get(`/v1/rate_plans/${w.ratePlanId}/rates?from=${w.today}&to=${addDays(w.today, 20)}`),
    holds: await get(`/v1/inventory/holds?room_type_id=${w.roomTypeId}`),
    inventory: await get(`/v1/inventory?property_id=${w.propertyId}&from=${w.today}&to=${addDays(w.today, 12)}`),
    reservation: await get(`/v1/reservations/${w.reservationId}`),
    arriving: await get(`/v1/reservations/${w.arrivingTodayId}`),
    folio: await get(`/v1/reservations/${w.reservationId}/folio`),
    event: await get(`/v1/events/${w.eventId}`),
  };
}

beforeAll(async () => {
  h = await startHarness();
  const other = await h.newAccount("Other Hotels");
  const mine = { token: h.main.token };
  const theirs = { token: other.token };
  const mineLive = await insertProperty(h, h.main.account.id, { timezone: "Asia/Tokyo" });
  const otherLive = await insertProperty(h, other.account.id, { timezone: "America/Los_Angeles" });
  worlds.mineLive = await makeWorld("MineLive", mine, mineLive);
  worlds.mineSandbox = await makeWorld("MineSandbox", { ...mine, sandbox: true }, await sandboxProperty(h, h.main.token));
  worlds.otherLive = await makeWorld("OtherLive", theirs, otherLive);
  worlds.otherSandbox = await makeWorld("OtherSandbox", { ...theirs, sandbox: true }, await sandboxProperty(h, other.token));
});
afterAll(async () => h?.close());

/** The requests a stranger might try on `w`'s objects, and the param each 404 names. */
function directAccess(w: World, own: World): [string, () => Promise<HttpAnswer>, string][] {
  const c = own.caller;
  const range = `from=${own.today}&to=${addDays(own.today, 2)}`;
  return [
    ["GET room type", () => h.get(`/v1/room_types/${w.roomTypeId}`, c), "id"],
    ["PATCH room type", () => h.patch(`/v1/room_types/${w.roomTypeId}`, { name: "Taken" }, c), "id"],
    ["GET room", () => h.get(`/v1/rooms/${w.roomId}`, c), "id"],
    ["PATCH room", () => h.patch(`/v1/rooms/${w.roomId}`, { floor: 9 }, c), "id"],
    ["GET rate plan", () => h.get(`/v1/rate_plans/${w.ratePlanId}`, c), "id"],
    ["PATCH rate plan", () => h.patch(`/v1/rate_plans/${w.ratePlanId}`, { active: false }, c), "id"],
    ["GET rates", () => h.get(`/v1/rate_plans/${w.ratePlanId}/rates?${range}`, c), "id"],
    ["POST rates", () => h.post(`/v1/rate_plans/${w.ratePlanId}/rates`, { room_type_id: w.roomTypeId, from: own.today, to: addDays(own.today, 2), amount: 1, stop_sell: true }, c), "id"],
    ["DELETE hold", () => h.del(`/v1/inventory/holds/${w.holdId}`, c), "id"],
    ["GET inventory", () => h.get(`/v1/inventory?property_id=${w.propertyId}&${range}`, c), "property_id"],
    ["GET availability", () => h.get(`/v1/availability?property_id=${w.propertyId}&check_in=${addDays(own.today, 1)}&check_out=${addDays(own.today, 2)}&adults=1`, c), "property_id"],
    ["POST hold", () => h.post("/v1/inventory/holds", { property_id: w.propertyId, room_type_id: w.roomTypeId, from: addDays(own.today, 1), to: addDays(own.today, 2), rooms: 1 }, c), "property_id"],
    ["GET reservation", () => h.get(`/v1/reservations/${w.reservationId}`, c), "id"],
    ["PATCH reservation", () => h.patch(`/v1/reservations/${w.reservationId}`, { notes: "mine now" }, c), "id"],
    ["cancel", () => h.post(`/v1/reservations/${w.reservationId}/cancel`, {}, c), "id"],
    ["check in", () => h.post(`/v1/reservations/${w.arrivingTodayId}/check_in`, {}, c), "id"],
    ["check out", () => h.post(`/v1/reservations/${w.reservationId}/check_out`, {}, c), "id"],
    ["no show", () => h.post(`/v1/reservations/${w.reservationId}/no_show`, {}, c), "id"],
    ["GET folio", () => h.get(`/v1/reservations/${w.reservationId}/folio`, c), "id"],
    ["POST charge", () => h.post(`/v1/folios/${w.folioId}/charges`, { description: "Sneaky", amount: -100_000 }, c), "id"],
    ["GET event", () => h.get(`/v1/events/${w.eventId}`, c), "id"],
    ["POST room type", () => h.post("/v1/room_types", { property_id: w.propertyId, code: "SNEAK", name: "Sneak", max_occupancy: 2 }, c), "property_id"],
    ["POST room", () => h.post("/v1/rooms", { room_type_id: w.roomTypeId, number: "SNEAK" }, c), "room_type_id"],
    ["POST rate plan", () => h.post("/v1/rate_plans", { property_id: w.propertyId, code: "SNEAK", name: "Sneak", room_type_ids: [w.roomTypeId] }, c), "property_id"],
    ["PATCH room into a foreign type", () => h.patch(`/v1/rooms/${own.roomId}`, { room_type_id: w.roomTypeId }, c), "room_type_id"],
    ["book at a foreign property", () => h.post("/v1/reservations", bookingBody({ propertyId: w.propertyId, roomTypeId: w.roomTypeId, ratePlanId: w.ratePlanId }, addDays(w.today, 1), addDays(w.today, 2)), c), "property_id"],
    ["book a foreign room type", () => h.post("/v1/reservations", bookingBody({ propertyId: own.propertyId, roomTypeId: w.roomTypeId, ratePlanId: own.ratePlanId }, addDays(own.today, 1), addDays(own.today, 2)), c), "room_type_id"],
    ["book a foreign rate plan", () => h.post("/v1/reservations", bookingBody({ propertyId: own.propertyId, roomTypeId: own.roomTypeId, ratePlanId: w.ratePlanId }, addDays(own.today, 1), addDays(own.today, 2)), c), "rate_plan_id"],
    ["check in to a foreign room", () => h.post(`/v1/reservations/${own.arrivingTodayId}/check_in`, { room_id: w.roomId }, c), "room_id"],
  ];
}

const viewers = ["mineLive", "mineSandbox"] as const;

describe.each(viewers)("seen from %s", (viewer) => {
  const foreignOf = () => (Object.keys(worlds) as (keyof typeof worlds)[]).filter((k) => k !== viewer).map((k) => worlds[k]);

  it("every route answers 404 resource_missing for the other worlds' objects, and changes nothing", async () => {
    const own = worlds[viewer];
    const before = await Promise.all(Object.values(worlds).map(ownerView));
    for (const w of foreignOf()) {
      for (const [what, attempt, param] of directAccess(w, own)) {
        const res = await attempt();
        expect(res.status, `${what} on ${w.name}: ${res.text}`).toBe(404);
        expectError(res, 404, "resource_missing", param);
      }
    }
    expect(await Promise.all(Object.values(worlds).map(ownerView))).toEqual(before);
  });

  it("a foreign object's 404 reads exactly like one that never existed (the own account's other environment adds where it is)", async () => {
    const own = worlds[viewer];
    const [here, there] = viewer === "mineLive" ? ["live", "sandbox"] : ["sandbox", "live"];
    const header = there === "sandbox" ? "`Service-Environment: sandbox`" : "`Service-Environment: live` (or no `Service-Environment` header)";
    const hint = ` in the ${here} environment. It exists in this account's ${there} environment: send ${header} to reach it.`;
    for (const w of foreignOf()) {
      const sameAccount = w === worlds.mineLive || w === worlds.mineSandbox;
      const shape = (res: HttpAnswer, id: string) => {
        const { request_id: _, ...rest } = res.json.error;
        const message = rest.message.replace(id, "<id>");
        if (sameAccount && id === w.reservationId) expect(message.endsWith(hint), message).toBe(true);
        return { status: res.status, ...rest, message: sameAccount ? message.replace(hint, "") : message };
      };
      const pairs: [string, string, (id: string) => Promise<HttpAnswer>][] = [
        [w.reservationId, "res_neverexisted0000000000", (id) => h.get(`/v1/reservations/${id}`, own.caller)],
        [w.roomTypeId, "rt_neverexisted00000000000", (id) => h.get(`/v1/room_types/${id}`, own.caller)],
        [w.propertyId, "prop_neverexisted000000000", (id) => h.get(`/v1/inventory?property_id=${id}&from=${own.today}&to=${addDays(own.today, 1)}`, own.caller)],
        [w.folioId, "fol_neverexisted0000000000", (id) => h.post(`/v1/folios/${id}/charges`, { description: "X", amount: 1 }, own.caller)],
      ];
      for (const [foreign, missing, request] of pairs) expect(shape(await request(foreign), foreign)).toEqual(shape(await request(missing), missing));
    }
  });

  it("lists leave the other worlds' objects out, and a foreign property filter finds nothing", async () => {
    const own = worlds[viewer];
    const listIds = async (path: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const sep = path.includes("?") ? "&" : "?";
        const page: { data: { id: string }[]; has_more: boolean; next_cursor: string | null } = ok(await h.get(`${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, own.caller));
        ids.push(...page.data.map((x: { id: string }) => x.id));
        cursor = page.has_more ? page.next_cursor : null;
      } while (cursor);
      return ids;
    };
    const lists = {
      room_types: await listIds("/v1/room_types"),
      rooms: await listIds("/v1/rooms"),
      rate_plans: await listIds("/v1/rate_plans"),
      holds: await listIds("/v1/inventory/holds"),
      reservations: await listIds("/v1/reservations"),
      events: await listIds("/v1/events"),
    };
    expect(lists.room_types).toContain(own.roomTypeId);
    expect(lists.rooms).toContain(own.roomId);
    expect(lists.rate_plans).toContain(own.ratePlanId);
    expect(lists.holds).toContain(own.holdId);
    expect(lists.reservations).toContain(own.reservationId);
    expect(lists.events).toContain(own.eventId);
    for (const w of foreignOf()) {
      expect(lists.room_types).not.toContain(w.roomTypeId);
      expect(lists.rooms).not.toContain(w.roomId);
      expect(lists.rate_plans).not.toContain(w.ratePlanId);
      expect(lists.holds).not.toContain(w.holdId);
      expect(lists.reservations).not.toContain(w.reservationId);
      expect(lists.reservations).not.toContain(w.arrivingTodayId);
      expect(lists.events).not.toContain(w.eventId);
      for (const path of ["/v1/room_types", "/v1/rooms", "/v1/rate_plans", "/v1/inventory/holds", "/v1/reservations"]) {
        expect(ok(await h.get(`${path}?property_id=${w.propertyId}`, own.caller)).data, `${path} of ${w.name}`).toEqual([]);
      }
    }
  });
});
