import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HousekeepingStatus } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, countEvents, eventsFor, insertProperty, inventoryOf, liveHotel, ok, sandboxProperty, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue #5: the housekeeping status machine (contract §6, v1.6), what out-of-order does to
// availability, check-out leaving the room dirty, and housekeeping assignments. All in the live
// environment of the harness account, on properties built through the API.

let h: Harness;
let accountId: string;
const caller: Caller = { token: "" };
let hotel: Awaited<ReturnType<typeof liveHotel>>;
/** Rooms for the transition matrix; made on demand. */
let matrix: RoomTypeSetup;
const d = (n: number): IsoDate => addDays(hotel.today, n);

const statuses: HousekeepingStatus[] = ["dirty", "clean", "inspected", "out-of-order"];
/** Contract §6: dirty → clean → inspected; clean|inspected → dirty; any → out-of-order; out-of-order → dirty. */
const allowed: [HousekeepingStatus, HousekeepingStatus][] = [
  ["dirty", "clean"],
  ["clean", "inspected"],
  ["clean", "dirty"],
  ["inspected", "dirty"],
  ["dirty", "out-of-order"],
  ["clean", "out-of-order"],
  ["inspected", "out-of-order"],
  ["out-of-order", "dirty"],
];
const refused = statuses.flatMap((from) => statuses.filter((to) => !allowed.some(([a, b]) => a === from && b === to)).map((to) => [from, to] as const));

type Room = { id: string; housekeeping_status: HousekeepingStatus; out_of_order_reason: string | null; out_of_order_until: string | null; occupied: boolean };

const hk = (roomId: string, body: Record<string, unknown>, as: Caller = caller) => h.post(`/v1/rooms/${roomId}/housekeeping`, body, as);
const roomOf = async (id: string) => ok(await h.get(`/v1/rooms/${id}`, caller)) as Room;
const statusEvents = (roomId: string) => eventsFor(h, accountId, "housekeeping.status_changed", (o) => o.id === roomId);
const inventoryEvents = (roomTypeId: string) => eventsFor(h, accountId, "inventory.updated", (o) => o.room_type_id === roomTypeId);

let roomNumber = 0;
/** A new room (rooms start clean), brought to `status` through the API. */
async function roomIn(status: HousekeepingStatus, roomTypeId = matrix.roomTypeId): Promise<string> {
  const room = ok(await h.post("/v1/rooms", { room_type_id: roomTypeId, number: `H${++roomNumber}`, floor: 2 }, caller), 201) as Room;
  expect(room.housekeeping_status).toBe("clean");
  if (status !== "clean") ok(await hk(room.id, status === "out-of-order" ? { status, reason: "Broken window" } : { status }));
  expect((await roomOf(room.id)).housekeeping_status).toBe(status);
  return room.id;
}

beforeAll(async () => {
  h = await startHarness();
  accountId = h.main.account.id;
  caller.token = h.main.token;
  hotel = await liveHotel(h, accountId);
  matrix = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 0, days: 10 });
});
afterAll(async () => h?.close());

