import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { createUser, type StaffRole } from "@/server/auth/users";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { ok } from "../support/hotel";

// Issue 27 ("every change an event, audited"): setting a hotel up writes events like any other
// change. Each of property.created, room_type.created/updated, room.created/updated/retired and
// rate_plan.created/updated is written in the change's own transaction (the event row, the
// changed row and the trail's entry share one transaction id), its data.object is exactly what
// GET answers for the resource right after the change, a refused or no-op change writes none,
// and the dashboard's (tRPC) change writes the same event as /v1's.

let h: Harness;
let accountId: string;
const users: Partial<Record<StaffRole, { id: string; email: string }>> = {};

const caller = (role: StaffRole) => {
  const user = users[role]!;
  const session: StaffSession = { user: { id: user.id, accountId, role, name: role, email: user.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
  return createCaller({ db: h.db, session, livemode: true });
};

beforeAll(async () => {
  h = await startHarness();
  accountId = h.main.account.id;
  users.manager = await createUser({ db: h.db, input: { accountId, email: "manager@setup-events.example", password: "password-1", role: "manager" } });
}, 120_000);
afterAll(async () => h?.close());

type Stored = { type: string; object: Record<string, unknown>; property_id: string | null; tx: string };

/** The account's events of a type about one object, oldest first, with the 32-bit id of the transaction that wrote each. */
async function eventsAbout(type: string, id: string): Promise<Stored[]> {
  return rowsOf<Stored>(
    await h.db.execute(sql`
      select type, object, property_id, (xid::text::bigint & 4294967295)::text as tx
      from events where account_id = ${accountId} and type = ${type} and object->>'id' = ${id}
      order by created_at, id`),
  );
}

/** Every event of the account of the setup's types, counted: a refused or no-op change must leave it as it was. */
async function setupEventCount(): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await h.db.execute(sql`
      select count(*)::int as n from events where account_id = ${accountId}
      and type in ('property.created', 'room_type.created', 'room_type.updated', 'room.created', 'room.updated', 'room.retired', 'rate_plan.created', 'rate_plan.updated', 'rate.updated')`),
  );
  return Number(row.n);
}

/** The transaction that last wrote a row (its xmin), and that wrote the trail's newest entry of an action on it. */
async function writers(table: "properties" | "room_types" | "rooms" | "rate_plans", id: string, action: string) {
  const [row] = rowsOf<{ tx: string }>(await h.db.execute(sql`select xmin::text as tx from ${sql.identifier(table)} where id = ${id}`));
  const [entry] = rowsOf<{ tx: string; actor_type: string; actor_email: string | null }>(
    await h.db.execute(sql`
      select xmin::text as tx, actor_type, actor_email from audit_log
      where account_id = ${accountId} and object_id = ${id} and action = ${action}
      order by created_at desc, id desc limit 1`),
  );
  return { row: row.tx, entry };
}

/**
 * The one event of `type` about the object: data.object equal to GET's answer, the property it
 * belongs to, written by the transaction that wrote the row and the trail's entry.
 */
async function expectEvent(type: string, table: Parameters<typeof writers>[0], path: string, actorType: "api_key" | "staff" = "api_key") {
  const resource = ok(await h.get(path));
  const stored = await eventsAbout(type, resource.id);
  expect(stored, `${type} of ${resource.id}`).toHaveLength(1);
  expect(stored[0].object).toEqual(resource);
  expect(stored[0].property_id).toBe(resource.object === "property" ? resource.id : resource.property_id);
  const { row, entry } = await writers(table, resource.id, type);
  expect(entry, `the trail's ${type}`).toBeDefined();
  expect(entry.actor_type).toBe(actorType);
  expect(stored[0].tx).toBe(row);
  expect(stored[0].tx).toBe(entry.tx);
  return { resource, event: stored[0] };
}

