import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { events } from "@/db/schema";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// The endpoints, deliveries, replay and backfill routes of contract §7: shapes, validation,
// scope, and the tenant walls (another account's or environment's objects answer 404).

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;
let other: Awaited<ReturnType<Harness["newAccount"]>>;

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount("Other Hotels");
  receiver = await startReceiver();
  dispatcher = startTestDispatcher(h.db);
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

let n = 0;
const newGuest = (opts: { sandbox?: boolean; token?: string } = {}) =>
  h.post("/v1/guests", { first_name: "A", last_name: "B", email: `api${++n}@example.com` }, opts);
const createEndpoint = async (body: Record<string, unknown> = {}, opts: { sandbox?: boolean; token?: string } = {}) => {
  const res = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/hooks`, enabled_events: ["*"], ...body }, opts);
  expect(res.status, res.text).toBe(201);
  return res.json;
};

describe("webhook endpoints", () => {
  it("create answers the endpoint with its secret once; reads never show it", async () => {
    const e = await createEndpoint({ description: "Main", enabled_events: ["reservation.created", "guest.created"] });
    expect(e).toMatchObject({
      object: "webhook_endpoint",
      livemode: true,
      url: `${receiver.url}/hooks`,
      description: "Main",
      enabled_events: ["reservation.created", "guest.created"],
      status: "enabled",
      disabled_reason: null,
    });
    expect(e.id).toMatch(/^we_/);
    expect(e.secret).toMatch(/^whsec_/);
    expect(e.api_version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const got = await h.get(`/v1/webhook_endpoints/${e.id}`);
    expect(got.json).not.toHaveProperty("secret");
    const { secret: _secret, ...rest } = e;
    expect(got.json).toEqual(rest);
    const list = await h.get("/v1/webhook_endpoints");
    expect(list.json.data.map((x: { id: string }) => x.id)).toContain(e.id);
    for (const item of list.json.data) expect(item).not.toHaveProperty("secret");
  });

  it("validates the selector, the URL and the body", async () => {
    expectError(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/x`, enabled_events: ["reservation.exploded"] }), 422, "parameter_invalid", "enabled_events.0");
    expectError(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/x`, enabled_events: [] }), 422, "parameter_invalid", "enabled_events");
    expectError(await h.post("/v1/webhook_endpoints", { enabled_events: ["*"] }), 422, "parameter_missing", "url");
    expectError(await h.post("/v1/webhook_endpoints", { url: "ftp://example.com/x", enabled_events: ["*"] }), 422, "url_not_allowed", "url");
    expectError(await h.post("/v1/webhook_endpoints", { url: "https://u:p@example.com/x", enabled_events: ["*"] }), 422, "url_not_allowed", "url");
    expectError(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/x`, enabled_events: ["*"], secret: "mine" }), 422, "parameter_unknown", "secret");
    const star = await createEndpoint({ enabled_events: ["*", "guest.created"] });
    expect(star.enabled_events).toEqual(["*"]);
  });

  it("updates, disables, enables and deletes", async () => {
    const e = await createEndpoint();
    const patched = await h.patch(`/v1/webhook_endpoints/${e.id}`, { enabled_events: ["rate.updated"], description: null, url: `${receiver.url}/v2` });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ enabled_events: ["rate.updated"], description: null, url: `${receiver.url}/v2` });
    const disabled = await h.post(`/v1/webhook_endpoints/${e.id}/disable`);
    expect(disabled.json).toMatchObject({ status: "disabled", disabled_reason: "manual" });
    const enabled = await h.post(`/v1/webhook_endpoints/${e.id}/enable`);
    expect(enabled.json).toMatchObject({ status: "enabled", disabled_reason: null });
    const removed = await h.del(`/v1/webhook_endpoints/${e.id}`);
    expect(removed.json).toEqual({ id: e.id, object: "webhook_endpoint", deleted: true });
    expectError(await h.get(`/v1/webhook_endpoints/${e.id}`), 404, "resource_missing", "id");
  });

  it("needs the webhooks:manage scope", async () => {
    const token = await h.keyWith(["reservations:read"]);
    const error = expectError(await h.get("/v1/webhook_endpoints", { token }), 403, "insufficient_scope");
    expect(error.message).toContain("webhooks:manage");
    expectError(await h.post("/v1/webhook_endpoints", { url: `${receiver.url}/x`, enabled_events: ["*"] }, { token }), 403, "insufficient_scope");
  });

  it("another account's and the other environment's endpoints, deliveries and backfills are 404", async () => {
    const mine = await createEndpoint();
    const theirs = await createEndpoint({}, { token: other.token });
    const sandbox = await createEndpoint({}, { sandbox: true });
    expect(sandbox.livemode).toBe(false);
    await newGuest();
    const delivery = await waitFor(async () => (await h.get(`/v1/webhook_endpoints/${mine.id}/deliveries`)).json.data[0], "a delivery");
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const backfill = await h.post(`/v1/webhook_endpoints/${mine.id}/backfill`, { since, until: new Date().toISOString() });
    expect(backfill.status, backfill.text).toBe(202);

    for (const [id, opts] of [
      [theirs.id, {}],
      [sandbox.id, {}],
      [mine.id, { sandbox: true }],
      [mine.id, { token: other.token }],
    ] as const) {
      expectError(await h.get(`/v1/webhook_endpoints/${id}`, opts), 404, "resource_missing", "id");
      expectError(await h.patch(`/v1/webhook_endpoints/${id}`, { description: "x" }, opts), 404, "resource_missing", "id");
      expectError(await h.del(`/v1/webhook_endpoints/${id}`, opts), 404, "resource_missing", "id");
      expectError(await h.post(`/v1/webhook_endpoints/${id}/rotate_secret`, {}, opts), 404, "resource_missing", "id");
      expectError(await h.post(`/v1/webhook_endpoints/${id}/disable`, {}, opts), 404, "resource_missing", "id");
      expectError(await h.get(`/v1/webhook_endpoints/${id}/deliveries`, opts), 404, "resource_missing", "id");
    }
    expectError(await h.get(`/v1/deliveries/${delivery.id}`, { sandbox: true }), 404, "resource_missing", "id");
    expectError(await h.get(`/v1/deliveries/${delivery.id}`, { token: other.token }), 404, "resource_missing", "id");
    expectError(await h.get(`/v1/webhook_endpoints/${mine.id}/backfills/${backfill.json.id}`, { sandbox: true }), 404, "resource_missing", "id");
    expectError(await h.get(`/v1/webhook_endpoints/${sandbox.id}/backfills/${backfill.json.id}`, { sandbox: true }), 404, "resource_missing", "backfill_id");
    const lists = await h.get("/v1/webhook_endpoints", { sandbox: true });
    expect(lists.json.data.map((e: { id: string }) => e.id)).toEqual([sandbox.id]);
  });

  it("sandbox events go only to sandbox endpoints, live events only to live ones", async () => {
    const live = await createEndpoint({ url: `${receiver.url}/live-only`, enabled_events: ["guest.created"] });
    const sandbox = await createEndpoint({ url: `${receiver.url}/sandbox-only`, enabled_events: ["guest.created"] }, { sandbox: true });
    const g1 = await newGuest({ sandbox: true });
    const g2 = await newGuest();
    await waitFor(() => receiver.requests.some((r) => r.url === "/sandbox-only" && r.body.includes(g1.json.id)), "the sandbox delivery");
    await waitFor(() => receiver.requests.some((r) => r.url === "/live-only" && r.body.includes(g2.json.id)), "the live delivery");
    const sandboxBodies = receiver.requests.filter((r) => r.url === "/sandbox-only").map((r) => JSON.parse(r.body));
    expect(sandboxBodies.every((b) => b.livemode === false)).toBe(true);
    expect(receiver.requests.filter((r) => r.url === "/live-only").every((r) => JSON.parse(r.body).livemode === true)).toBe(true);
    expect(receiver.requests.some((r) => r.url === "/live-only" && r.body.includes(g1.json.id))).toBe(false);
    await h.del(`/v1/webhook_endpoints/${live.id}`);
    await h.del(`/v1/webhook_endpoints/${sandbox.id}`, { sandbox: true });
  });
});

