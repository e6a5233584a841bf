import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookAttempts, webhookDeliveries } from "@/db/schema";
import { rowsOf } from "@/db/client";
import { emitEvents } from "@/server/events/emit";
import { makeAttempt } from "@/server/webhooks/attempt-delivery";
import { recordAttempts } from "@/server/webhooks/batch";
import { claimDeliveries } from "@/server/webhooks/claim";
import { fanOutEvents } from "@/server/webhooks/fan-out";
import { startHarness, type Harness } from "../support/harness";
import { leasedOf, startReceiver, startTestDispatcher, testSettings, waitFor, type Receiver } from "../support/webhooks";

// The dispatcher's batches (docs/webhooks.md, "How fast"): a claim leases at most 16 deliveries
// of one endpoint at a time and leaves a full endpoint's backlog aside for the others; a batch of
// records moves only the deliveries whose lease is still ours; the dispatcher never has more than
// 16 attempts in flight to one endpoint, while another endpoint's deliveries go on meanwhile.

let h: Harness;
let receiver: Receiver;
const tenant = () => ({ accountId: h.main.account.id, livemode: true, propertyIds: null });
const deps = () => ({ db: h.db, settings: testSettings() });

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

async function endpoint(path: string) {
  const created = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}${path}`, enabled_events: ["guest.created"] });
  expect(created.status, created.text).toBe(201);
  return created.json.id as string;
}
const disable = (id: string) => h.post(`/v1/webhook_endpoints/${id}/disable`, {});
async function emitGuests(count: number, tag: string) {
  await emitEvents(
    h.db,
    tenant(),
    Array.from({ length: count }, (_, i) => ({ type: "guest.created" as const, propertyId: null, object: { id: `gst_${tag}${i}`, object: "guest" } })),
  );
  // With a state, as the dispatcher runs it: the events just committed are taken even while a
  // transaction older than theirs is open somewhere on the server (another test file's database
  // on the same PostgreSQL), which a settled-only pass would wait for.
  // Until every one is fanned out: a pass that finds nothing new does not mean that (under a
  // loaded PostgreSQL an event may be read again only once older transactions end), so the
  // deliveries are counted: one per event and endpoint of the account (all select guest.created).
  const state = { ahead: null };
  const [{ endpoints }] = rowsOf<{ endpoints: number }>(
    await h.db.execute(sql`select count(*)::int as endpoints from webhook_endpoints where account_id = ${tenant().accountId} and livemode = ${tenant().livemode}`),
  );
  const delivered = async () =>
    rowsOf<{ n: number }>(
      await h.db.execute(sql`select count(*)::int as n from webhook_deliveries d join events e on e.id = d.event_id where e.account_id = ${tenant().accountId} and e.object->>'id' like ${`gst_${tag}%`}`),
    )[0].n;
  for (let pass = 0; (await delivered()) < count * endpoints; pass++) {
    if (pass > 200) throw new Error(`fan-out: ${await delivered()} of ${count * endpoints} deliveries after 200 passes`);
    if ((await fanOutEvents(h.db, 500, state)).events === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The receiver answers every request after `ms`, counting what it received, what is in flight and what it answered. */
function slowAnswers(ms: number) {
  const counts = { received: 0, inFlight: 0, answered: 0 };
  receiver.setHandler((_req, res) => {
    counts.received++;
    counts.inFlight++;
    setTimeout(() => {
      counts.inFlight--;
      counts.answered++;
      res.end("ok");
    }, ms);
  });
  return counts;
}

describe("claiming and recording in batches", () => {
  it("claims at most 16 of one endpoint, none of an endpoint already at 16, and records only what it still holds", async () => {
    const a = await endpoint("/batch-a");
    const b = await endpoint("/batch-b");
    await emitGuests(20, "batch");
    // 20 due for each endpoint; room for 64 in all.
    const first = (await claimDeliveries(deps(), { due: { limit: 64, perEndpoint: 16, busy: new Map() } })).claimed;
    const count = (list: typeof first, id: string) => list.filter((c) => c.endpoint.id === id).length;
    expect(count(first, a)).toBe(16);
    expect(count(first, b)).toBe(16);
    expect(first).toHaveLength(32);
    // A is at its 16 (as if still sending); B has 6 in flight: A's last 4 wait, B's 4 come.
    const second = (await claimDeliveries(deps(), { due: { limit: 64, perEndpoint: 16, busy: new Map([[a, 16], [b, 6]]) } })).claimed;
    expect(count(second, a)).toBe(0);
    expect(count(second, b)).toBe(4);
    // Every claimed row carries what its attempt needs.
    expect(second[0].event.type).toBe("guest.created");
    expect(second[0].secrets).toHaveLength(1);

    // Two attempts made; one delivery's lease ran out meanwhile and another worker took it over.
    const [mine, taken] = second;
    const finished = await Promise.all([makeAttempt(deps(), mine, 1), makeAttempt(deps(), taken, 1)]);
    await h.db.update(webhookDeliveries).set({ leaseToken: "another-worker" }).where(eq(webhookDeliveries.id, taken.delivery.id));
    const recorded = await recordAttempts(deps(), finished);
    expect([...recorded]).toEqual([mine.delivery.id]);
    const rows = await h.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, [mine.delivery.id, taken.delivery.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(mine.delivery.id)).toMatchObject({ status: "succeeded", attemptCount: 1, leaseToken: null, leaseUntil: null, nextAttemptAt: null });
    expect(byId.get(taken.delivery.id)).toMatchObject({ status: "queued", attemptCount: 0, leaseToken: "another-worker" });
    const attempts = await h.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, [mine.delivery.id, taken.delivery.id]));
    expect(attempts.map((x) => [x.deliveryId, x.number, x.outcome, x.responseStatus])).toEqual([[mine.delivery.id, 1, "succeeded", 200]]);
    expect(attempts[0].requestHeaders?.["service-delivery-id"]).toBe(mine.delivery.id);
    // Leave nothing due for the next test.
    await disable(a);
    await disable(b);
  });

  it("takes the oldest due deliveries across endpoints, each endpoint's oldest first, and none not yet due", async () => {
    const a = await endpoint("/order-a");
    const c = await endpoint("/order-c");
    await emitGuests(6, "order");
    const rows = await h.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.endpointId, [a, c]));
    expect(rows).toHaveLength(12);
    // Due times a minute apart from an hour ago, A's and C's interleaved (A at 0, 2, 4 … minutes,
    // C at 1, 3, 5 …); C's last is a retry due an hour from now.
    const base = Date.now() - 60 * 60_000;
    const byEndpoint = (id: string) => rows.filter((r) => r.endpointId === id).sort((x, y) => (x.id < y.id ? -1 : 1));
    const due = new Map<string, Date>();
    byEndpoint(a).forEach((r, i) => due.set(r.id, new Date(base + i * 2 * 60_000)));
    byEndpoint(c).forEach((r, i) => due.set(r.id, new Date(base + (i * 2 + 1) * 60_000)));
    const later = byEndpoint(c)[5];
    for (const r of rows) {
      const inAnHour = r.id === later.id;
      await h.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: inAnHour ? new Date(Date.now() + 60 * 60_000) : due.get(r.id)!, status: inAnHour ? "retry_scheduled" : "queued" })
        .where(eq(webhookDeliveries.id, r.id));
    }
    const oldestFirst = [...due].filter(([id]) => id !== later.id).sort((x, y) => +x[1] - +y[1]).map(([id]) => id);

    // Room for 5 in all: the 5 oldest, whichever endpoint they belong to (A, C, A, C, A).
    const five = (await claimDeliveries(deps(), { due: { limit: 5, perEndpoint: 16, busy: new Map() } })).claimed;
    expect(five.map((x) => x.delivery.id)).toEqual(oldestFirst.slice(0, 5));
    // A's 3 are in flight and A may have 4 at once: A's oldest left, and every due one of C, oldest first.
    const taken = new Set(five.map((x) => x.delivery.id));
    const left = (id: string) => byEndpoint(id).map((r) => r.id).filter((d) => !taken.has(d) && d !== later.id);
    const rest = (await claimDeliveries(deps(), { due: { limit: 64, perEndpoint: 4, busy: new Map([[a, 3]]) } })).claimed;
    expect(rest.map((x) => x.delivery.id)).toEqual([...left(a).slice(0, 1), ...left(c)].sort((x, y) => +due.get(x)! - +due.get(y)!));
    expect(rest.map((x) => x.delivery.id)).not.toContain(later.id);
    await disable(a);
    await disable(c);
  });
});

describe("the dispatcher's limits", () => {
  it("leases ahead at most as many again as an endpoint's slots, and lets the ready ones go when it stops", async () => {
    const answers = slowAnswers(1_000);
    const ahead = await endpoint("/ahead");
    await emitGuests(40, "ahead");
    const leased = () => leasedOf(h.db, ahead);
    const dispatcher = startTestDispatcher(h.db, { attemptTimeoutMs: 20_000 });
    try {
      await waitFor(() => answers.inFlight === 16, "16 attempts in flight");
      // 16 sending and 16 ready, of 40: the rest wait in the database for any process to take.
      await waitFor(async () => (await leased()) === 32, "32 deliveries leased");
      expect(answers.inFlight).toBe(16);
    } finally {
      await dispatcher.stop();
    }
    // The 16 in flight were answered and recorded; the 16 ready ones were let go, not left leased.
    expect(answers.answered).toBe(16);
    expect(await leased()).toBe(0);
    const rows = await h.db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, ahead));
    expect(rows.filter((r) => r.status === "succeeded")).toHaveLength(16);
    expect(rows.filter((r) => r.status === "queued")).toHaveLength(24);
    await disable(ahead);
    receiver.setHandler((_req, res) => res.end("ok"));
  });

  it("lets go of a ready delivery that waited over a second, so an endpoint disabled meanwhile gets nothing more", async () => {
    const answers = slowAnswers(1_500);
    const slow = await endpoint("/disabled-ahead");
    await emitGuests(40, "disabledahead");
    const leased = () => leasedOf(h.db, slow);
    const dispatcher = startTestDispatcher(h.db, { attemptTimeoutMs: 20_000 });
    let stopped = false;
    try {
      await waitFor(async () => answers.inFlight === 16 && (await leased()) === 32, "16 in flight and 16 ready");
      await disable(slow);
      // The 16 answers come after 1.5 s; the ready 16 have waited longer than a second by then.
      await waitFor(async () => answers.inFlight === 0 && (await leased()) === 0, "the answers, and no delivery still leased");
      // None of the ready 16 goes out later, observed rather than waited for: a stopped
      // dispatcher has finished every send it started.
      await dispatcher.stop();
      stopped = true;
      expect(answers.received).toBe(16);
    } finally {
      if (!stopped) await dispatcher.stop();
      receiver.setHandler((_req, res) => res.end("ok"));
    }
  });

  it("has at most 16 attempts in flight to one endpoint, and another endpoint's deliveries go out meanwhile", async () => {
    const inFlight = new Map<string, number>();
    const peak = new Map<string, number>();
    const done = new Map<string, number>();
    const add = (map: Map<string, number>, path: string, n: number) => map.set(path, (map.get(path) ?? 0) + n).get(path)!;
    receiver.setHandler((req, res) => {
      const path = new URL(req.url!, "http://x").pathname;
      peak.set(path, Math.max(peak.get(path) ?? 0, add(inFlight, path, 1)));
      // The slow endpoint takes a second per answer; the other answers at once.
      setTimeout(
        () => {
          add(inFlight, path, -1);
          add(done, path, 1);
          res.end("ok");
        },
        path === "/slow" ? 1_000 : 0,
      );
    });
    const slow = await endpoint("/slow");
    await emitGuests(40, "slow");
    // A deadline well beyond the slow answers: an attempt given up on would leave its request
    // open at the receiver and count twice there.
    const dispatcher = startTestDispatcher(h.db, { attemptTimeoutMs: 20_000 });
    try {
      await waitFor(() => (done.get("/slow") ?? 0) >= 1, "the slow endpoint's first answer");
      // 5 more events, for both endpoints: the slow one has about 30 of its 45 still to send
      // (16 at a time, a second each), and the quick one does not wait behind them.
      const quick = await endpoint("/quick");
      await emitGuests(5, "quick");
      await waitFor(() => (done.get("/quick") ?? 0) >= 5, "the quick endpoint's deliveries");
      expect(done.get("/slow") ?? 0).toBeLessThan(45);
      await waitFor(() => (done.get("/slow") ?? 0) >= 45, "every delivery to the slow endpoint", 60_000);
      expect(peak.get("/slow")).toBe(16);
      expect(done.get("/quick")).toBe(5);
      await disable(quick);
    } finally {
      await dispatcher.stop();
      await disable(slow);
      receiver.setHandler((_req, res) => res.end("ok"));
    }
  });
});
