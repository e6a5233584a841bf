import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, auditLog, guests, reservations } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { createGuest } from "@/server/guests/guests";
import { createCaller } from "@/server/trpc/routers/_app";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller } from "../support/hotel";
import { authorizeCode, exchangeCode, registerClient, staffSession } from "../support/oauth";

// Issue 26, point 5: every change made through /v1 is on the audit trail the dashboard shows,
// written in the change's own transaction by the API key (its id and name) or by the OAuth app
// (its client and the staff member who installed it), with the object before and after; a change
// refused, or rolled back after its entry was written, leaves no entry.

let h: Harness;
const ownerEmail = "owner@audit-everywhere.example";
/** The dashboard's trail of one object, as an owner reads it: newest first. */
const trail = async (objectType: string, objectId: string) =>
  (
    await createCaller({
      db: h.db,
      session: { user: { id: "usr_trailreader", accountId: h.main.account.id, role: "owner", name: "Owner", email: ownerEmail }, expires: new Date(Date.now() + 3_600_000).toISOString() },
      livemode: true,
    }).audit.list({ object_type: objectType, object_id: objectId })
  ).data;
const rowsOf = (objectId: string) => h.db.select().from(auditLog).where(and(eq(auditLog.accountId, h.main.account.id), eq(auditLog.objectId, objectId)));

/**
 * What staff must never read (e2e/staff-words.spec.ts): an id, an ISO timestamp, an enum value,
 * JSON, minor units. The developer console's objects (endpoints) are exempt there, as here.
 */