describe("deliveries", () => {
  it("lists an endpoint's deliveries with the status, event_id and event_type filters", async () => {
    const e = await createEndpoint({ url: `${receiver.url}/filters` });
    const g = await newGuest();
    const [event] = (await h.get("/v1/events?type=guest.created&limit=1")).json.data;
    expect(event.data.object.id).toBe(g.json.id);
    await waitFor(async () => (await h.get(`/v1/webhook_endpoints/${e.id}/deliveries?status=succeeded`)).json.data.length >= 1, "succeeded");
    const byEvent = await h.get(`/v1/webhook_endpoints/${e.id}/deliveries?event_id=${event.id}`);
    expect(byEvent.json.data).toHaveLength(1);
    expect(byEvent.json.data[0]).toMatchObject({ event_id: event.id, event_type: "guest.created", status: "succeeded" });
    expect((await h.get(`/v1/webhook_endpoints/${e.id}/deliveries?event_type=rate.updated`)).json.data).toEqual([]);
    expect((await h.get(`/v1/webhook_endpoints/${e.id}/deliveries?status=failed`)).json.data).toEqual([]);
    expectError(await h.get(`/v1/webhook_endpoints/${e.id}/deliveries?status=lost`), 400, "parameter_invalid", "status");
    await h.del(`/v1/webhook_endpoints/${e.id}`);
  });
});