describe("POST /v1/rooms/{id}/housekeeping: the status machine", () => {
  for (const [from, to] of allowed) {
    it(`${from} → ${to} is allowed, with housekeeping.status_changed carrying previous_status`, async () => {
      const id = await roomIn(from);
      const before = (await statusEvents(id)).length;
      const body = to === "out-of-order" ? { status: to, reason: "Water damage", until: d(3) } : { status: to };
      const room = ok(await hk(id, body)) as Room;
      expect(room).toMatchObject({ id, object: "room", housekeeping_status: to });
      if (to === "out-of-order") expect(room).toMatchObject({ out_of_order_reason: "Water damage", out_of_order_until: d(3) });
      else expect(room).toMatchObject({ out_of_order_reason: null, out_of_order_until: null });
      expect(await roomOf(id)).toEqual(room);
      const events = await statusEvents(id);
      expect(events).toHaveLength(before + 1);
      expect(events.at(-1)!.object).toEqual({ ...room, previous_status: from });
    });
  }

  for (const [from, to] of refused) {
    it(`${from} → ${to} is refused with 409 invalid_state_transition and changes nothing`, async () => {
      const id = await roomIn(from);
      const before = await roomOf(id);
      const events = await countEvents(h, accountId);
      const body = to === "out-of-order" ? { status: to, reason: "Again" } : { status: to };
      const error = expectError(await hk(id, body), 409, "invalid_state_transition", "status");
      expect(error.message).toContain(from);
      expect(await roomOf(id)).toEqual(before);
      expect(await countEvents(h, accountId)).toBe(events);
    });
  }

  it("out-of-order needs a reason (422 parameter_missing); until must be a date after today", async () => {
    for (const from of ["dirty", "clean", "inspected"] as const) {
      const id = await roomIn(from);
      expectError(await hk(id, { status: "out-of-order" }), 422, "parameter_missing", "reason");
      expectError(await hk(id, { status: "out-of-order", until: d(2) }), 422, "parameter_missing", "reason");
      expectError(await hk(id, { status: "out-of-order", reason: "   " }), 422, "parameter_invalid", "reason");
      expectError(await hk(id, { status: "out-of-order", reason: "Leak", until: d(0) }), 422, "parameter_invalid", "until");
      expectError(await hk(id, { status: "out-of-order", reason: "Leak", until: d(-1) }), 422, "parameter_invalid", "until");
      expectError(await hk(id, { status: "out-of-order", reason: "Leak", until: "2030-02-30" }), 422, "parameter_invalid", "until");
      expect((await roomOf(id)).housekeeping_status).toBe(from);
    }
  });

  it("reason and until belong to out-of-order only; status is required and one of the four", async () => {
    const id = await roomIn("dirty");
    const events = await countEvents(h, accountId);
    expectError(await hk(id, { status: "clean", reason: "Done" }), 422, "parameter_invalid", "reason");
    expectError(await hk(id, { status: "clean", until: d(2) }), 422, "parameter_invalid", "until");
    expectError(await hk(id, {}), 422, "parameter_missing", "status");
    expectError(await hk(id, { status: "sparkling" }), 422, "parameter_invalid", "status");
    expectError(await hk(id, { status: "clean", note: "x" }), 422, "parameter_unknown", "note");
    expect((await roomOf(id)).housekeeping_status).toBe("dirty");
    expect(await countEvents(h, accountId)).toBe(events);
  });

  it("404 for an unknown room, another account's or the sandbox's; 403 without rooms:write", async () => {
    const id = await roomIn("dirty");
    expectError(await hk("room_nope", { status: "clean" }), 404, "resource_missing", "id");
    const other = await h.newAccount("Other Hotels");
    expectError(await hk(id, { status: "clean" }, { token: other.token }), 404, "resource_missing", "id");
    expectError(await hk(id, { status: "clean" }, { token: h.main.token, sandbox: true }), 404, "resource_missing", "id");
    const sandboxRoom = ok(await h.get(`/v1/rooms?property_id=${(await sandboxProperty(h, h.main.token)).id}&housekeeping_status=dirty`, { token: h.main.token, sandbox: true })).data[0];
    expectError(await hk(sandboxRoom.id, { status: "clean" }), 404, "resource_missing", "id");
    const readOnly = await h.keyWith(["rooms:read"]);
    expectError(await hk(id, { status: "clean" }, { token: readOnly }), 403, "insufficient_scope");
    expect((await roomOf(id)).housekeeping_status).toBe("dirty");
  });
});