const staffFaults = /\b[a-z]{2,}(?:_[a-z]+)*_[A-Za-z0-9]{10,}\b|\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\b[a-z]+(?:_[a-z]+)+\b|[{[]\s*"[^"]*"\s*:|minor units?/;

type Who = { caller: Caller; actor: Record<string, unknown>; words: string; propertyId: string; today: string };
const callers: Record<"API key" | "OAuth app", Who> = {} as never;

beforeAll(async () => {
  h = await startHarness();
  await h.db.update(apiKeys).set({ name: "Channel sync" }).where(eq(apiKeys.id, h.main.keyId));
  const keyHotel = await liveHotel(h, h.main.account.id);
  const appHotel = await liveHotel(h, h.main.account.id);
  callers["API key"] = {
    caller: { token: h.main.token },
    actor: { type: "api_key", id: h.main.keyId, email: null, name: "the API key “Channel sync”" },
    words: "the API key “Channel sync”",
    ...keyHotel,
  };
  // The app is installed by a manager, for the second hotel only, with every scope it asks for.
  const client = await registerClient(h);
  const manager = await staffSession(h, "manager");
  const code = await authorizeCode(h, {
    client,
    session: manager,
    propertyIds: [appHotel.propertyId],
    scope: "reservations:read reservations:write rooms:read rooms:write payments:read payments:write webhooks:manage",
  });
  const token = ok(await exchangeCode(h, client, code)).access_token as string;
  callers["OAuth app"] = {
    caller: { token },
    actor: { type: "oauth_app", id: client.id, email: manager.user.email, name: "the app “Channel Manager”" },
    words: "the app “Channel Manager”",
    ...appHotel,
  };
});
afterAll(async () => h?.close());

describe.each(["API key", "OAuth app"] as const)("changes through /v1 by an %s", (who) => {
  let w: Who;
  let setup: { propertyId: string; roomTypeId: string; ratePlanId: string; roomIds: string[] };
  beforeAll(async () => {
    w = callers[who];
    setup = { propertyId: w.propertyId, ...(await buildRoomType(h, w.caller, w.propertyId, w.today, { amount: 10_000, rooms: 3 })) };
  });

  /** The newest entry of an object's trail, checked for its action and actor. */
  async function latest(objectType: string, objectId: string, action: string) {
    const [entry] = await trail(objectType, objectId);
    expect(entry, `${action} on ${objectId}`).toBeDefined();
    expect(entry.action).toBe(action);
    expect(entry.actor).toEqual(w.actor);
    if (objectType !== "webhook_endpoint") expect([entry.title, ...entry.sentences].join(" · ")).not.toMatch(staffFaults);
    return entry as typeof entry & { before: Record<string, any>; after: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  it("hotel setup: room types, rooms, rate plans, rates, the property and taxes", async () => {
    const type = ok(await h.post("/v1/room_types", { property_id: w.propertyId, code: "SUI", name: "Suite", max_occupancy: 3 }, w.caller), 201);
    expect((await latest("room_type", type.id, "room_type.created")).after).toMatchObject({ name: "Suite", max_occupancy: 3 });
    ok(await h.patch(`/v1/room_types/${type.id}`, { name: "Grand suite" }, w.caller));
    const renamed = await latest("room_type", type.id, "room_type.updated");
    expect([renamed.before.name, renamed.after.name]).toEqual(["Suite", "Grand suite"]);

    const room = ok(await h.post("/v1/rooms", { room_type_id: type.id, number: `9${who.length}1`, floor: 9 }, w.caller), 201);
    expect((await latest("room", room.id, "room.created")).after).toMatchObject({ number: room.number, floor: 9 });
    ok(await h.patch(`/v1/rooms/${room.id}`, { floor: 8 }, w.caller));
    const moved = await latest("room", room.id, "room.updated");
    expect([moved.before.floor, moved.after.floor]).toEqual([9, 8]);
    ok(await h.post(`/v1/rooms/${room.id}/retire`, {}, w.caller));
    const retired = await latest("room", room.id, "room.retired");
    expect([retired.before.retired_at, typeof retired.after.retired_at]).toEqual([null, "string"]);

    const plan = ok(
      await h.post("/v1/rate_plans", { property_id: w.propertyId, code: "SUIRO", name: "Suite, room only", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 }, w.caller),
      201,
    );
    expect((await latest("rate_plan", plan.id, "rate_plan.created")).after).toMatchObject({ name: "Suite, room only" });
    ok(await h.patch(`/v1/rate_plans/${plan.id}`, { cancellation_deadline_hours: 48 }, w.caller));
    const deadline = await latest("rate_plan", plan.id, "rate_plan.updated");
    expect([deadline.before.cancellation_deadline_hours, deadline.after.cancellation_deadline_hours]).toEqual([24, 48]);
    // Three nights with no rate, then 250.00 each; then two of them at 300.00.
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: w.today, to: addDays(w.today, 3), amount: 25_000 }, w.caller));
    const first = await latest("rate_plan", plan.id, "rate_plan.rates_set");
    expect([first.before.amount, first.after.amount, first.after.room_type_id]).toEqual([null, 25_000, type.id]);
    ok(await h.post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: w.today, to: addDays(w.today, 2), amount: 30_000, min_stay: 2 }, w.caller));
    const second = await latest("rate_plan", plan.id, "rate_plan.rates_set");
    expect(second.before).toMatchObject({ amount: 25_000, min_stay: 1 });
    expect(second.after).toMatchObject({ amount: 30_000, min_stay: 2, nights_range: { from: w.today, to: addDays(w.today, 1) } });
    expect(second.sentences).toContain("Minimum stay from 1 to 2");

    ok(await h.patch(`/v1/properties/${w.propertyId}`, { name: `Harbour House ${who}` }, w.caller));
    const property = await latest("property", w.propertyId, "property.updated");
    expect(property.after.name).toBe(`Harbour House ${who}`);
    expect(property.before.name).not.toBe(property.after.name);

    const tax = ok(await h.post("/v1/taxes", { property_id: w.propertyId, name: "City tax", kind: "percentage", percentage: 5 }, w.caller), 201);
    expect((await latest("tax", tax.id, "tax.created")).after).toMatchObject({ name: "City tax", percentage: 5 });
    ok(await h.patch(`/v1/taxes/${tax.id}`, { percentage: 7.5 }, w.caller));
    const raised = await latest("tax", tax.id, "tax.updated");
    expect([raised.before.percentage, raised.after.percentage]).toEqual([5, 7.5]);
    // Off again, so the stays below are charged their plain rates.
    ok(await h.patch(`/v1/taxes/${tax.id}`, { active: false }, w.caller));
    const off = await latest("tax", tax.id, "tax.updated");
    expect([off.before.active, off.after.active]).toEqual([true, false]);
  });

  it("guests: created, changed, their preferences, and erased", async () => {
    const guest = ok(await h.post("/v1/guests", { first_name: "Grace", last_name: "Hopper", email: `grace.${who.length}@audit.example` }, w.caller), 201);
    expect((await latest("guest", guest.id, "guest.created")).after).toMatchObject({ first_name: "Grace", last_name: "Hopper" });
    ok(await h.patch(`/v1/guests/${guest.id}`, { phone: "+1 555 0100" }, w.caller));
    const phoned = await latest("guest", guest.id, "guest.updated");
    expect([phoned.before.phone, phoned.after.phone]).toEqual([null, "+1 555 0100"]);
    ok(await h.put(`/v1/guests/${guest.id}/preferences`, { allergies: ["peanuts"], room: {}, loyalty: {} }, w.caller));
    const prefs = await latest("guest", guest.id, "guest.preferences_replaced");
    expect([prefs.before.allergies, prefs.after.allergies]).toEqual([[], ["peanuts"]]);
    ok(await h.patch(`/v1/guests/${guest.id}/preferences`, { room: { floor: "high" } }, w.caller));
    expect((await latest("guest", guest.id, "guest.preferences_updated")).after.room).toEqual({ floor: "high" });
    ok(await h.post(`/v1/guests/${guest.id}/erase`, { confirm: true }, w.caller));
    await latest("guest", guest.id, "guest.erased");
    // The erasure scrubbed the entries before it: no name, e-mail or allergy of the guest remains.
    expect(JSON.stringify(await rowsOf(guest.id))).not.toMatch(/Grace|Hopper|grace\.|peanuts|555 0100/);
  });

  it("a stay from booking to check-out, with its folio, as the front desk would see it", async () => {
    const body = bookingBody(setup, w.today, addDays(w.today, 2), { guest: { first_name: "Ada", last_name: "Byron", email: `ada.${who.length}@audit.example` } });
    const booked = ok(await h.post("/v1/reservations", body, w.caller), 201);
    const created = await latest("reservation", booked.id, "reservation.created");
    expect(created.before).toBeNull();
    expect(created.after).toMatchObject({ id: booked.id, status: "confirmed", total: { amount: 20_000, currency: "USD" } });
    // The guest the booking created is on their own trail, by the same caller.
    await latest("guest", booked.guest.id, "guest.created");

    ok(await h.patch(`/v1/reservations/${booked.id}`, { notes: "Late arrival" }, w.caller));
    const noted = await latest("reservation", booked.id, "reservation.updated");
    expect([noted.before.notes, noted.after.notes]).toEqual([null, "Late arrival"]);

    const checkedIn = ok(await h.post(`/v1/reservations/${booked.id}/check_in`, { room_id: setup.roomIds[0] }, w.caller));
    const checkIn = await latest("reservation", booked.id, "reservation.checked_in");
    expect([checkIn.before.status, checkIn.after.status, checkIn.after.room_id]).toEqual(["confirmed", "checked_in", setup.roomIds[0]]);
    expect(checkedIn.room_id).toBe(setup.roomIds[0]);

    // To another clean room of the type; the one left becomes dirty.
    ok(await h.post(`/v1/reservations/${booked.id}/move_room`, { room_id: setup.roomIds[1], reason: "Noise" }, w.caller));
    const move = await latest("reservation", booked.id, "reservation.room_moved");
    expect([move.before.room_id, move.after.room_id]).toEqual([setup.roomIds[0], setup.roomIds[1]]);

    // Extended by a night (3 nights at 100.00), then cut short to the arrival night only (an early departure; the plan has no fee).
    ok(await h.post(`/v1/reservations/${booked.id}/change_departure`, { check_out: addDays(w.today, 3) }, w.caller));
    const extended = await latest("reservation", booked.id, "reservation.departure_changed");
    expect([extended.before.check_out, extended.after.check_out]).toEqual([addDays(w.today, 2), addDays(w.today, 3)]);
    expect([extended.before.total.amount, extended.after.total.amount]).toEqual([20_000, 30_000]);
    ok(await h.post(`/v1/reservations/${booked.id}/change_departure`, { check_out: addDays(w.today, 1) }, w.caller));
    const shortened = await latest("reservation", booked.id, "reservation.departure_changed");
    expect([shortened.before.total.amount, shortened.after.total.amount]).toEqual([30_000, 10_000]);

    const folio = ok(await h.get(`/v1/reservations/${booked.id}/folio`, w.caller));
    ok(await h.post(`/v1/folios/${folio.id}/charges`, { description: "Minibar", amount: 1_500 }, w.caller), 201);
    const charge = await latest("reservation", booked.id, "reservation.charge_added");
    expect([charge.before.balance.amount, charge.after.balance.amount]).toEqual([10_000, 11_500]);

    // 150.00 paid, 38.50 of it given back: settled.
    const payment = ok(await h.post("/v1/payments", { reservation_id: booked.id, amount: 15_000, payment_method: { type: "cash" } }, w.caller), 201);
    const paid = await latest("reservation", booked.id, "reservation.payment_taken");
    expect([paid.before.balance.amount, paid.after.balance.amount]).toEqual([11_500, -3_500]);
    ok(await h.post(`/v1/refunds`, { payment_id: payment.id, amount: 3_500 }, w.caller), 201);
    const refunded = await latest("reservation", booked.id, "reservation.refunded");
    expect([refunded.before.balance.amount, refunded.after.balance.amount]).toEqual([-3_500, 0]);

    ok(await h.post(`/v1/reservations/${booked.id}/check_out`, {}, w.caller));
    const checkOut = await latest("reservation", booked.id, "reservation.checked_out");
    expect([checkOut.before.status, checkOut.after.status]).toEqual(["checked_in", "checked_out"]);
    // Every step of the stay is on its trail, oldest first, each by the caller.
    const entries = await trail("reservation", booked.id);
    expect(entries.map((e) => e.action).reverse()).toEqual([
      "reservation.created",
      "reservation.updated",
      "reservation.checked_in",
      "reservation.room_moved",
      "reservation.departure_changed",
      "reservation.departure_changed",
      "reservation.charge_added",
      "reservation.payment_taken",
      "reservation.refunded",
      "reservation.checked_out",
    ]);
    expect(new Set(entries.map((e) => e.actor.name))).toEqual(new Set([w.words]));
  });

  it("upgrades, cancellations and groups", async () => {
    const other = await buildRoomType(h, w.caller, w.propertyId, w.today, { amount: 15_000, rooms: 2 });
    const stay = ok(await h.post("/v1/reservations", bookingBody(setup, addDays(w.today, 5), addDays(w.today, 7)), w.caller), 201);
    // The stay's plan is made to cover the other room type too, at 150.00 a night.
    ok(await h.patch(`/v1/rate_plans/${setup.ratePlanId}`, { room_type_ids: [setup.roomTypeId, other.roomTypeId] }, w.caller));
    ok(await h.post(`/v1/rate_plans/${setup.ratePlanId}/rates`, { room_type_id: other.roomTypeId, from: w.today, to: addDays(w.today, 30), amount: 15_000 }, w.caller));
    ok(await h.post(`/v1/reservations/${stay.id}/upgrade`, { room_type_id: other.roomTypeId, charge: "difference" }, w.caller));
    const upgrade = await latest("reservation", stay.id, "reservation.upgraded");
    expect([upgrade.before.room_type_id, upgrade.after.room_type_id]).toEqual([setup.roomTypeId, other.roomTypeId]);
    // Two nights at 150.00 instead of 100.00.
    expect([upgrade.before.total.amount, upgrade.after.total.amount]).toEqual([20_000, 30_000]);
    ok(await h.post(`/v1/reservations/${stay.id}/cancel`, { reason: "Plans changed" }, w.caller));
    const cancel = await latest("reservation", stay.id, "reservation.cancelled");
    expect([cancel.before.status, cancel.after.status, cancel.after.cancellation_reason]).toEqual(["confirmed", "cancelled", "Plans changed"]);

    const group = ok(
      await h.post(
        "/v1/groups",
        {
          property_id: w.propertyId,
          name: "Wedding party",
          guest: { first_name: "Mary", last_name: "Shelley", email: `mary.${who.length}@audit.example` },
          check_in: addDays(w.today, 10),
          check_out: addDays(w.today, 11),
          billing: "individual",
          rooms: [
            { room_type_id: setup.roomTypeId, rate_plan_id: setup.ratePlanId, adults: 1 },
            { room_type_id: setup.roomTypeId, rate_plan_id: setup.ratePlanId, adults: 2 },
          ],
        },
        w.caller,
      ),
      201,
    );
    expect((await latest("group", group.id, "group.created")).after).toMatchObject({ name: "Wedding party" });
    for (const room of group.reservations as { id: string }[]) await latest("reservation", room.id, "reservation.created");
    ok(await h.post(`/v1/groups/${group.id}/cancel`, {}, w.caller));
    await latest("group", group.id, "group.cancelled");
    for (const room of group.reservations as { id: string }[]) await latest("reservation", room.id, "reservation.cancelled");
  });

  it("housekeeping, holds and webhook endpoints", async () => {
    const roomId = setup.roomIds[2];
    ok(await h.post(`/v1/rooms/${roomId}/housekeeping`, { status: "dirty" }, w.caller));
    const dirty = await latest("room", roomId, "room.marked_dirty");
    expect([dirty.before.housekeeping_status, dirty.after.housekeeping_status]).toEqual(["clean", "dirty"]);
    const assignment = ok(await h.post("/v1/housekeeping/assignments", { property_id: w.propertyId, room_id: roomId, date: w.today, assignee: "Rosa" }, w.caller), 201);
    await latest("housekeeping_assignment", assignment.id, "housekeeping_assignment.created");
    ok(await h.patch(`/v1/housekeeping/assignments/${assignment.id}`, { status: "in_progress" }, w.caller));
    const started = await latest("housekeeping_assignment", assignment.id, "housekeeping_assignment.updated");
    expect([started.before.status, started.after.status]).toEqual(["pending", "in_progress"]);
    ok(await h.del(`/v1/housekeeping/assignments/${assignment.id}`, w.caller));
    expect((await latest("housekeeping_assignment", assignment.id, "housekeeping_assignment.deleted")).before).toMatchObject({ assignee: "Rosa", status: "in_progress" });

    const hold = ok(await h.post("/v1/inventory/holds", { property_id: w.propertyId, room_type_id: setup.roomTypeId, from: addDays(w.today, 20), to: addDays(w.today, 22), rooms: 1 }, w.caller), 201);
    expect((await latest("inventory_hold", hold.id, "inventory_hold.created")).after).toMatchObject({ rooms: 1 });
    ok(await h.del(`/v1/inventory/holds/${hold.id}`, w.caller));
    await latest("inventory_hold", hold.id, "inventory_hold.released");

    const endpoint = ok(await h.post("/v1/webhook_endpoints", { url: "https://hooks.example.com/innkeep", enabled_events: ["reservation.created"] }, w.caller), 201);
    const made = await latest("webhook_endpoint", endpoint.id, "webhook_endpoint.created");
    expect(made.after).toMatchObject({ url: "https://hooks.example.com/innkeep" });
    ok(await h.patch(`/v1/webhook_endpoints/${endpoint.id}`, { description: "Channel" }, w.caller));
    const described = await latest("webhook_endpoint", endpoint.id, "webhook_endpoint.updated");
    expect([described.before.description, described.after.description]).toEqual([null, "Channel"]);
    ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/disable`, {}, w.caller));
    await latest("webhook_endpoint", endpoint.id, "webhook_endpoint.disabled");
    ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/enable`, {}, w.caller));
    await latest("webhook_endpoint", endpoint.id, "webhook_endpoint.enabled");
    const rotated = ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/rotate_secret`, { expires_in_seconds: 3600 }, w.caller));
    await latest("webhook_endpoint", endpoint.id, "webhook_endpoint.secret_rotated");
    ok(await h.del(`/v1/webhook_endpoints/${endpoint.id}`, w.caller));
    expect((await latest("webhook_endpoint", endpoint.id, "webhook_endpoint.deleted")).before).toMatchObject({ description: "Channel" });
    // No secret is ever written to the trail.
    expect(JSON.stringify(await rowsOf(endpoint.id))).not.toContain("whsec_");
    expect(JSON.stringify(await rowsOf(endpoint.id))).not.toContain(rotated.secret);
  });
});

describe("the sandbox's operations", () => {
  it("a reset and an advanced day are each one entry, by the key", async () => {
    const sandbox = { token: h.main.token, sandbox: true };
    const reset = ok(await h.post("/v1/sandbox/reset", {}, sandbox));
    const [entry] = await trail("account", h.main.account.id);
    expect(entry).toMatchObject({ action: "account.sandbox_reset", livemode: false, actor: { type: "api_key", id: h.main.keyId }, after: { property_id: reset.property_id } });
    const advanced = ok(await h.post("/v1/sandbox/advance_day", { property_id: reset.property_id }, sandbox));
    const [closed] = await trail("property", reset.property_id);
    // The day closed is the audit's business date; the property's moves to the next.
    const day = advanced.audits[0].business_date as string;
    expect(closed).toMatchObject({ action: "property.day_closed", actor: { type: "api_key", id: h.main.keyId }, before: { business_date: day }, after: { business_date: addDays(day, 1) } });
  });
});

describe("what is not done leaves no entry", () => {
  it("a booking refused for no availability, a refund over the balance, a PATCH of nothing", async () => {
    const w = callers["API key"];
    const setup = { propertyId: w.propertyId, ...(await buildRoomType(h, w.caller, w.propertyId, w.today, { rooms: 1 })) };
    const first = ok(await h.post("/v1/reservations", bookingBody(setup, addDays(w.today, 40), addDays(w.today, 41)), w.caller), 201);
    const countAll = async () => (await h.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.accountId, h.main.account.id))).length;
    const before = await countAll();
    expectError(
      await h.post("/v1/reservations", bookingBody(setup, addDays(w.today, 40), addDays(w.today, 41), { guest: { first_name: "No", last_name: "Room", email: "noroom@audit.example" } }), w.caller),
      409,
      "no_availability",
    );
    // Not even the guest the refused booking would have created is left, nor its entry.
    expect(await h.db.select().from(guests).where(eq(guests.email, "noroom@audit.example"))).toEqual([]);
    const payment = ok(await h.post("/v1/payments", { reservation_id: first.id, amount: 1_000, payment_method: { type: "cash" } }, w.caller), 201);
    expectError(await h.post("/v1/refunds", { payment_id: payment.id, amount: 5_000 }, w.caller), 422, "amount_exceeds_refundable", "amount");
    ok(await h.patch(`/v1/reservations/${first.id}`, {}, w.caller));
    ok(await h.patch(`/v1/reservations/${first.id}`, { adults: 1 }, w.caller));
    expectError(await h.post(`/v1/reservations/${first.id}/check_out`, {}, w.caller), 409, "invalid_state_transition");
    // Only the payment was done.
    expect(await countAll()).toBe(before + 1);
  });

  it("a change rolled back after its entry was written leaves neither", async () => {
    const w = callers["API key"];
    const tenant = { accountId: h.main.account.id, livemode: true, propertyIds: null };
    const email = "rolledback@audit.example";
    const failure = new Error("fails after the guest and its entry were written");
    await expect(
      h.db.transaction(async (tx) => {
        const guest = await createGuest({ db: tx as never, tenant, actor: { type: "api_key", id: h.main.keyId, name: "Channel sync" }, input: { first_name: "Roll", last_name: "Back", email } });
        // The entry is there inside the transaction…
        expect((await tx.select().from(auditLog).where(eq(auditLog.objectId, guest.id))).map((e) => e.action)).toEqual(["guest.created"]);
        throw Object.assign(failure, { guestId: guest.id });
      }),
    ).rejects.toBe(failure);
    // …and gone with it.
    const guestId = (failure as Error & { guestId: string }).guestId;
    expect(await rowsOf(guestId)).toEqual([]);
    expect(await h.db.select().from(guests).where(eq(guests.id, guestId))).toEqual([]);
    expect(w).toBeDefined();
  });

  it("changes made in the dashboard are written by the same services, by the staff member", async () => {
    const w = callers["API key"];
    const setup = { propertyId: w.propertyId, ...(await buildRoomType(h, w.caller, w.propertyId, w.today, { rooms: 1 })) };
    const staff = await staffSession(h, "owner");
    const desk = createCaller({ db: h.db, session: staff, livemode: true });
    const booked = await desk.reservations.create(bookingBody(setup, addDays(w.today, 50), addDays(w.today, 51), { guest: { first_name: "Desk", last_name: "Made", email: "desk@audit.example" } }) as never);
    await desk.reservations.cancel({ id: booked.id });
    const entries = await trail("reservation", booked.id);
    expect(entries.map((e) => [e.action, e.actor])).toEqual([
      ["reservation.cancelled", { type: "staff", id: staff.user.id, email: staff.user.email, name: staff.user.email }],
      ["reservation.created", { type: "staff", id: staff.user.id, email: staff.user.email, name: staff.user.email }],
    ]);
    // The cancellation's entry is the row the change locked and the row it wrote: one entry, not two.
    expect(await h.db.select({ status: reservations.status }).from(reservations).where(eq(reservations.id, booked.id))).toEqual([{ status: "cancelled" }]);
    // Staff read sentences: no id, no code, no JSON.
    for (const e of entries) expect([e.title, ...e.sentences].join(" · ")).not.toMatch(staffFaults);
  });
});