describe("replay", () => {
  it("202 with a new delivery of the same event id", async () => {
    const e = await createEndpoint({ url: `${receiver.url}/replay` });
    await newGuest();
    const [event] = (await h.get("/v1/events?type=guest.created&limit=1")).json.data;
    await waitFor(() => receiver.requests.filter((r) => r.url === "/replay").length === 1, "first delivery");
    const res = await h.post(`/v1/webhook_endpoints/${e.id}/replay`, { event_id: event.id });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toEqual({ replayed: true, event_id: event.id, delivery_id: expect.stringMatching(/^del_/), status: "queued" });
    await waitFor(() => receiver.requests.filter((r) => r.url === "/replay").length === 2, "the replay");
    const bodies = receiver.requests.filter((r) => r.url === "/replay").map((r) => JSON.parse(r.body).id);
    expect(bodies).toEqual([event.id, event.id]);
    await h.del(`/v1/webhook_endpoints/${e.id}`);
  });

  it("refuses events older than 72 hours, unselected types and foreign events", async () => {
    const e = await createEndpoint({ url: `${receiver.url}/replay-rules`, enabled_events: ["rate.updated"] });
    await newGuest();
    const [event] = (await h.get("/v1/events?type=guest.created&limit=1")).json.data;
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/replay`, { event_id: event.id }), 422, "parameter_invalid", "event_id");
    await h.patch(`/v1/webhook_endpoints/${e.id}`, { enabled_events: ["*"] });
    await h.db.update(events).set({ createdAt: new Date(Date.now() - 73 * 3_600_000) }).where(eq(events.id, event.id));
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/replay`, { event_id: event.id }), 422, "outside_replay_window", "event_id");
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/replay`, { event_id: "evt_nope" }), 404, "resource_missing", "event_id");
    await newGuest({ token: other.token });
    const [foreign] = (await h.get("/v1/events?type=guest.created&limit=1", { token: other.token })).json.data;
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/replay`, { event_id: foreign.id }), 404, "resource_missing", "event_id");
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/replay`, {}), 422, "parameter_missing", "event_id");
    await h.del(`/v1/webhook_endpoints/${e.id}`);
  });
});

describe("backfill", () => {
  it("queues a window's events in their original order and reports progress", async () => {
    const since = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 2)); // earlier tests' events fall before the window
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await newGuest()).json.id);
    await h.post("/v1/guests", { first_name: "x", last_name: "y", email: `api${n}@example.com` }); // a refused duplicate: no event
    const until = new Date(Date.now() + 1).toISOString();
    await new Promise((r) => setTimeout(r, 5));
    const e = await createEndpoint({ url: `${receiver.url}/backfill`, enabled_events: ["guest.created"] });
    const res = await h.post(`/v1/webhook_endpoints/${e.id}/backfill`, { since, until, event_types: ["guest.created"] });
    expect(res.status, res.text).toBe(202);
    expect(res.json).toMatchObject({ object: "backfill", endpoint_id: e.id, since, event_types: ["guest.created"], status: "queued", events_total: 6, events_queued: 0 });
    expect(res.json.id).toMatch(/^bf_/);
    const done = await waitFor(async () => {
      const p = await h.get(`/v1/webhook_endpoints/${e.id}/backfills/${res.json.id}`);
      return p.json.status === "completed" ? p.json : undefined;
    }, "backfill completed");
    expect(done.events_queued).toBe(6);
    await waitFor(() => receiver.requests.filter((r) => r.url === "/backfill").length === 6, "six deliveries");
    const order = receiver.requests.filter((r) => r.url === "/backfill").map((r) => JSON.parse(r.body).data.object.id);
    expect(order).toEqual(ids);
    await h.del(`/v1/webhook_endpoints/${e.id}`);
  });

  it("refuses windows beyond 72 hours, backwards windows, unselected types and over 10,000 events", async () => {
    const e = await createEndpoint({ url: `${receiver.url}/bf-rules`, enabled_events: ["guest.created"] });
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/backfill`, { since: iso(now - 73 * 3_600_000), until: iso(now) }), 422, "outside_replay_window", "since");
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/backfill`, { since: iso(now - 1000), until: iso(now - 2000) }), 422, "parameter_invalid", "until");
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/backfill`, { since: iso(now - 1000), until: iso(now), event_types: ["rate.updated"] }), 422, "parameter_invalid", "event_types");
    expectError(await h.post(`/v1/webhook_endpoints/${e.id}/backfill`, { since: "yesterday", until: iso(now) }), 422, "parameter_invalid", "since");
    const base = new Date(now - 3_600_000);
    // Real events (not written fanned out: that marks a test event, which backfills leave out). The
    // fan-out gives them to no endpoint, since every endpoint of this run is younger than they are.
    const rows = Array.from({ length: 10_001 }, (_, i) => ({
      id: `evt_bulk${i}`, accountId: h.main.account.id, livemode: true, propertyId: null, type: "guest.created",
      apiVersion: "2025-09-01", object: {}, createdAt: new Date(base.getTime() + i),
    }));
    for (let i = 0; i < rows.length; i += 2000) await h.db.insert(events).values(rows.slice(i, i + 2000));
    expectError(
      await h.post(`/v1/webhook_endpoints/${e.id}/backfill`, { since: iso(base.getTime()), until: iso(base.getTime() + 20_000) }),
      422, "parameter_invalid", "since",
    );
    await h.del(`/v1/webhook_endpoints/${e.id}`);
  });
});
