import { Ajv2020 } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "@/db/schema";
import { presentEvent } from "@/server/events/present";
import { eventTypes } from "@/server/events/types";
import { sendTestEvent } from "@/server/webhook-endpoints/test-event";
import { addDays } from "@/lib/dates";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok, type Caller } from "../support/hotel";
import { undocumented } from "../support/openapi-validator";
import { disputeAndLose } from "../support/stripe-events";

// Issue 24, item 1: the document's `webhooks` has one entry per event type (the 12, issue 27's, issue 23's and `ping`),
// each with its typed `data.object`; every payload the server really writes matches its entry.

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

let h: Harness;
let doc: Json;
let caller: Caller;
let ajv: Ajv2020;

beforeAll(async () => {
  h = await startHarness();
  doc = (await h.get("/v1/openapi.json", { token: null })).json;
  caller = { token: h.main.token };
  // OpenAPI 3.1's schemas are JSON Schema 2020-12; the document's own keys are not schema keywords.
  ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema({ ...doc, $id: "openapi" }, "openapi");

  // One of every event, through the API as an integrator makes them.
  const hotel = await liveHotel(h, h.main.account.id, "Europe/Lisbon");
  const t = await buildRoomType(h, caller, hotel.propertyId, hotel.today, { rooms: 2, days: 10, amount: 10_000 }); // inventory.updated, rate.updated ×2
  ok(await h.patch(`/v1/rate_plans/${t.ratePlanId}`, { name: "Renamed" }, caller));
  const tax = ok(await h.post("/v1/taxes", { property_id: hotel.propertyId, name: "IVA", kind: "percentage", percentage: 6, inclusive: true }, caller), 201); // tax.created
  ok(await h.patch(`/v1/taxes/${tax.id}`, { name: "IVA (6 %)" }, caller)); // tax.updated
  const stay = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, hotel.today, addDays(hotel.today, 1)), caller), 201); // reservation.created, guest.created
  ok(await h.patch(`/v1/reservations/${stay.id}`, { notes: "Late arrival" }, caller)); // reservation.updated
  ok(await h.patch(`/v1/guests/${stay.guest.id}`, { phone: "+351 21 000 0000" }, caller)); // guest.updated
  ok(await h.put(`/v1/guests/${stay.guest.id}/preferences`, { allergies: ["peanuts"], room: { floor: "high" }, loyalty: { program: "Harbor", points: 10 } }, caller)); // guest.preferences_updated
  ok(await h.patch(`/v1/guests/${stay.guest.id}/preferences`, { room: { floor: null } }, caller)); // guest.preferences_updated (an empty room)
  // Card charges are the sandbox's (live ones need a processor): a declined test card there.
  const seeded = ok(await h.get("/v1/reservations?status=confirmed&limit=1", { ...caller, sandbox: true })).data[0];
  const declined = { reservation_id: seeded.id, amount: 100, payment_method: { type: "card", number: "4000000000000002", exp_month: 12, exp_year: 2030, cvc: "123" } };
  expect((await h.post("/v1/payments", declined, { ...caller, sandbox: true })).status).toBe(402); // payment.failed
  const paid = ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: { type: "cash" } }, caller), 201); // payment.succeeded
  ok(await h.post("/v1/refunds", { payment_id: paid.id, amount: 500 }, caller), 201); // payment.refunded
  ok(await h.post("/v1/payments", { reservation_id: stay.id, payment_method: { type: "cash" } }, caller), 201);
  ok(await h.post(`/v1/reservations/${stay.id}/check_in`, {}, caller)); // reservation.checked_in
  ok(await h.post(`/v1/reservations/${stay.id}/check_out`, {}, caller)); // reservation.checked_out, housekeeping.status_changed, invoice.created
  ok(await h.post("/v1/refunds", { payment_id: paid.id, amount: 100 }, caller), 201); // payment.refunded, credit_note.created (the folio is closed and settled)
  // A live card through a connected Stripe test account, disputed at Stripe and lost: payment.disputed, payment.dispute_closed.
  const whsec = "whsec_openapiWebhooksSecret0000";
  const stripe = ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: "sk_test_openapiWebhooksKey0000", webhook_secret: whsec }, caller), 201);
  const carded = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, addDays(hotel.today, 6), addDays(hotel.today, 7)), caller), 201);
  const charged = ok(await h.post("/v1/payments", { reservation_id: carded.id, amount: 1_000, payment_method: { type: "card", processor_payment_method: "pm_card_visa" } }, caller), 201);
  await disputeAndLose(h.baseUrl, stripe.id, whsec, charged.processor.payment_id, 1_000, charged.amount.currency);
  const other = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, ...t }, addDays(hotel.today, 2), addDays(hotel.today, 3)), caller), 201);
  ok(await h.post(`/v1/reservations/${other.id}/cancel`, {}, caller)); // reservation.cancelled
  ok(await h.post(`/v1/guests/${other.guest.id}/erase`, { confirm: true }, caller)); // guest.erased
  const rooms = [0, 1].map(() => ({ room_type_id: t.roomTypeId, rate_plan_id: t.ratePlanId, adults: 1 }));
  const group = ok(await h.post("/v1/groups", { property_id: hotel.propertyId, guest: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" }, check_in: addDays(hotel.today, 4), check_out: addDays(hotel.today, 5), rooms }, caller), 201); // group.created
  ok(await h.post(`/v1/groups/${group.id}/cancel`, {}, caller)); // group.cancelled
  ok(await h.patch(`/v1/properties/${hotel.propertyId}`, { audit_hour: 4 }, caller)); // property.updated
  // The hotel's setup: property.created, room_type.created/updated, room.created/updated/retired, rate_plan.created/updated.
  const annex = ok(await h.post("/v1/properties", { name: "Annex", timezone: "Europe/Lisbon", currency: "EUR" }, caller), 201);
  const annexType = ok(await h.post("/v1/room_types", { property_id: annex.id, code: "ANX", name: "Annex room", max_occupancy: 2 }, caller), 201);
  ok(await h.patch(`/v1/room_types/${annexType.id}`, { beds: "2 singles" }, caller));
  const annexRooms = ok(await h.post("/v1/rooms/range", { room_type_id: annexType.id, from_number: "1", to_number: "2" }, caller), 201).data;
  ok(await h.patch(`/v1/rooms/${annexRooms[0].id}`, { floor: 0 }, caller));
  ok(await h.post(`/v1/rooms/${annexRooms[1].id}/retire`, {}, caller));
  const annexPlan = ok(await h.post("/v1/rate_plans", { property_id: annex.id, code: "ANX", name: "Annex rate", room_type_ids: [annexType.id] }, caller), 201);
  ok(await h.patch(`/v1/rate_plans/${annexPlan.id}`, { meal_plan: "breakfast" }, caller));
  const endpoint = ok(await h.post("/v1/webhook_endpoints", { url: "http://127.0.0.1:9/hooks", enabled_events: ["*"] }, caller), 201);
  ok(await h.post("/v1/sandbox/advance_day", {}, { ...caller, sandbox: true })); // night_audit.completed
  await sendTestEvent({ db: h.db, tenant: { accountId: h.main.account.id, livemode: true, propertyIds: null }, actor: null, endpointId: endpoint.id }); // ping
});
afterAll(async () => h?.close());

/** The schema a webhook of this type is documented to carry. */
const bodySchema = (type: string) => doc.webhooks[type].post.requestBody.content["application/json"].schema;
const validate = (type: string, event: unknown) => (ajv.validate({ $ref: `openapi${bodySchema(type).$ref}` }, event) ? [] : ajv.errors!.map((e) => `${e.instancePath} ${e.message}`));

async function written(type: string) {
  const rows = await h.db.select().from(events).where(and(eq(events.accountId, h.main.account.id), eq(events.type, type)));
  return rows.map(presentEvent);
}

describe("the document's webhooks", () => {
  it("has an entry per event type (the specification's 12, the night audit's a guest's erasure, groups', a property's, taxes' and invoices', a guest's details and preferences, the hotel's setup) and ping, each a signed POST of the envelope", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...eventTypes, "ping"].sort());
    for (const [type, item] of Object.entries(doc.webhooks as Record<string, Json>)) {
      const names = item.post.parameters.map((p: Json) => doc.components.parameters[p.$ref.split("/").pop()].name);
      expect(names, type).toEqual(["Service-Signature", "Service-Request-Id"]);
      const envelope = doc.components.schemas[bodySchema(type).$ref.split("/").pop()];
      expect(envelope.properties.type, type).toMatchObject({ type: "string", enum: [type] });
      expect(envelope.properties.data.properties.object, type).not.toEqual({ type: "object", additionalProperties: {} });
    }
  });

  it.each([...eventTypes, "ping"])("%s: every event of that type the server wrote matches its entry, and no other type's", async (type) => {
    const list = await written(type);
    expect(list.length, `no ${type} event was written`).toBeGreaterThan(0);
    for (const event of list) {
      expect(validate(type, event), `${type}: ${JSON.stringify(event.data.object).slice(0, 300)}`).toEqual([]);
      // The envelope of another type refuses it: the union is discriminated by `type`.
      const other = type === "ping" ? "guest.created" : "ping";
      expect(validate(other, event).length).toBeGreaterThan(0);
    }
  });

  it("data.object is typed: an event missing a field of its object fails its entry", async () => {
    const [event] = await written("reservation.created");
    const broken = structuredClone(event) as Json;
    delete broken.data.object.check_in;
    expect(validate("reservation.created", broken).join()).toMatch(/check_in/);
    // The same check bites on GET /v1/events/{id}, whose answer is the same union.
    const drift = await undocumented({ method: "GET", path: `/v1/events/${event.id}`, status: 200, contentType: "application/json", text: JSON.stringify(broken) });
    expect(drift.length).toBeGreaterThan(0);
  });

  it("GET /v1/events answers each event type typed by the same schemas (the harness checks each answer)", async () => {
    for (const type of eventTypes) {
      // payment.failed and the night audit were written in the sandbox.
      const where = { ...caller, sandbox: type === "payment.failed" || type === "night_audit.completed" };
      const list = ok(await h.get(`/v1/events?type=${type}&limit=100`, where));
      expect(list.data.length, type).toBeGreaterThan(0);
      const one = ok(await h.get(`/v1/events/${list.data[0].id}`, where));
      expect(validate(type, one)).toEqual([]);
    }
    const members = doc.components.schemas.Event.oneOf.map((s: Json) => s.$ref);
    expect(members.sort()).toEqual(eventTypes.map((t) => bodySchema(t).$ref).sort());
    expect(doc.components.schemas.Event.discriminator.propertyName).toBe("type");
  });
});
