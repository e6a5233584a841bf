import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Innkeep, { type WebhookEvent } from "@innkeep/node";
import { events, webhookDeliveries } from "@/db/schema";
import { verifyWebhook } from "@/server/webhooks/verify-signature";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { ok, sandboxProperty } from "../support/hotel";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// POST /v1/webhook_endpoints/{id}/test (scope webhooks:manage): a signed ping, or a sample of any
// event type built from the environment's own newest object, delivered to a real local receiver;
// never listed, never sent to another endpoint; a bad type or a missing scope changes nothing.

let h: Harness;
let receiver: Receiver;
let bystander: Receiver;
let dispatcher: Dispatcher;
const sandbox = { sandbox: true };

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
  bystander = await startReceiver();
  dispatcher = startTestDispatcher(h.db);
}, 120_000);
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await bystander?.close();
  await h?.close();
});

/** An endpoint at the receiver selecting only `guest.created`, and a second one that selects everything. */
async function endpoints(opts = {}) {
  const target = ok(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/hook`, enabled_events: ["guest.created"] }, opts), 201);
  ok(await h.post("/v1/webhook_endpoints", { url: `${bystander.url}/all`, enabled_events: ["*"] }, opts), 201);
  return target as { id: string; secret: string };
}

const delivered = (eventId: string) => waitFor(() => receiver.forEvent(eventId)[0], `delivery of ${eventId}`);

describe("POST /v1/webhook_endpoints/{id}/test", () => {
  it("sends a signed ping by default, to that endpoint only, and lists it nowhere", async () => {
    const endpoint = await endpoints();
    const res = await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`);
    expect(res.status, res.text).toBe(202);
    expect(res.json).toEqual({ event_id: expect.stringMatching(/^evt_/), delivery_id: expect.stringMatching(/^del_/), type: "ping", status: "queued" });
    const request = await delivered(res.json.event_id);
    const event = verifyWebhook<WebhookEvent>(request.body, request.headers["service-signature"], endpoint.secret);
    expect(event).toMatchObject({ id: res.json.event_id, object: "event", type: "ping", livemode: true, property_id: null });
    expect(event.data.object).toEqual({ object: "ping", endpoint_id: endpoint.id, message: "A test event sent from Innkeep. Answer 2xx once its signature checks out." });
    const delivery = ok(await h.get(`/v1/deliveries/${res.json.delivery_id}`));
    expect(delivery).toMatchObject({ endpoint_id: endpoint.id, event_id: res.json.event_id, event_type: "ping" });
    // Not an event of the log, and nobody else got it.
    expectError(await h.get(`/v1/events/${res.json.event_id}`), 404, "resource_missing", "id");
    expect((await h.get("/v1/events?limit=100")).json.data.map((e: { id: string }) => e.id)).not.toContain(res.json.event_id);
    // Nobody else will get it either, observed rather than waited for: a delivery goes out only
    // from its row, and the test wrote one row, the endpoint's.
    const rows = await h.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, res.json.event_id));
    expect(rows.map((r) => [r.id, r.endpointId])).toEqual([[res.json.delivery_id, endpoint.id]]);
    expect(bystander.forEvent(res.json.event_id)).toEqual([]);
  });

  it("sends a sample of a chosen type, whatever the endpoint selects, shaped as a real event of it", async () => {
    const endpoint = await endpoints(sandbox);
    const property = await sandboxProperty(h, h.main.token);
    // The sandbox's newest reservation is what the sample carries, presented as the API presents it.
    const newest = ok(await h.get(`/v1/reservations?limit=1`, sandbox)).data[0];
    const res = await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { type: "reservation.checked_in" }, sandbox);
    expect(res.status, res.text).toBe(202);
    expect(res.json.type).toBe("reservation.checked_in");
    const request = await delivered(res.json.event_id);
    const event = verifyWebhook<WebhookEvent>(request.body, request.headers["service-signature"], endpoint.secret);
    expect(event).toMatchObject({ id: res.json.event_id, type: "reservation.checked_in", livemode: false, property_id: newest.property_id });
    expect(event.data.object).toEqual(ok(await h.get(`/v1/reservations/${newest.id}`, sandbox)));
    expect(newest.property_id).toBe(property.id);
    expect((await h.get("/v1/events?limit=100", sandbox)).json.data.map((e: { id: string }) => e.id)).not.toContain(res.json.event_id);
  });

  it("sends a sample of each setup event type, its object as GET answers the sandbox's newest of its kind", async () => {
    const endpoint = await endpoints(sandbox);
    const newestOf = async (list: string) => ok(await h.get(`${list}?limit=1`, sandbox)).data[0] as { id: string; property_id?: string };
    const property = await newestOf("/v1/properties");
    const roomType = await newestOf("/v1/room_types");
    const room = await newestOf("/v1/rooms");
    const plan = await newestOf("/v1/rate_plans");
    const cases: [string, string, string][] = [
      ["property.created", `/v1/properties/${property.id}`, property.id],
      ["room_type.created", `/v1/room_types/${roomType.id}`, roomType.property_id!],
      ["room_type.updated", `/v1/room_types/${roomType.id}`, roomType.property_id!],
      ["room.created", `/v1/rooms/${room.id}`, room.property_id!],
      ["room.updated", `/v1/rooms/${room.id}`, room.property_id!],
      ["rate_plan.created", `/v1/rate_plans/${plan.id}`, plan.property_id!],
      ["rate_plan.updated", `/v1/rate_plans/${plan.id}`, plan.property_id!],
    ];
    for (const [type, path, propertyId] of cases) {
      const res = ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { type }, sandbox), 202);
      const request = await delivered(res.event_id);
      const event = verifyWebhook<WebhookEvent>(request.body, request.headers["service-signature"], endpoint.secret);
      expect(event, type).toMatchObject({ type, livemode: false, property_id: propertyId });
      expect(event.data.object, type).toEqual(ok(await h.get(path, sandbox)));
    }
    // The seeded hotel has retired no room: the sample is its newest room as retiring it would leave it.
    const res = ok(await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { type: "room.retired" }, sandbox), 202);
    const request = await delivered(res.event_id);
    const event = verifyWebhook<WebhookEvent>(request.body, request.headers["service-signature"], endpoint.secret);
    expect(event.type).toBe("room.retired");
    const { retired_at, ...rest } = event.data.object as { retired_at: string | null };
    expect(Date.parse(retired_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(rest).toEqual({ ...ok(await h.get(`/v1/rooms/${room.id}`, sandbox)), retired_at: undefined });
  });

  it("is in the client: webhookEndpoints.test(id) and test(id, { type })", async () => {
    const endpoint = await endpoints(sandbox);
    const innkeep = new Innkeep({ apiKey: h.main.token, baseUrl: h.baseUrl, environment: "sandbox" });
    const ping = await innkeep.webhookEndpoints.test(endpoint.id);
    expect(ping.type).toBe("ping");
    const sample = await innkeep.webhookEndpoints.test(endpoint.id, { type: "inventory.updated" });
    const event = Innkeep.webhooks.constructEvent((await delivered(sample.event_id)).body, (await delivered(sample.event_id)).headers["service-signature"] as string, endpoint.secret);
    expect(event.type).toBe("inventory.updated");
    if (event.type !== "inventory.updated") return;
    expect(Object.keys(event.data.object).sort()).toEqual(["from", "object", "property_id", "room_type_id", "to"]);
    expect(event.data.object.object).toBe("inventory_range");
    const pinged = Innkeep.webhooks.constructEvent((await delivered(ping.event_id)).body, (await delivered(ping.event_id)).headers["service-signature"] as string, endpoint.secret);
    expect(pinged.type === "ping" && pinged.data.object.endpoint_id).toBe(endpoint.id);
  });

  it("refuses a bad type, a missing scope, an empty environment's sample and another account's endpoint, changing nothing", async () => {
    const endpoint = await endpoints();
    const rows = async () => [(await h.db.select({ n: count() }).from(events))[0].n, (await h.db.select({ n: count() }).from(webhookDeliveries))[0].n];
    const before = await rows();
    const bad = await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { type: "reservation.exploded" });
    expectError(bad, 422, "parameter_invalid", "type");
    expectError(await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { type: "ping", extra: 1 }), 422, "parameter_unknown", "extra");
    const readOnly = await h.keyWith(["reservations:read", "reservations:write", "rooms:read"]);
    const refused = await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, undefined, { token: readOnly });
    expectError(refused, 403, "insufficient_scope");
    expect(refused.json.error.message).toContain("webhooks:manage");
    // The live environment of this account has no payment yet: nothing to sample from.
    const none = await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, { type: "payment.succeeded" });
    expectError(none, 422, "parameter_invalid", "type");
    expect(none.json.error.message).toBe(
      "There is no payment in the live environment to build a sample payment.succeeded event from: make one first, send `ping`, or test from the sandbox, whose seeded hotel has one of each.",
    );
    const other = await h.newAccount("Stranger Hotels");
    expectError(await h.post(`/v1/webhook_endpoints/${endpoint.id}/test`, undefined, { token: other.token }), 404, "resource_missing", "id");
    expect(await rows()).toEqual(before);
    expect(await h.db.select({ n: count() }).from(events).where(eq(events.type, "reservation.exploded"))).toEqual([{ n: 0 }]);
  });
});