describe("through /v1", () => {
  it("a property, its room types, rooms and rate plans each write their event, in the change's transaction, as GET answers them", async () => {
    // Refused: a time zone that does not exist creates nothing and writes no event.
    const before = await setupEventCount();
    expectError(await h.post("/v1/properties", { name: "Nowhere", timezone: "Europe/Atlantis", currency: "EUR" }), 422, "parameter_invalid");
    expect(await setupEventCount()).toBe(before);

    const property = ok(await h.post("/v1/properties", { name: "Hotel Aurora", timezone: "Europe/Madrid", currency: "EUR", check_in_time: "14:00" }), 201);
    const created = await expectEvent("property.created", "properties", `/v1/properties/${property.id}`);
    expect(created.resource).toMatchObject({ object: "property", name: "Hotel Aurora", check_in_time: "14:00", room_count: 0 });

    // Room types: created, changed; a PATCH of the values already there and a refused one write nothing.
    const suite = ok(await h.post("/v1/room_types", { property_id: property.id, code: "STE", name: "Suite", max_occupancy: 3, beds: "1 king" }), 201);
    await expectEvent("room_type.created", "room_types", `/v1/room_types/${suite.id}`);
    ok(await h.patch(`/v1/room_types/${suite.id}`, { name: "Junior suite", description: "Sea view" }));
    const changedType = await expectEvent("room_type.updated", "room_types", `/v1/room_types/${suite.id}`);
    expect(changedType.resource).toMatchObject({ name: "Junior suite", description: "Sea view", beds: "1 king", max_occupancy: 3 });
    const afterType = await setupEventCount();
    ok(await h.patch(`/v1/room_types/${suite.id}`, { name: "Junior suite" }));
    expectError(await h.patch(`/v1/room_types/${suite.id}`, { base_occupancy: 4 }), 422, "parameter_invalid");
    expect(await setupEventCount()).toBe(afterType);
    expect(await eventsAbout("room_type.updated", suite.id)).toHaveLength(1);

    // One room, then a range of 20: one room.created per room (20 for the range), each the room as
    // GET answers it, all 20 in the range's one transaction.
    const single = ok(await h.post("/v1/rooms", { room_type_id: suite.id, number: "100", floor: 1 }), 201);
    await expectEvent("room.created", "rooms", `/v1/rooms/${single.id}`);
    const range = ok(await h.post("/v1/rooms/range", { room_type_id: suite.id, from_number: "101", to_number: "120", floor: 1 }), 201);
    expect(range.data).toHaveLength(20);
    const rangeTx = new Set<string>();
    for (const room of range.data as { id: string }[]) {
      const { event } = await expectEvent("room.created", "rooms", `/v1/rooms/${room.id}`);
      rangeTx.add(event.tx);
    }
    expect(rangeTx.size).toBe(1);
    // A range that clashes with one number adds no room and writes no event.
    const afterRange = await setupEventCount();
    expectError(await h.post("/v1/rooms/range", { room_type_id: suite.id, from_number: "118", to_number: "125" }), 422, "parameter_invalid");
    expectError(await h.post("/v1/rooms", { room_type_id: suite.id, number: "105" }), 422, "parameter_invalid");
    expect(await setupEventCount()).toBe(afterRange);

    // A room changed, then retired; the same change again and a second retirement write nothing.
    const room = range.data[4] as { id: string; number: string };
    ok(await h.patch(`/v1/rooms/${room.id}`, { floor: 2 }));
    const moved = await expectEvent("room.updated", "rooms", `/v1/rooms/${room.id}`);
    expect(moved.resource).toMatchObject({ number: "105", floor: 2, retired_at: null });
    const afterUpdate = await setupEventCount();
    ok(await h.patch(`/v1/rooms/${room.id}`, { floor: 2 }));
    expectError(await h.patch(`/v1/rooms/${room.id}`, { number: "101" }), 422, "parameter_invalid");
    expect(await setupEventCount()).toBe(afterUpdate);
    ok(await h.post(`/v1/rooms/${room.id}/retire`, {}));
    const retired = await expectEvent("room.retired", "rooms", `/v1/rooms/${room.id}`);
    expect(retired.resource.retired_at).toEqual(expect.any(String));
    const afterRetire = await setupEventCount();
    expectError(await h.post(`/v1/rooms/${room.id}/retire`, {}), 409, "invalid_state_transition");
    expectError(await h.patch(`/v1/rooms/${room.id}`, { floor: 3 }), 409, "invalid_state_transition");
    expect(await setupEventCount()).toBe(afterRetire);
    expect(await eventsAbout("room.updated", room.id)).toHaveLength(1);

    // Rate plans: rate_plan.created / rate_plan.updated, and rate.updated with the same plan as
    // before (the specification's event for a plan's change), in the same transaction.
    const bar = ok(await h.post("/v1/rate_plans", { property_id: property.id, code: "BAR", name: "Best available", room_type_ids: [suite.id], meal_plan: "breakfast" }), 201);
    const plan = await expectEvent("rate_plan.created", "rate_plans", `/v1/rate_plans/${bar.id}`);
    const [rateUpdated] = await eventsAbout("rate.updated", bar.id);
    expect(rateUpdated.object).toEqual(plan.resource);
    expect(rateUpdated.tx).toBe(plan.event.tx);
    ok(await h.patch(`/v1/rate_plans/${bar.id}`, { refundable: false, meal_plan: "half_board" }));
    const changedPlan = await expectEvent("rate_plan.updated", "rate_plans", `/v1/rate_plans/${bar.id}`);
    expect(changedPlan.resource).toMatchObject({ refundable: false, meal_plan: "half_board" });
    const afterPlan = await setupEventCount();
    ok(await h.patch(`/v1/rate_plans/${bar.id}`, { refundable: false }));
    expectError(await h.patch(`/v1/rate_plans/${bar.id}`, { room_type_ids: ["rt_nope"] }), 422, "parameter_invalid");
    expectError(await h.post("/v1/rate_plans", { property_id: property.id, code: "BAR", name: "Again", room_type_ids: [suite.id] }), 422, "parameter_invalid");
    expect(await setupEventCount()).toBe(afterPlan);
  });
});

