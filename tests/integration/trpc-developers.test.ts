import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeys, auditLog } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { ApiError } from "@/server/errors";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { queueMail } from "@/server/events/mail-outbox";
import { verifyWebhook } from "@/server/webhooks/verify-signature";
import { startHarness, type Harness } from "../support/harness";
import { firstAttemptsOnly, startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// The developer console's tRPC API (issue 10): the same services as /v1's webhooks, events and
// keys, plus the dashboard's reads (delivery log filters, endpoint health, hourly attempts,
// test event, outbox), all behind access.developers.

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;
const failing = new Set<string>();

const session = (role: StaffRole, accountId = h.main.account.id): StaffSession => ({
  user: { id: `usr_${role}`, accountId, role, name: role, email: `${role}@test.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const caller = (role: StaffRole, accountId?: string) => createCaller({ db: h.db, session: session(role, accountId), livemode: true });

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

let g = 0;
const guest = async () => {
  const res = await h.post("/v1/guests", { first_name: "Dev", last_name: "Console", email: `dev${++g}.${Date.now()}@example.com` });
  expect(res.status, res.text).toBe(201);
  return res.json.id as string;
};

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver((req, res) => {
    if (failing.has(req.url!)) res.writeHead(503, { "x-why": "down" }).end("maintenance");
    else res.writeHead(200, { "content-type": "text/plain" }).end("thanks");
  });
  dispatcher = startTestDispatcher(h.db, firstAttemptsOnly);
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

describe("developer console over tRPC", { timeout: 60_000 }, () => {
  it("refuses front_desk and housekeeping on every procedure, before reading input", async () => {
    for (const role of ["front_desk", "housekeeping"] as const) {
      const c = caller(role).developers;
      const calls: Promise<unknown>[] = [
        c.webhooks.list({}),
        c.webhooks.get({ id: "we_x" }),
        c.webhooks.create({} as never),
        c.webhooks.update({ id: "we_x" }),
        c.webhooks.delete({ id: "we_x" }),
        c.webhooks.revealSecret({ id: "we_x" }),
        c.webhooks.rotateSecret({ id: "we_x" } as never),
        c.webhooks.enable({ id: "we_x" }),
        c.webhooks.disable({ id: "we_x" }),
        c.webhooks.sendTest({ id: "we_x" }),
        c.webhooks.attemptsPerHour({ id: "we_x" } as never),
        c.webhooks.backfills({ endpoint_id: "we_x" }),
        c.webhooks.backfill({} as never),
        c.webhooks.backfillProgress({ endpoint_id: "we_x", id: "bf_x" }),
        c.deliveries.list({} as never),
        c.deliveries.get({ id: "del_x" }),
        c.deliveries.replay({ id: "del_x" }),
        c.events.list({} as never),
        c.events.get({ id: "evt_x" }),
        c.events.replay({ event_id: "evt_x" }),
        c.apiKeys.list(),
        c.apiKeys.get({ id: "key_x" }),
        c.apiKeys.create({} as never),
        c.apiKeys.revoke({ id: "key_x" }),
        c.outbox.list({} as never),
      ];
      for (const call of calls) expect((await failure(call)).code).toBe("FORBIDDEN");
    }
    // Trails of endpoints and keys are the developers area's too.
    expect((await failure(caller("front_desk").audit.list({ object_type: "webhook_endpoint", object_id: "we_x" }))).code).toBe("FORBIDDEN");
  });

  it("creates an endpoint with the API's URL rules and records it in the audit trail", async () => {
    const manager = caller("manager").developers;
    expect((await failure(manager.webhooks.create({ url: "ftp://example.com/x", enabled_events: ["*"] }))).api).toMatchObject({ code: "url_not_allowed", param: "url" });
    expect((await failure(manager.webhooks.create({ url: "https://u:p@example.com/x", enabled_events: ["*"] }))).api).toMatchObject({ code: "url_not_allowed" });
    expect((await failure(manager.webhooks.create({ url: "https://example.com/x", enabled_events: ["nope.event" as never] }))).api?.code).toBe("parameter_invalid");
    const before = (await manager.webhooks.list({})).data.length;
    expect(before).toBe(0);

    const created = await manager.webhooks.create({ url: `${receiver.url}/ok`, enabled_events: ["guest.created"], description: "CRM sync" });
    expect(created.secret).toMatch(/^whsec_/);
    const [entry] = await h.db.select().from(auditLog).where(eq(auditLog.objectId, created.id));
    expect(entry).toMatchObject({ action: "webhook_endpoint.created", actorEmail: "manager@test.example" });
    expect(JSON.stringify(entry.after)).not.toContain("whsec_");

    const updated = await manager.webhooks.update({ id: created.id, description: "CRM" });
    expect(updated.description).toBe("CRM");
    const other = await h.newAccount("Other Hotels");
    expect((await failure(caller("owner", other.account.id).developers.webhooks.get({ id: created.id }))).code).toBe("NOT_FOUND");
  });

  it("shows each delivery with its attempt: the request as signed and the receiver's answer", async () => {
    const owner = caller("owner").developers;
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/log`, enabled_events: ["guest.created"] });
    await guest();
    const list = await waitFor(async () => {
      const l = await owner.deliveries.list({ endpoint_id: endpoint.id });
      return l.data[0]?.outcome === "succeeded" ? l : null;
    }, "delivery succeeded");
    const row = list.data[0];
    expect(row).toMatchObject({ endpoint_url: `${receiver.url}/log`, event_type: "guest.created", last_attempt: { response_status: 200 } });

    const detail = await owner.deliveries.get({ id: row.id });
    const [attempt] = detail.attempts;
    expect(attempt.response).toMatchObject({ status: 200, body: "thanks" });
    expect(attempt.response.headers["content-type"]).toBe("text/plain");
    expect(attempt.request.url).toBe(`${receiver.url}/log`);
    // The body shown is byte for byte what the receiver got, and the stored signature verifies with the secret.
    const got = receiver.requests.find((r) => r.url === "/log")!;
    expect(attempt.request.body).toBe(got.body);
    expect(attempt.request.headers!["service-signature"]).toBe(got.headers["service-signature"]);
    expect(verifyWebhook(attempt.request.body, attempt.request.headers!["service-signature"], endpoint.secret, { toleranceSeconds: 600 }).id).toBe(detail.event_id);

    const health = (await owner.webhooks.list({})).data.find((e) => e.id === endpoint.id)!;
    expect(health.stats).toMatchObject({ attempts_24h: 1, success_rate_24h: 1, waiting: 0 });
    expect(health.stats.p95_latency_ms_24h).toBeGreaterThanOrEqual(0);
    const hours = await owner.webhooks.attemptsPerHour({ id: endpoint.id });
    expect(hours).toHaveLength(24);
    expect(hours.reduce((n, b) => n + b.succeeded, 0)).toBe(1);
  });

  it("filters by outcome and status class, pages with cursors bound to the filters, and replays a failed delivery", async () => {
    const owner = caller("owner").developers;
    failing.add("/flaky");
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/flaky`, enabled_events: ["guest.created"] });
    await guest();
    await guest();
    const pending = await waitFor(async () => {
      const l = await owner.deliveries.list({ endpoint_id: endpoint.id, status_class: "5xx" });
      return l.data.length === 2 ? l : null;
    }, "two 503 attempts");
    expect(pending.data.every((d) => d.outcome === "pending" && d.next_attempt_at && d.last_attempt?.response_status === 503)).toBe(true);
    expect((await owner.deliveries.list({ endpoint_id: endpoint.id, status_class: "2xx" })).data).toHaveLength(0);
    expect((await owner.deliveries.list({ endpoint_id: endpoint.id, outcome: "succeeded" })).data).toHaveLength(0);
    const detail = await owner.deliveries.get({ id: pending.data[0].id });
    expect(detail.attempts[0].response).toMatchObject({ status: 503, body: "maintenance", headers: { "x-why": "down" } });

    const first = await owner.deliveries.list({ endpoint_id: endpoint.id, status_class: "5xx", limit: 1 });
    expect(first.has_more).toBe(true);
    const second = await owner.deliveries.list({ endpoint_id: endpoint.id, status_class: "5xx", limit: 1, cursor: first.next_cursor! });
    expect(second.data[0].id).not.toBe(first.data[0].id);
    expect((await failure(owner.deliveries.list({ endpoint_id: endpoint.id, limit: 1, cursor: first.next_cursor! }))).api?.code).toBe("invalid_cursor");

    failing.delete("/flaky");
    const replay = await owner.deliveries.replay({ id: pending.data[0].id });
    expect(replay).toMatchObject({ replayed: true, event_id: pending.data[0].event_id, status: "queued" });
    await waitFor(async () => (await owner.deliveries.get({ id: replay.delivery_id })).status === "succeeded", "replay succeeded");
    const ok = await owner.deliveries.list({ endpoint_id: endpoint.id, outcome: "succeeded" });
    expect(ok.data.map((d) => d.id)).toEqual([replay.delivery_id]);
    expect((await owner.deliveries.list({ endpoint_id: endpoint.id, event_id: pending.data[0].event_id, outcome: "pending" })).data).toHaveLength(1);
    expect((await failure(owner.deliveries.list({ outcome: "lost" as never }))).api?.code).toBe("parameter_invalid");
  });

  it("holds deliveries of a disabled endpoint and lets them drain on re-enable", async () => {
    const owner = caller("owner").developers;
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/held`, enabled_events: ["guest.created"] });
    const disabled = await owner.webhooks.disable({ id: endpoint.id });
    expect(disabled).toMatchObject({ status: "disabled", disabled_reason: "manual" });
    expect((await owner.webhooks.get({ id: endpoint.id })).disabled_at).not.toBeNull();
    await guest();
    const held = await waitFor(async () => {
      const l = await owner.deliveries.list({ endpoint_id: endpoint.id, outcome: "held" });
      return l.data.length ? l : null;
    }, "held delivery");
    expect(held.data[0].attempt_count).toBe(0);
    expect((await owner.webhooks.get({ id: endpoint.id })).stats.waiting).toBe(1);
    await owner.webhooks.enable({ id: endpoint.id });
    await waitFor(async () => (await owner.deliveries.list({ endpoint_id: endpoint.id, outcome: "succeeded" })).data.length === 1, "held delivery drained");
    expect((await owner.webhooks.get({ id: endpoint.id })).disabled_at).toBeNull();
  });

  it("sends a signed ping test event, recorded like any delivery, outside the event log", async () => {
    const owner = caller("owner").developers;
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/ping`, enabled_events: ["reservation.created"] });
    const sent = await owner.webhooks.sendTest({ id: endpoint.id });
    const got = await waitFor(() => receiver.requests.find((r) => r.url === "/ping"), "ping received");
    const event = verifyWebhook(got.body, got.headers["service-signature"], endpoint.secret);
    expect(event).toMatchObject({ id: sent.event_id, type: "ping", data: { object: { object: "ping", endpoint_id: endpoint.id } } });
    await waitFor(async () => (await owner.deliveries.get({ id: sent.delivery_id })).status === "succeeded", "ping recorded");
    expect((await owner.deliveries.list({ endpoint_id: endpoint.id, event_type: "ping" })).data[0]).toMatchObject({ source: "test", outcome: "succeeded" });
    expect((await owner.events.list({})).data.some((e) => e.id === sent.event_id)).toBe(false);
    expect((await h.get(`/v1/events/${sent.event_id}`)).status).toBe(404);
  });

  it("reveals and rotates the secret, with the old one valid for the overlap", async () => {
    const owner = caller("owner").developers;
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/rot`, enabled_events: ["*"] });
    const [current] = await owner.webhooks.revealSecret({ id: endpoint.id });
    expect(current).toMatchObject({ secret: endpoint.secret, expires_at: null });
    const rotated = await owner.webhooks.rotateSecret({ id: endpoint.id, expires_in_seconds: 3600 });
    const secrets = await owner.webhooks.revealSecret({ id: endpoint.id });
    expect(secrets.map((s) => s.secret)).toEqual([rotated.secret, endpoint.secret]);
    expect(Math.abs(new Date(secrets[1].expires_at!).getTime() - Date.now() - 3_600_000)).toBeLessThan(10_000);
    expect((await failure(owner.webhooks.rotateSecret({ id: endpoint.id, expires_in_seconds: -1 }))).api?.param).toBe("expires_in_seconds");
    const actions = (await h.db.select().from(auditLog).where(eq(auditLog.objectId, endpoint.id))).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(["webhook_endpoint.secret_revealed", "webhook_endpoint.secret_rotated"]));
  });

  it("lists events with where each went, replays one, and backfills a window with progress", async () => {
    const owner = caller("owner").developers;
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/events`, enabled_events: ["guest.created"] });
    const guestId = await guest();
    const events = await waitFor(async () => {
      const l = await owner.events.list({ type: "guest.created", limit: 5 });
      return l.data.find((e) => (e.data.object as { id: string }).id === guestId) ? l : null;
    }, "event listed");
    const event = events.data.find((e) => (e.data.object as { id: string }).id === guestId)!;
    const withDeliveries = await waitFor(async () => {
      const e = await owner.events.get({ id: event.id });
      return e.deliveries.some((d) => d.endpoint_id === endpoint.id && d.outcome === "succeeded") ? e : null;
    }, "event delivered");
    expect(withDeliveries.deliveries.find((d) => d.endpoint_id === endpoint.id)?.endpoint_url).toBe(`${receiver.url}/events`);
    const replayed = await owner.events.replay({ event_id: event.id, endpoint_ids: [endpoint.id] });
    expect(replayed).toMatchObject([{ endpoint_id: endpoint.id, replayed: true }]);
    expect((await failure(owner.events.list({ type: "ping" as never }))).api?.code).toBe("parameter_invalid");

    const since = new Date(Date.now() - 3_600_000).toISOString();
    const backfill = await owner.webhooks.backfill({ endpoint_id: endpoint.id, since, until: new Date().toISOString() });
    expect(backfill.events_total).toBeGreaterThanOrEqual(1);
    const done = await waitFor(async () => {
      const p = await owner.webhooks.backfillProgress({ endpoint_id: endpoint.id, id: backfill.id });
      return p.finished ? p : null;
    }, "backfill finished");
    expect(done).toMatchObject({ sent: backfill.events_total, failed: 0, waiting: 0, events_queued: backfill.events_total });
    expect((await owner.webhooks.backfills({ endpoint_id: endpoint.id }))[0].id).toBe(backfill.id);
    const tooOld = await failure(owner.webhooks.backfill({ endpoint_id: endpoint.id, since: new Date(Date.now() - 100 * 3_600_000).toISOString(), until: since }));
    expect(tooOld.api).toMatchObject({ code: "outside_replay_window", param: "since" });
  });

  it("creates keys with checked allow-lists, shows last use, and revokes them", async () => {
    const owner = caller("owner").developers;
    const bad = await failure(owner.apiKeys.create({ name: "bad", scopes: ["rooms:read"], allowed_ips: ["127.0.0.1", "10.0.0.0/99"] }));
    expect(bad.api).toMatchObject({ code: "parameter_invalid", param: "allowed_ips.1" });
    expect((await failure(owner.apiKeys.create({ scopes: [] }))).api?.param).toBe("scopes");
    const count = (await owner.apiKeys.list()).length;

    const created = await owner.apiKeys.create({ name: "Channel manager", scopes: ["rooms:read"], allowed_ips: ["127.0.0.1"] });
    expect(created.key).toMatch(/^hk_/);
    expect(created).toMatchObject({ allowed_ips: ["127.0.0.1/32"], last_used_at: null, revoked_at: null });
    const listed = await owner.apiKeys.list();
    expect(listed).toHaveLength(count + 1);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    expect((await h.get("/v1/properties", { token: created.key })).status).toBe(200);
    const used = await owner.apiKeys.get({ id: created.id });
    expect(used.last_used_at).not.toBeNull();
    // At most one write a minute: a second call leaves the stamp as it was.
    await h.get("/v1/properties", { token: created.key });
    expect((await owner.apiKeys.get({ id: created.id })).last_used_at).toBe(used.last_used_at);

    const narrow = await owner.apiKeys.create({ scopes: ["rooms:read"], allowed_ips: ["203.0.113.0/24"] });
    expect((await h.get("/v1/properties", { token: narrow.key })).json.error.code).toBe("ip_not_allowed");

    const revoked = await owner.apiKeys.revoke({ id: created.id });
    expect(revoked.revoked_at).not.toBeNull();
    const refused = await h.get("/v1/properties", { token: created.key });
    expect(refused.status).toBe(401);
    expect(refused.json.error.code).toBe("token_revoked");
    expect((await failure(owner.apiKeys.revoke({ id: created.id }))).api?.code).toBe("invalid_state_transition");
    const other = await h.newAccount("Elsewhere");
    expect((await failure(caller("owner", other.account.id).developers.apiKeys.revoke({ id: narrow.id }))).code).toBe("NOT_FOUND");
    expect((await h.db.select().from(apiKeys).where(eq(apiKeys.id, narrow.id)))[0].revokedAt).toBeNull();
    const trail = await caller("manager").audit.list({ object_type: "api_key", object_id: created.id });
    expect(trail.data.map((e) => e.action)).toEqual(["api_key.revoked", "api_key.created"]);
  });

  it("lists the account's mail outbox with bodies, and no other account's", async () => {
    const owner = caller("owner").developers;
    await queueMail(h.db, { accountId: h.main.account.id, to: "dev@test.example", subject: "Endpoint disabled", text: "Body of the notice" });
    const other = await h.newAccount("Mailless");
    await queueMail(h.db, { accountId: other.account.id, to: "x@test.example", subject: "Not yours", text: "secret" });
    const mail = await owner.outbox.list({});
    expect(mail.data.map((m) => m.subject)).toContain("Endpoint disabled");
    expect(mail.data.map((m) => m.subject)).not.toContain("Not yours");
    expect(mail.data.find((m) => m.subject === "Endpoint disabled")).toMatchObject({ text: "Body of the notice", sent_at: null, to: "dev@test.example" });
  });

  it("deletes an endpoint after which it is gone", async () => {
    const owner = caller("owner").developers;
    const endpoint = await owner.webhooks.create({ url: `${receiver.url}/gone`, enabled_events: ["*"] });
    await owner.webhooks.delete({ id: endpoint.id });
    expect((await failure(owner.webhooks.get({ id: endpoint.id }))).code).toBe("NOT_FOUND");
    expect((await failure(owner.webhooks.delete({ id: endpoint.id }))).api?.code).toBe("resource_missing");
  });
});