describe("out of order takes a room off sale", () => {
  let t: RoomTypeSetup;
  beforeAll(async () => {
    t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, days: 260 });
  });
  const setup = () => ({ propertyId: hotel.propertyId, roomTypeId: t.roomTypeId, ratePlanId: t.ratePlanId });
  const nights = async (from: number, to: number) => [...(await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, d(from), d(to)))].map(([date, n]) => ({ date, ...n }));
  const availableFor = async (checkIn: IsoDate, checkOut: IsoDate) => {
    const res = ok(await h.get(`/v1/availability?property_id=${hotel.propertyId}&check_in=${checkIn}&check_out=${checkOut}&adults=1&room_type_id=${t.roomTypeId}`, caller));
    return res.data[0].available as number;
  };

  it("from today until `until`, in the inventory, the availability and for sale; back to dirty restores it", async () => {
    expect((await nights(0, 6)).map((n) => [n.total, n.out_of_order, n.available])).toEqual(Array(6).fill([3, 0, 3]));
    ok(await h.post("/v1/reservations", bookingBody(setup(), d(0), d(2)), caller), 201);
    const id = t.roomIds[0];
    const inventoryBefore = (await inventoryEvents(t.roomTypeId)).length;

    const room = ok(await hk(id, { status: "out-of-order", reason: "Leak in the ceiling", until: d(3) })) as Room;
    expect(room).toMatchObject({ housekeeping_status: "out-of-order", out_of_order_reason: "Leak in the ceiling", out_of_order_until: d(3) });
    expect((await nights(0, 6)).map((n) => [n.date, n.sold, n.out_of_order, n.available])).toEqual([
      [d(0), 1, 1, 1],
      [d(1), 1, 1, 1],
      [d(2), 0, 1, 2],
      [d(3), 0, 0, 3],
      [d(4), 0, 0, 3],
      [d(5), 0, 0, 3],
    ]);
    expect(await availableFor(d(0), d(1))).toBe(1);
    expect(await availableFor(d(2), d(3))).toBe(2);
    expect(await availableFor(d(3), d(5))).toBe(3);
    expect(await availableFor(d(0), d(5))).toBe(1);
    let inventory = await inventoryEvents(t.roomTypeId);
    expect(inventory).toHaveLength(inventoryBefore + 1);
    expect(inventory.at(-1)!.object).toEqual({ object: "inventory_range", property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(0), to: d(3) });
    expect((await statusEvents(id)).at(-1)!.object).toMatchObject({ housekeeping_status: "out-of-order", previous_status: "clean", out_of_order_until: d(3) });
    const listed = ok(await h.get(`/v1/rooms?property_id=${hotel.propertyId}&housekeeping_status=out-of-order`, caller));
    expect(listed.data.map((r: Room) => r.id)).toContain(id);

    // The one room left tonight sells once; then the type is sold out.
    ok(await h.post("/v1/reservations", bookingBody(setup(), d(0), d(1)), caller), 201);
    expectError(await h.post("/v1/reservations", bookingBody(setup(), d(0), d(1)), caller), 409, "no_availability");

    const beforeBack = (await inventoryEvents(t.roomTypeId)).length;
    const back = ok(await hk(id, { status: "dirty" })) as Room;
    expect(back).toMatchObject({ housekeeping_status: "dirty", out_of_order_reason: null, out_of_order_until: null });
    expect((await nights(0, 4)).map((n) => [n.out_of_order, n.available])).toEqual([
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 3],
    ]);
    expect(await availableFor(d(0), d(1))).toBe(1);
    inventory = await inventoryEvents(t.roomTypeId);
    expect(inventory).toHaveLength(beforeBack + 1);
    expect(inventory.at(-1)!.object).toEqual({ object: "inventory_range", property_id: hotel.propertyId, room_type_id: t.roomTypeId, from: d(0), to: d(3) });
    expect((await statusEvents(id)).at(-1)!.object).toMatchObject({ housekeeping_status: "dirty", previous_status: "out-of-order" });
    ok(await h.post("/v1/reservations", bookingBody(setup(), d(0), d(1)), caller), 201);
  });

  it("without `until`, until further notice: nights not yet counted take it into account too", async () => {
    const id = t.roomIds[1];
    expect((await nights(10, 12)).map((n) => n.out_of_order)).toEqual([0, 0]);
    ok(await hk(id, { status: "out-of-order", reason: "Renovation" }));
    expect((await inventoryEvents(t.roomTypeId)).at(-1)!.object).toMatchObject({ from: d(0), to: null });
    // Nights 10–11 existed already; 200–201 are first read now.
    expect((await nights(10, 12)).map((n) => [n.out_of_order, n.available])).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect((await nights(200, 202)).map((n) => [n.out_of_order, n.available])).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(await availableFor(d(200), d(201))).toBe(2);
    ok(await hk(id, { status: "dirty" }));
    expect((await inventoryEvents(t.roomTypeId)).at(-1)!.object).toMatchObject({ from: d(0), to: null });
    for (const [from, to] of [[10, 12], [200, 202], [230, 231]]) {
      expect((await nights(from, to)).every((n) => n.out_of_order === 0 && n.available === 3)).toBe(true);
    }
  });
});

