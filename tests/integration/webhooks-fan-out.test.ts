import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { openDatabase, type Database } from "@/db/client";
import { eventFanoutCursor, events, webhookDeliveries } from "@/db/schema";
import { emitEvent } from "@/server/events/emit";
import { eventsWaiting, fanOutEvents, type FanOutState } from "@/server/webhooks/fan-out";
import { startHarness, type Harness } from "../support/harness";
import { onPostgres } from "../support/database";

// The fan-out's cursor: every event becomes its deliveries exactly once, the event rows are never
// written again, and an event whose transaction commits after a newer one's is not passed over.

let h: Harness;
let endpointId = "";
const tenant = () => ({ accountId: h.main.account.id, livemode: true, propertyIds: null });

beforeAll(async () => {
  h = await startHarness();
  const created = await h.post("/v1/webhook_endpoints", { url: "https://hooks.example.com/in", enabled_events: ["guest.created"] });
  expect(created.status, created.text).toBe(201);
  endpointId = created.json.id;
});
afterAll(async () => {
  await h?.close();
});

const deliveriesOf = async (eventId: string) => (await h.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId))).map((d) => d.endpointId);
/** Fans out until nothing is left; answers how many events it took. */
async function drain() {
  let taken = 0;
  for (let round = 0; round < 20; round++) {
    const { events: n } = await fanOutEvents(h.db, 2);
    if (!n) return taken;
    taken += n;
  }
  throw new Error("the fan-out never ran dry");
}

describe("fan-out", () => {
  it("turns each event into its deliveries once, in batches, and leaves the event rows as written", async () => {
    await drain();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const guest = await h.post("/v1/guests", { first_name: "Fan", last_name: "Out", email: `fan${i}@example.com` });
      expect(guest.status, guest.text).toBe(201);
      ids.push((await h.get("/v1/events?type=guest.created&limit=1")).json.data[0].id);
    }
    const before = await h.db.select().from(events).where(eq(events.id, ids[0]));
    // Batches of two: the cursor carries the rest over to the next round.
    expect(await drain()).toBe(5);
    for (const id of ids) expect(await deliveriesOf(id)).toEqual([endpointId]);
    expect(await drain()).toBe(0);
    expect(await h.db.select().from(events).where(eq(events.id, ids[0]))).toEqual(before);
  });

  it("never fans out an event written as already fanned out (a test event goes to one endpoint only)", async () => {
    await drain();
    await h.db.insert(events).values({
      id: "evt_fanout_test_only",
      accountId: h.main.account.id,
      livemode: true,
      type: "guest.created",
      apiVersion: "2025-09-01",
      object: {},
      fannedOutAt: new Date(),
    });
    expect(await drain()).toBe(0);
    expect(await deliveriesOf("evt_fanout_test_only")).toEqual([]);
  });
});