describe("through the dashboard", () => {
  it("the setup procedures write the same events as /v1, as GET answers the objects, on the staff member's trail", async () => {
    const manager = caller("manager");
    const property = await manager.setup.property.create({ name: "Pensão Lua", timezone: "Europe/Lisbon", currency: "EUR", check_in_time: "15:00", check_out_time: "11:00" });
    await expectEvent("property.created", "properties", `/v1/properties/${property.id}`, "staff");
    const type = await manager.setup.roomTypes.create({ property_id: property.id, code: "DBL", name: "Double", max_occupancy: 2 });
    await expectEvent("room_type.created", "room_types", `/v1/room_types/${type.id}`, "staff");
    await manager.setup.roomTypes.update({ id: type.id, beds: "1 double" });
    await expectEvent("room_type.updated", "room_types", `/v1/room_types/${type.id}`, "staff");
    const added = await manager.setup.rooms.createRange({ room_type_id: type.id, from_number: "1", to_number: "3" });
    for (const room of added) await expectEvent("room.created", "rooms", `/v1/rooms/${room.id}`, "staff");
    await manager.setup.rooms.update({ id: added[0].id, floor: 0 });
    await expectEvent("room.updated", "rooms", `/v1/rooms/${added[0].id}`, "staff");
    await manager.setup.rooms.retire({ id: added[2].id });
    await expectEvent("room.retired", "rooms", `/v1/rooms/${added[2].id}`, "staff");
    const plan = await manager.setup.ratePlans.create({ property_id: property.id, code: "BAR", name: "Best available", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 48, meal_plan: "room_only", active: true });
    await expectEvent("rate_plan.created", "rate_plans", `/v1/rate_plans/${plan.id}`, "staff");
    await manager.setup.ratePlans.update({ id: plan.id, cancellation_deadline_hours: 24 });
    await expectEvent("rate_plan.updated", "rate_plans", `/v1/rate_plans/${plan.id}`, "staff");

    // A no-op through the dashboard writes nothing either.
    const before = await setupEventCount();
    await manager.setup.roomTypes.update({ id: type.id, beds: "1 double" });
    await manager.setup.rooms.update({ id: added[0].id, floor: 0 });
    await manager.setup.ratePlans.update({ id: plan.id, cancellation_deadline_hours: 24 });
    expect(await setupEventCount()).toBe(before);
  });
});