describe.skipIf(!onPostgres)("racing status changes of one room (PostgreSQL, real concurrency)", () => {
  it("six concurrent clean → out-of-order: one wins, the others are 409, the room is counted out of order once", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, days: 5 });
    const id = t.roomIds[0];
    await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, d(0), d(3));
    const inventoryBefore = (await inventoryEvents(t.roomTypeId)).length;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => hk(id, { status: "out-of-order", reason: `Report ${i}` })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expectError(a, 409, "invalid_state_transition", "status");
    const nights = await inventoryOf(h, caller, hotel.propertyId, t.roomTypeId, d(0), d(3));
    expect([...nights.values()].map((n) => [n.out_of_order, n.available])).toEqual([
      [1, 1],
      [1, 1],
      [1, 1],
    ]);
    expect(await statusEvents(id)).toHaveLength(1);
    expect(await inventoryEvents(t.roomTypeId)).toHaveLength(inventoryBefore + 1);
  });
});

describe("check-out makes the room dirty", () => {
  it("the guest's room goes from clean to dirty, vacated, with housekeeping.status_changed; it can be cleaned again", async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 1, amount: 8_000, days: 5 });
    const [id] = t.roomIds;
    const r = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: t.roomTypeId, ratePlanId: t.ratePlanId }, d(0), d(1)), caller), 201);
    expect(ok(await h.post(`/v1/reservations/${r.id}/check_in`, {}, caller)).room_id).toBe(id);
    expect(await roomOf(id)).toMatchObject({ housekeeping_status: "clean", occupied: true });
    ok(await h.post("/v1/payments", { reservation_id: r.id, payment_method: { type: "cash" } }, caller), 201);
    const before = (await statusEvents(id)).length;
    ok(await h.post(`/v1/reservations/${r.id}/check_out`, {}, caller));
    const room = await roomOf(id);
    expect(room).toMatchObject({ housekeeping_status: "dirty", occupied: false });
    const events = await statusEvents(id);
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)!.object).toEqual({ ...room, previous_status: "clean" });
    expect(ok(await hk(id, { status: "clean" })).housekeeping_status).toBe("clean");
  });
});

