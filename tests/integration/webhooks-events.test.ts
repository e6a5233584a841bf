import { afterAll, beforeAll, expect, it } from "vitest";
import { eventTypes } from "@/server/events/types";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { verifyWebhook } from "@/server/webhooks/verify-signature";
import { startHarness, type Harness } from "../support/harness";
import { disputeAndLose } from "../support/stripe-events";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// Every event type the API sends (server/events/types.ts), caused through the REST API in the seeded sandbox hotel,
// reaches a subscribed endpoint signed, with the envelope of GET /events/{id}.

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  dispatcher = startTestDispatcher(h.db);
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

const sandbox = { sandbox: true };
const ok = (res: { status: number; text: string }, status = 200) => {
  expect(res.status, res.text).toBe(status);
  return (res as unknown as { json: any }).json; // eslint-disable-line @typescript-eslint/no-explicit-any
};
const dayIn = (timeZone: string, offsetDays: number) => {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offsetDays);
  return d.toISOString().slice(0, 10);
};
const card = (number: string) => ({ type: "card", number, exp_month: 12, exp_year: 2040, cvc: "123" });

it("every event type reaches its subscriber, signed", async () => {
  const endpoint = ok(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/all`, enabled_events: ["*"] }, sandbox), 201);
  const [property] = ok(await h.get("/v1/properties", sandbox)).data;
  const roomTypes = ok(await h.get(`/v1/room_types?property_id=${property.id}&limit=100`, sandbox)).data;
  const king = roomTypes.find((t: { code: string }) => t.code === "KING");
  const bar = ok(await h.get(`/v1/rate_plans?property_id=${property.id}&limit=100`, sandbox)).data.find((p: { code: string }) => p.code === "BAR");
  const today = dayIn(property.timezone, 0);
  const book = (checkIn: string, checkOut: string, email: string) =>
    h.post("/v1/reservations", {
      property_id: property.id, room_type_id: king.id, rate_plan_id: bar.id, check_in: checkIn, check_out: checkOut, adults: 1,
      guest: { first_name: "Every", last_name: "Event", email },
    }, sandbox);

  const stay = ok(await book(today, dayIn(property.timezone, 1), "every.event@example.com"), 201); // reservation.created, guest.created, inventory.updated
  ok(await h.patch(`/v1/reservations/${stay.id}`, { notes: "late arrival" }, sandbox)); // reservation.updated
  expect((await h.post("/v1/payments", { reservation_id: stay.id, payment_method: card("4000000000000002") }, sandbox)).status).toBe(402); // payment.failed
  const paid = ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: card("4242424242424242") }, sandbox), 201); // payment.succeeded
  ok(await h.post("/v1/refunds", { payment_id: paid.id, amount: 100 }, sandbox), 201); // payment.refunded
  ok(await h.post("/v1/payments", { reservation_id: stay.id, amount: 100, payment_method: { type: "cash" } }, sandbox), 201);
  ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, sandbox)); // reservation.checked_in (+ housekeeping)
  ok(await h.post(`/v1/reservations/${stay.id}/check_out`, {}, sandbox)); // reservation.checked_out, housekeeping.status_changed
  ok(await h.post("/v1/refunds", { payment_id: paid.id, amount: 100 }, sandbox), 201); // payment.refunded, credit_note.created (after check-out)
  const later = ok(await book(dayIn(property.timezone, 20), dayIn(property.timezone, 22), "every.event@example.com"), 201);
  ok(await h.post(`/v1/reservations/${later.id}/cancel`, { reason: "plans changed" }, sandbox)); // reservation.cancelled
  ok(await h.post(`/v1/rate_plans/${bar.id}/rates`, { room_type_id: king.id, from: dayIn(property.timezone, 40), to: dayIn(property.timezone, 42), amount: 19900 }, sandbox)); // rate.updated
  // Issue 27's: the check-out above issued invoice.created.
  const tax = ok(await h.post("/v1/taxes", { property_id: property.id, name: "City tax", kind: "per_night", amount: 150 }, sandbox), 201); // tax.created
  ok(await h.patch(`/v1/taxes/${tax.id}`, { name: "Tourist tax" }, sandbox)); // tax.updated
  const rooms = [0, 1].map(() => ({ room_type_id: king.id, rate_plan_id: bar.id, adults: 1 }));
  const group = ok(await h.post("/v1/groups", { property_id: property.id, guest: { first_name: "Every", last_name: "Group", email: "every.group@example.com" }, check_in: dayIn(property.timezone, 30), check_out: dayIn(property.timezone, 31), rooms }, sandbox), 201); // group.created
  ok(await h.post(`/v1/groups/${group.id}/cancel`, {}, sandbox)); // group.cancelled
  ok(await h.patch(`/v1/properties/${property.id}`, { check_in_time: property.check_in_time === "14:00" ? "15:00" : "14:00" }, sandbox)); // property.updated
  // The hotel's setup (every change an event): a property of its own, so the seeded hotel's rooms stay as they are.
  // A cardholder's dispute, as Stripe sends it to the sandbox's connected Stripe test account: payment.disputed, payment.dispute_closed.
  const whsec = "whsec_everyEventSigningSecret0000";
  const stripe = ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: "sk_test_everyEventKey00000000", webhook_secret: whsec }, sandbox), 201);
  const disputedStay = ok(await book(dayIn(property.timezone, 10), dayIn(property.timezone, 11), "every.dispute@example.com"), 201);
  const charged = ok(await h.post("/v1/payments", { reservation_id: disputedStay.id, amount: 500, payment_method: { type: "card", processor_payment_method: "pm_card_visa" } }, sandbox), 201);
  await disputeAndLose(h.baseUrl, stripe.id, whsec, charged.processor.payment_id, 500, property.currency);
  const annex = ok(await h.post("/v1/properties", { name: "Every Event Annex", timezone: property.timezone, currency: property.currency }, sandbox), 201); // property.created
  const annexType = ok(await h.post("/v1/room_types", { property_id: annex.id, code: "ANX", name: "Annex room", max_occupancy: 2 }, sandbox), 201); // room_type.created
  ok(await h.patch(`/v1/room_types/${annexType.id}`, { beds: "2 singles" }, sandbox)); // room_type.updated
  const annexRooms = ok(await h.post("/v1/rooms/range", { room_type_id: annexType.id, from_number: "1", to_number: "2" }, sandbox), 201).data; // room.created (one per room)
  ok(await h.patch(`/v1/rooms/${annexRooms[0].id}`, { floor: 0 }, sandbox)); // room.updated
  ok(await h.post(`/v1/rooms/${annexRooms[1].id}/retire`, {}, sandbox)); // room.retired
  const annexPlan = ok(await h.post("/v1/rate_plans", { property_id: annex.id, code: "ANX", name: "Annex rate", room_type_ids: [annexType.id] }, sandbox), 201); // rate_plan.created
  ok(await h.patch(`/v1/rate_plans/${annexPlan.id}`, { meal_plan: "breakfast" }, sandbox)); // rate_plan.updated
  // A guest of their own, so that only their guest.created, guest.updated, guest.preferences_updated and guest.erased events are rewritten by the erasure.
  const leaving = ok(await h.post("/v1/guests", { first_name: "Wilhelmina", last_name: "Forgetme", email: "forget.me@example.com" }, sandbox), 201);
  ok(await h.patch(`/v1/guests/${leaving.id}`, { phone: "+44 20 7946 0000" }, sandbox)); // guest.updated
  ok(await h.patch(`/v1/guests/${leaving.id}/preferences`, { allergies: ["Forgetme-nuts"] }, sandbox)); // guest.preferences_updated
  ok(await h.post(`/v1/guests/${leaving.id}/erase`, { confirm: true }, sandbox)); // guest.erased
  ok(await h.post("/v1/sandbox/advance_day", {}, sandbox)); // night_audit.completed (the night audit, at once)

  const seen = await waitFor(() => {
    const types = new Set(receiver.requests.map((r) => JSON.parse(r.body).type));
    return eventTypes.every((t) => types.has(t)) ? types : undefined;
  }, "every event type delivered");
  expect([...seen].sort()).toEqual([...eventTypes].sort());
  for (const r of receiver.requests) {
    const event = verifyWebhook<{ id: string; livemode: boolean }>(r.body, r.headers["service-signature"], endpoint.secret);
    expect(event.livemode).toBe(false);
    const stored = ok(await h.get(`/v1/events/${event.id}`, sandbox));
    // The erased guest's events were delivered as they were, and are kept anonymised (issue 27, point 6).
    if (r.body.includes("Forgetme")) expect(JSON.stringify(stored)).not.toMatch(/Forgetme|Wilhelmina|forget\.me/);
    else expect(JSON.parse(r.body)).toEqual(stored);
  }
  const logged = ok(await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=100`, sandbox)).data;
  expect(logged.length).toBe(new Set(receiver.requests.map((r) => JSON.parse(r.body).id)).size);
  expect(logged.every((d: { status: string }) => d.status === "succeeded")).toBe(true);
}, 180_000); // every type, then every delivery checked against GET /events/{id}: longer than one change's test

