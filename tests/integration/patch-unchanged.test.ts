import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { auditLog, events } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok } from "../support/hotel";
import { startReceiver, type Receiver } from "../support/webhooks";

// Issue 26, point 4: a PATCH that sends nothing, or only the values already there, changes
// nothing: the same object back (200, the same updated_at), no event, no audit entry. Every
// PATCH endpoint of /v1, each also with a real change to show the same request can change.

let h: Harness;
let receiver: Receiver;
let hotel: Awaited<ReturnType<typeof liveHotel>>;
let setup: { propertyId: string; roomTypeId: string; ratePlanId: string; roomIds: string[] };
beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  hotel = await liveHotel(h, h.main.account.id);
  setup = { propertyId: hotel.propertyId, ...(await buildRoomType(h, { token: h.main.token }, hotel.propertyId, hotel.today, { rooms: 2 })) };
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

const eventCount = async () =>
  Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(events).where(eq(events.accountId, h.main.account.id)))[0].n);
const auditCount = async () =>
  Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(and(eq(auditLog.accountId, h.main.account.id))))[0].n);

/** PATCH {} and PATCH <same values> answer the object as it was, and leave no event; `change` still changes it. */
async function expectUnchanged(path: string, same: Record<string, unknown>, change: Record<string, unknown>, created?: Record<string, unknown>) {
  // An object with no GET of its own (housekeeping assignments) is compared with its creation's answer.
  const before: Record<string, unknown> = created ?? ok(await h.get(path));
  const events0 = await eventCount();
  // Time passes between the read and the PATCH, so a write would show in updated_at.
  await new Promise((r) => setTimeout(r, 5));
  for (const body of [{}, same]) {
    const res = await h.patch(path, body);
    expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(200);
    expect(res.json, `${path} ${JSON.stringify(body)}`).toEqual(before);
  }
  if (!created) expect(ok(await h.get(path))).toEqual(before);
  expect(await eventCount()).toBe(events0);
  const changed = ok(await h.patch(path, change));
  expect(changed).not.toEqual(before);
  if (before.updated_at) expect(changed.updated_at > String(before.updated_at)).toBe(true);
}

it("reservations", async () => {
  const r = ok(await h.post("/v1/reservations", bookingBody(setup, addDays(hotel.today, 3), addDays(hotel.today, 5), { notes: "Late arrival", metadata: { crm: "42" } })), 201);
  await expectUnchanged(
    `/v1/reservations/${r.id}`,
    { check_in: r.check_in, check_out: r.check_out, adults: r.adults, notes: "Late arrival", metadata: { crm: "42" }, guest: { first_name: "Ada" } },
    { notes: "Early arrival" },
  );
});

it("rate plans", async () => {
  const plan = ok(await h.get(`/v1/rate_plans/${setup.ratePlanId}`));
  await expectUnchanged(`/v1/rate_plans/${plan.id}`, { name: plan.name, room_type_ids: plan.room_type_ids, refundable: plan.refundable }, { name: "Renamed plan" });
});

it("room types and rooms", async () => {
  const type = ok(await h.get(`/v1/room_types/${setup.roomTypeId}`));
  await expectUnchanged(`/v1/room_types/${type.id}`, { name: type.name, max_occupancy: type.max_occupancy, amenities: type.amenities }, { name: "Renamed type" });
  const room = ok(await h.get(`/v1/rooms/${setup.roomIds[0]}`));
  await expectUnchanged(`/v1/rooms/${room.id}`, { number: room.number, room_type_id: room.room_type_id }, { number: `${room.number}A` });
});

it("properties", async () => {
  const property = ok(await h.get(`/v1/properties/${setup.propertyId}`));
  await expectUnchanged(`/v1/properties/${property.id}`, { name: property.name, timezone: property.timezone }, { name: "Renamed Inn" });
});

it("guests and their preferences", async () => {
  const guest = ok(await h.post("/v1/guests", { first_name: "Grace", last_name: "Hopper", email: "grace@example.com" }), 201);
  await expectUnchanged(`/v1/guests/${guest.id}`, { first_name: "Grace", email: "grace@example.com" }, { phone: "+1 555 0100" });
  ok(await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["latex"], room: { quiet: true }, loyalty: {} }));
  await expectUnchanged(`/v1/guests/${guest.id}/preferences`, { allergies: ["latex"], room: { quiet: true } }, { room: { floor: "high" } });
});

it("housekeeping assignments", async () => {
  const a = ok(await h.post("/v1/housekeeping/assignments", { property_id: setup.propertyId, date: addDays(hotel.today, 1), room_id: setup.roomIds[1], assignee: "Ana" }), 201);
  await expectUnchanged(`/v1/housekeeping/assignments/${a.id}`, { assignee: "Ana", date: a.date }, { assignee: "Bea" }, a);
});

it("webhook endpoints", async () => {
  const e = ok(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/hooks`, enabled_events: ["reservation.created"], description: "CRM" }), 201);
  await expectUnchanged(`/v1/webhook_endpoints/${e.id}`, { url: e.url, enabled_events: ["reservation.created"], description: "CRM" }, { description: "CRM sync" });
});

it("the dashboard's edits of the same objects leave no audit entry when nothing changes", async () => {
  const staff = createCaller({
    db: h.db,
    session: { user: { id: "usr_patch", accountId: h.main.account.id, role: "owner", name: "Owner", email: "owner@test.example" }, expires: new Date(Date.now() + 3_600_000).toISOString() },
    livemode: true,
  });
  const entries0 = await auditCount();
  const property = ok(await h.get(`/v1/properties/${setup.propertyId}`));
  await staff.setup.property.update({ id: property.id, name: property.name });
  await staff.setup.roomTypes.update({ id: setup.roomTypeId });
  expect(await auditCount()).toBe(entries0);
  await staff.setup.property.update({ id: property.id, name: "Audited Inn" });
  expect(await auditCount()).toBe(entries0 + 1);
});
