import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { events } from "@/db/schema";
import { createAccount } from "@/server/accounts/create-account";
import type { StaffRole } from "@/server/auth/users";
import { emitEvents } from "@/server/events/emit";
import { liveFeedFor, type LiveEvent } from "@/server/events/live";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { testDatabase } from "../support/database";
import { waitFor } from "../support/webhooks";

let database: Database;
let accountId: string;
let otherAccountId: string;

const session = (role: StaffRole, account: string): StaffSession => ({
  user: { id: "usr_live", accountId: account, role, name: "Live", email: "live@test.example" },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const caller = (role: StaffRole, account = accountId, livemode = true) => createCaller({ db: database.db, session: session(role, account), livemode });

/**
 * Until `count` subscriptions are registered with the process's feed: from then on each gets every
 * new event it follows. An observed moment, where a fixed wait ("give the subscription a moment")
 * was a guess.
 */
const subscribed = (count: number) => waitFor(() => liveFeedFor(database.db).size === count, `${count} live subscriptions`);

/** Collects what a subscription yields until `count` events arrived; leaving the loop ends the subscription. */
async function take(iterable: AsyncIterable<LiveEvent>, count: number): Promise<LiveEvent[]> {
  const out: LiveEvent[] = [];
  for await (const event of iterable) {
    out.push(event);
    if (out.length === count) break;
  }
  return out;
}

beforeAll(async () => {
  database = await testDatabase();
  accountId = (await createAccount({ db: database.db, input: { name: "Live Hotels", plan: "growth" } })).id;
  otherAccountId = (await createAccount({ db: database.db, input: { name: "Other Hotels", plan: "growth" } })).id;
}, 120_000);
afterAll(() => database.close());

describe("live events for the dashboard", { timeout: 30_000 }, () => {
  it("delivers a new event of the subscriber's account and data set, and nothing of another's", async () => {
    const stream = (await caller("front_desk").live.events({ types: ["guest.*"] })) as AsyncIterable<LiveEvent>;
    const received = take(stream, 1);
    await subscribed(1);
    await caller("front_desk", otherAccountId).guests.create({ first_name: "Not", last_name: "Mine", email: "other@live.example" });
    await caller("front_desk", accountId, false).guests.create({ first_name: "Sandbox", last_name: "Guest", email: "sandbox@live.example" });
    const mine = await caller("front_desk").guests.create({ first_name: "Ada", last_name: "Live", email: "ada@live.example" });
    const [event] = await received;
    expect(event).toMatchObject({ type: "guest.created", object_id: mine.id });
    expect(event.id).toMatch(/^evt_/);
  });

  it("follows a guest's changed details, and lets owners follow the night audit", async () => {
    const guest = await caller("front_desk").guests.create({ first_name: "Phoebe", last_name: "Live", email: "phoebe@live.example" });
    const guests = take((await caller("front_desk").live.events({ types: ["guest.*"] })) as AsyncIterable<LiveEvent>, 1);
    const audits = take((await caller("owner").live.events({ types: ["night_audit.completed"] })) as AsyncIterable<LiveEvent>, 1);
    await subscribed(2);
    await caller("front_desk").guests.update({ id: guest.id, phone: "+44 20 7946 0961" });
    expect(await guests).toMatchObject([{ type: "guest.updated", object_id: guest.id }]);
    // An audit's event as the night audit writes it (its object is not what is followed).
    const tenant = { accountId, livemode: true, propertyIds: null };
    await emitEvents(database.db, tenant, [{ type: "night_audit.completed", propertyId: null, object: { id: "na_live", object: "night_audit" } as never }]);
    expect(await audits).toMatchObject([{ type: "night_audit.completed" }]);
  });

  it("follows a guest's changed preferences, named by the guest (preferences have no id of their own)", async () => {
    const guest = await caller("front_desk").guests.create({ first_name: "Nell", last_name: "Live", email: "nell@live.example" });
    const followed = take((await caller("front_desk").live.events({ types: ["guest.*"] })) as AsyncIterable<LiveEvent>, 1);
    const exact = take((await caller("manager").live.events({ types: ["guest.preferences_updated"] })) as AsyncIterable<LiveEvent>, 1);
    await subscribed(2);
    await caller("front_desk").guests.preferences.merge({ guest_id: guest.id, allergies: ["peanuts"] });
    expect(await followed).toMatchObject([{ type: "guest.preferences_updated", object_id: guest.id, property_id: null }]);
    expect(await exact).toMatchObject([{ type: "guest.preferences_updated", object_id: guest.id }]);
  });

  it("reads the events table once per process, however many subscribe", async () => {
    const s1 = (await caller("owner").live.events({ types: ["guest.created"] })) as AsyncIterable<LiveEvent>;
    const s2 = (await caller("manager").live.events({ types: ["guest.*"] })) as AsyncIterable<LiveEvent>;
    const r1 = take(s1, 1);
    const r2 = take(s2, 1);
    await subscribed(2);
    const guest = await caller("owner").guests.create({ first_name: "Grace", last_name: "Live", email: "grace@live.example" });
    expect((await r1)[0].object_id).toBe(guest.id);
    expect((await r2)[0].object_id).toBe(guest.id);
    // Both streams ended: the feed stops reading.
    await subscribed(0);
  });

  it("refuses events a role may not see, and unknown types", async () => {
    const refusal = (role: StaffRole, types: string[]) =>
      caller(role)
        .live.events({ types: types as never })
        .then(
          async (it) => {
            for await (const _ of it as AsyncIterable<unknown>) break;
          },
          (e: unknown) => e,
        )
        .catch((e: unknown) => e);
    const refused = await refusal("housekeeping", ["guest.*"]);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("FORBIDDEN");
    // Payments are for those who take them: not housekeeping. (That a night audit ran, which moves
    // every page's business date, every role may hear; its flash report stays the reports' readers'.)
    expect(await refusal("housekeeping", ["payment.*"])).toMatchObject({ code: "FORBIDDEN" });
    await expect(caller("owner").live.events({ types: ["nope.*" as never] })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
  });

  it("a burst of 3,000 events within one second reaches a subscriber whole, and what follows it too", async () => {
    const feed = liveFeedFor(database.db);
    const received = new Set<string>();
    const unsubscribe = feed.subscribe({ accountId, livemode: true, propertyIds: null }, (type) => type === "guest.created", (e) => void received.add(e.id));
    try {
      const start = Date.now() + 5;
      const burst = Array.from({ length: 3_000 }, (_, i) => ({
        id: `evt_burst${String(i).padStart(5, "0")}`,
        accountId,
        livemode: true,
        propertyId: null,
        type: "guest.created",
        apiVersion: "2026-01-01",
        object: { object: "guest", id: `gst_burst${i}` },
        // Three events per millisecond: all 3,000 inside one second, three times a page of the feed.
        createdAt: new Date(start + Math.floor(i / 3)),
      }));
      for (let i = 0; i < burst.length; i += 500) await database.db.insert(events).values(burst.slice(i, i + 500));
      const deadline = Date.now() + 20_000;
      while (received.size < 3_000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(received.size).toBe(3_000);
      // The feed is not stuck behind the burst: the next event arrives as any other does.
      const after = await caller("front_desk").guests.create({ first_name: "After", last_name: "Burst", email: "after-burst@live.example" });
      const next = Date.now() + 10_000;
      while (received.size < 3_001 && Date.now() < next) await new Promise((r) => setTimeout(r, 100));
      expect(received.size).toBe(3_001);
      expect(after.id).toMatch(/^gst_/);
    } finally {
      unsubscribe();
    }
  });
});