describe.runIf(onPostgres)("fan-out beside transactions still open", () => {
  let second: Database;
  let raw: postgres.Sql;
  beforeAll(async () => {
    second = await openDatabase({ url: h.databaseUrl! });
    raw = postgres(h.databaseUrl!, { max: 1, onnotice: () => {} });
  });
  afterAll(async () => {
    await second?.close();
    await raw?.end();
  });

  /** An older transaction on the second connection: it writes its event, then stays open until `commit`. */
  async function olderTransaction(objectId: string) {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wroteFirst = new Promise<void>((resolve) => (written = resolve));
    const done = second.db.transaction(async (tx) => {
      await emitEvent(tx, tenant(), { type: "guest.created", propertyId: null, object: { id: objectId } });
      written();
      await held;
    });
    await wroteFirst;
    return {
      commit: async () => {
        release();
        await done;
      },
    };
  }

  it("does not pass over an event whose transaction began writing first and commits last", async () => {
    await drain();
    const older = await olderTransaction("gst_late");
    const newer = await h.post("/v1/guests", { first_name: "Early", last_name: "Bird", email: "early@example.com" });
    expect(newer.status, newer.text).toBe(201);
    const newerEvent = (await h.get("/v1/events?type=guest.created&limit=1")).json.data[0].id;

    // While the older transaction runs, neither event is taken: the newer one waits behind it.
    expect(await drain()).toBe(0);
    await older.commit();
    expect(await drain()).toBe(2);
    const [late] = await h.db.select({ id: events.id }).from(events).where(sql`${events.object}->>'id' = 'gst_late'`);
    expect(await deliveriesOf(late.id)).toEqual([endpointId]);
    expect(await deliveriesOf(newerEvent)).toEqual([endpointId]);
  });

  it("with the dispatcher's state, sends an event committed beside an older open transaction at once, and the older one's once it commits, each once", async () => {
    await drain();
    const state: FanOutState = { ahead: null };
    const [cursorBefore] = await h.db.select().from(eventFanoutCursor);
    const older = await olderTransaction("gst_ahead_late");
    const newer = await h.post("/v1/guests", { first_name: "Ahead", last_name: "Bird", email: "ahead@example.com" });
    expect(newer.status, newer.text).toBe(201);
    const newerEvent = (await h.get("/v1/events?type=guest.created&limit=1")).json.data[0].id;

    // The newer event goes out while the older transaction is still open; the cursor stays where it was.
    expect(await eventsWaiting(h.db, state)).toBe(true);
    const first = await fanOutEvents(h.db, 500, state);
    expect(first.events).toBe(1);
    expect(first.deliveryIds).toHaveLength(1);
    expect(await deliveriesOf(newerEvent)).toEqual([endpointId]);
    expect(await h.db.select().from(eventFanoutCursor)).toEqual([cursorBefore]);
    // Nothing more to take until the older transaction ends; asking again sends nothing twice.
    expect(await eventsWaiting(h.db, state)).toBe(false);
    expect(await fanOutEvents(h.db, 500, state)).toEqual({ events: 0, deliveryIds: [] });

    await older.commit();
    // Both are settled now: the older one's event goes out, the newer one's is read again and refused by the unique key.
    const second_ = await fanOutEvents(h.db, 500, state);
    expect(second_.events).toBe(2);
    expect(second_.deliveryIds).toHaveLength(1);
    const [late] = await h.db.select({ id: events.id }).from(events).where(sql`${events.object}->>'id' = 'gst_ahead_late'`);
    expect(await deliveriesOf(late.id)).toEqual([endpointId]);
    expect(await deliveriesOf(newerEvent)).toEqual([endpointId]);
    const [cursorAfter] = await h.db.select().from(eventFanoutCursor);
    expect(cursorAfter.eventId).toBe(newerEvent);
    expect(await eventsWaiting(h.db, state)).toBe(false);
    expect(await drain()).toBe(0);
  });

  it("two processes fanning out at once, with and without a state, make each delivery once and report it once", async () => {
    await drain();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const guest = await h.post("/v1/guests", { first_name: "Race", last_name: `Pass${i}`, email: `race${i}@example.com` });
      expect(guest.status, guest.text).toBe(201);
      ids.push((await h.get("/v1/events?type=guest.created&limit=1")).json.data[0].id);
    }
    const states: FanOutState[] = [{ ahead: null }, { ahead: null }];
    const reported: string[] = [];
    for (let round = 0; round < 20; round++) {
      // Batches of two, four passes at once on two connections: reads and writes interleave.
      const passes = await Promise.all([0, 1, 2, 3].map((i) => fanOutEvents(i % 2 ? second.db : h.db, 2, i < 2 ? states[i] : undefined)));
      for (const pass of passes) reported.push(...pass.deliveryIds);
      if (passes.every((p) => p.events === 0) && !(await eventsWaiting(h.db))) break;
    }
    expect(new Set(reported).size).toBe(reported.length);
    expect(reported).toHaveLength(ids.length);
    for (const id of ids) expect(await deliveriesOf(id)).toEqual([endpointId]);
  });

  it("lets one process fan out at a time: the other skips the round instead of waiting", async () => {
    await drain();
    const guest = await h.post("/v1/guests", { first_name: "Held", last_name: "Cursor", email: "held@example.com" });
    expect(guest.status, guest.text).toBe(201);
    const waiting = (await h.get("/v1/events?type=guest.created&limit=1")).json.data[0].id;
    await raw.begin(async (tx) => {
      await tx`select * from event_fanout_cursor where id = 1 for update`;
      // Were it to wait for the lock held here, this would never return; with or without a state.
      expect(await fanOutEvents(h.db)).toEqual({ events: 0, deliveryIds: [] });
      expect(await fanOutEvents(h.db, 500, { ahead: null })).toEqual({ events: 0, deliveryIds: [] });
    });
    expect(await deliveriesOf(waiting)).toEqual([]);
    expect(await drain()).toBe(1);
    expect(await deliveriesOf(waiting)).toEqual([endpointId]);
  });
});