it("a guest's changed preferences reach the endpoints that select everything or that type, signed, as GET then answers them; not an endpoint of guest.updated only", async () => {
  const create = async (path: string, enabled_events: string[]) => ok(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/${path}`, enabled_events }, {}), 201);
  const all = await create("prefs-all", ["*"]);
  const prefsOnly = await create("prefs-only", ["guest.preferences_updated"]);
  const detailsOnly = await create("prefs-details", ["guest.updated"]);
  expect(prefsOnly.enabled_events).toEqual(["guest.preferences_updated"]);
  const guest = ok(await h.post("/v1/guests", { first_name: "Katherine", last_name: "Johnson", email: "katherine.hooks@example.com" }), 201);

  const changed = ok(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["hazelnuts"], loyalty: { program: "Harbor", number: "HB-0193" } }));
  // A no-op write after it sends nothing; a change of details after it is guest.updated.
  ok(await h.patch(`/v1/guests/${guest.id}/preferences`, { allergies: ["hazelnuts"] }));
  ok(await h.patch(`/v1/guests/${guest.id}`, { phone: "+1 757 555 0193" }));

  const at = (path: string) => receiver.requests.filter((r) => r.url === `/${path}`);
  const bodies = (path: string) => at(path).map((r) => JSON.parse(r.body) as { id: string; type: string; data: { object: { guest_id?: string; id?: string } } });
  const about = (path: string, type: string) => bodies(path).filter((e) => e.type === type && (e.data.object.guest_id ?? e.data.object.id) === guest.id);
  await waitFor(() => about("prefs-all", "guest.updated").length && about("prefs-only", "guest.preferences_updated").length && about("prefs-details", "guest.updated").length, "the three endpoints' deliveries");

  for (const [path, endpoint] of [["prefs-all", all], ["prefs-only", prefsOnly]] as const) {
    const delivered = about(path, "guest.preferences_updated");
    expect(delivered, path).toHaveLength(1);
    const request = at(path).find((r) => JSON.parse(r.body).id === delivered[0].id)!;
    const event = verifyWebhook<{ id: string; type: string; livemode: boolean; property_id: string | null; data: { object: unknown } }>(request.body, request.headers["service-signature"], endpoint.secret);
    expect(event).toMatchObject({ type: "guest.preferences_updated", livemode: true, property_id: null });
    expect(event.data.object).toEqual(changed);
    expect(ok(await h.get(`/v1/events/${event.id}`))).toEqual(event);
  }
  // The endpoint of guest.updated only got that, and the one of preferences only never the details.
  expect(bodies("prefs-details").filter((e) => e.type !== "guest.updated")).toEqual([]);
  expect(bodies("prefs-only").filter((e) => e.type !== "guest.preferences_updated")).toEqual([]);
  const deliveries = ok(await h.get(`/v1/webhook_endpoints/${detailsOnly.id}/deliveries?event_type=guest.preferences_updated`)).data;
  expect(deliveries).toEqual([]);

  // The test event of this type is the preferences set most recently, shaped as the real event.
  const sample = ok(await h.post(`/v1/webhook_endpoints/${prefsOnly.id}/test`, { type: "guest.preferences_updated" }), 202);
  const received = await waitFor(() => at("prefs-only").find((r) => JSON.parse(r.body).id === sample.event_id), "the test event");
  expect(JSON.parse(received.body)).toMatchObject({ type: "guest.preferences_updated", data: { object: ok(await h.get(`/v1/guests/${guest.id}/preferences`)) } });
});