describe("housekeeping assignments", () => {
  type Assignment = { id: string; property_id: string; room_id: string; date: string; assignee: string; notes: string | null; status: string };
  let rooms: string[];
  let otherProperty: { id: string; roomId: string };
  const a: Record<string, Assignment> = {};
  const create = (body: Record<string, unknown>, as: Caller = caller) => h.post("/v1/housekeeping/assignments", body, as);
  const patch = (id: string, body: Record<string, unknown>, as: Caller = caller) => h.patch(`/v1/housekeeping/assignments/${id}`, body, as);
  const list = async (query: string, as: Caller = caller) => ok(await h.get(`/v1/housekeeping/assignments?${query}`, as));
  const idsOf = (page: { data: Assignment[] }) => page.data.map((x) => x.id);

  beforeAll(async () => {
    const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 3, days: 5 });
    rooms = t.roomIds;
    const second = await insertProperty(h, accountId, { name: "Annex" });
    const annex = await buildRoomType(h, caller, second.id, hotel.today, { rooms: 1, days: 5 });
    otherProperty = { id: second.id, roomId: annex.roomIds[0] };
    const body = (propertyId: string, roomId: string, date: IsoDate, assignee: string, notes?: string) => ({ property_id: propertyId, room_id: roomId, date, assignee, ...(notes ? { notes } : {}) });
    a.one = ok(await create(body(hotel.propertyId, rooms[0], d(1), "maria", "Deep clean")), 201);
    a.two = ok(await create(body(hotel.propertyId, rooms[1], d(1), "li")), 201);
    a.three = ok(await create(body(hotel.propertyId, rooms[2], d(2), "maria")), 201);
    a.four = ok(await create(body(otherProperty.id, otherProperty.roomId, d(1), "maria")), 201);
  });

  it("creates an assignment: 201, pending, with its fields", async () => {
    expect(a.one).toEqual({
      id: expect.stringMatching(/^hka_/),
      object: "housekeeping_assignment",
      livemode: true,
      property_id: hotel.propertyId,
      room_id: rooms[0],
      date: d(1),
      assignee: "maria",
      notes: "Deep clean",
      status: "pending",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(a.two.notes).toBeNull();
  });

  it("refuses a room of another property (422), unknown objects (404) and malformed bodies (422)", async () => {
    const valid = { property_id: hotel.propertyId, room_id: rooms[0], date: d(1), assignee: "maria" };
    expectError(await create({ ...valid, room_id: otherProperty.roomId }), 422, "parameter_invalid", "room_id");
    expectError(await create({ ...valid, room_id: "room_nope" }), 404, "resource_missing", "room_id");
    expectError(await create({ ...valid, property_id: "prop_nope" }), 404, "resource_missing", "property_id");
    expectError(await create({ property_id: hotel.propertyId, room_id: rooms[0], date: d(1) }), 422, "parameter_missing", "assignee");
    expectError(await create({ ...valid, date: "tomorrow" }), 422, "parameter_invalid", "date");
    expectError(await create({ ...valid, status: "done" }), 422, "parameter_unknown", "status");
    const sandbox = await sandboxProperty(h, h.main.token);
    const sandboxRoom = ok(await h.get(`/v1/rooms?property_id=${sandbox.id}&limit=1`, { token: h.main.token, sandbox: true })).data[0];
    expectError(await create({ ...valid, room_id: sandboxRoom.id }), 404, "resource_missing", "room_id");
    expectError(await create({ ...valid, property_id: sandbox.id }), 404, "resource_missing", "property_id");
    expectError(await create(valid, { token: await h.keyWith(["rooms:read"]) }), 403, "insufficient_scope");
  });

  it("lists newest first, with filters date, assignee, status and property_id, and cursors that keep them", async () => {
    expect(idsOf(await list(""))).toEqual([a.four.id, a.three.id, a.two.id, a.one.id]);
    expect(idsOf(await list(`date=${d(1)}`))).toEqual([a.four.id, a.two.id, a.one.id]);
    expect(idsOf(await list(`date=${d(1)}&property_id=${hotel.propertyId}`))).toEqual([a.two.id, a.one.id]);
    expect(idsOf(await list("assignee=maria"))).toEqual([a.four.id, a.three.id, a.one.id]);
    expect(idsOf(await list(`assignee=maria&date=${d(2)}`))).toEqual([a.three.id]);
    expect(idsOf(await list(`property_id=${otherProperty.id}`))).toEqual([a.four.id]);
    expect(idsOf(await list("status=pending"))).toHaveLength(4);
    expect(idsOf(await list("status=done"))).toEqual([]);
    expect(idsOf(await list(`date=${d(3)}`))).toEqual([]);
    const first = await list("assignee=maria&limit=2");
    expect(idsOf(first)).toEqual([a.four.id, a.three.id]);
    expect(first.has_more).toBe(true);
    const second = await list(`assignee=maria&limit=2&cursor=${first.next_cursor}`);
    expect(idsOf(second)).toEqual([a.one.id]);
    expect(second.has_more).toBe(false);
    expectError(await h.get(`/v1/housekeeping/assignments?assignee=li&limit=2&cursor=${first.next_cursor}`, caller), 400, "invalid_cursor", "cursor");
    expectError(await h.get("/v1/housekeeping/assignments?status=finished", caller), 400, "parameter_invalid", "status");
    expectError(await h.get("/v1/housekeeping/assignments?date=someday", caller), 400, "parameter_invalid", "date");
  });

  it("moves status forward only: pending → in_progress → done; backwards is 409", async () => {
    const started = ok(await patch(a.one.id, { status: "in_progress" }));
    expect(started).toMatchObject({ id: a.one.id, status: "in_progress", assignee: "maria", notes: "Deep clean", date: d(1) });
    expectError(await patch(a.one.id, { status: "pending" }), 409, "invalid_state_transition", "status");
    const done = ok(await patch(a.one.id, { status: "done" }));
    expect(done.status).toBe("done");
    for (const status of ["pending", "in_progress"]) expectError(await patch(a.one.id, { status }), 409, "invalid_state_transition", "status");
    expectError(await patch(a.one.id, { status: "finished" }), 422, "parameter_invalid", "status");
    expect(idsOf(await list("status=done"))).toEqual([a.one.id]);
    expect(idsOf(await list("status=pending&assignee=maria"))).toEqual([a.four.id, a.three.id]);
    // Straight from pending to done is forward too.
    expect(ok(await patch(a.four.id, { status: "done" })).status).toBe("done");
    expectError(await patch(a.four.id, { status: "pending" }), 409, "invalid_state_transition", "status");
  });

  it("reassigns, reschedules and clears notes", async () => {
    const moved = ok(await patch(a.three.id, { assignee: "li", date: d(3), notes: "Check the minibar" }));
    expect(moved).toMatchObject({ assignee: "li", date: d(3), notes: "Check the minibar", status: "pending" });
    expect(ok(await patch(a.three.id, { notes: null })).notes).toBeNull();
    expect(idsOf(await list(`assignee=li&date=${d(3)}`))).toEqual([a.three.id]);
    expectError(await patch(a.three.id, { room_id: rooms[0] }), 422, "parameter_unknown", "room_id");
    expectError(await patch(a.three.id, { assignee: "" }), 422, "parameter_invalid", "assignee");
  });

  it("another account, or the sandbox, cannot see or change them (404)", async () => {
    const other = await h.newAccount("Other Hotels");
    const theirs: Caller = { token: other.token };
    expect(idsOf(await list("", theirs))).toEqual([]);
    expect(idsOf(await list("", { token: h.main.token, sandbox: true }))).toEqual([]);
    for (const as of [theirs, { token: h.main.token, sandbox: true }]) {
      expectError(await patch(a.two.id, { status: "in_progress" }, as), 404, "resource_missing", "id");
      expectError(await h.del(`/v1/housekeeping/assignments/${a.two.id}`, as), 404, "resource_missing", "id");
    }
    expectError(await create({ property_id: hotel.propertyId, room_id: rooms[0], date: d(1), assignee: "x" }, theirs), 404, "resource_missing", "property_id");
    expect(idsOf(await list(`date=${d(1)}&property_id=${hotel.propertyId}`))).toContain(a.two.id);
  });

  it("deletes: 200 {id, object, deleted}; then gone from lists, and 404", async () => {
    const res = ok(await h.del(`/v1/housekeeping/assignments/${a.two.id}`, caller));
    expect(res).toEqual({ id: a.two.id, object: "housekeeping_assignment", deleted: true });
    expect(idsOf(await list(""))).not.toContain(a.two.id);
    expectError(await h.del(`/v1/housekeeping/assignments/${a.two.id}`, caller), 404, "resource_missing", "id");
    expectError(await patch(a.two.id, { status: "done" }), 404, "resource_missing", "id");
  });
});
