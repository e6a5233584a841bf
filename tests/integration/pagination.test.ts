import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guests } from "@/db/schema";
import { newId } from "@/server/ids";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// Cursor lists (contract §5; semantics of server/pagination.ts): newest first, `id` breaking
// ties, stable while rows are inserted; `has_more` speaks of the direction travelled.

type Guest = { id: string; created_at: string };
type ListPage = { object: "list"; data: Guest[]; has_more: boolean; next_cursor: string | null; prev_cursor: string | null };

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

async function page(token: string, query: string): Promise<ListPage> {
  const res = await h.get(`/v1/guests?${query}`, { token });
  expect(res.status, res.text).toBe(200);
  expect(res.json.object).toBe("list");
  return res.json;
}

const idsOf = (pages: ListPage[]) => pages.flatMap((p) => p.data.map((g) => g.id));
const tenantIds = async (accountId: string) =>
  new Set((await h.db.select({ id: guests.id }).from(guests).where(and(eq(guests.accountId, accountId), eq(guests.livemode, true)))).map((r) => r.id));

/** Newest first: created_at never increases along a walk. */
function expectNewestFirst(pages: ListPage[]) {
  const times = pages.flatMap((p) => p.data.map((g) => Date.parse(g.created_at)));
  for (let i = 1; i < times.length; i++) expect(times[i]).toBeLessThanOrEqual(times[i - 1]);
}

describe("walking a list that grows meanwhile", () => {
  it("forward then back through ~60 guests, limit 7, inserting between fetches: no gap, no duplicate", async () => {
    const { account, token } = await h.newAccount("Walkers");
    let made = 0;
    const insert = async () => {
      const res = await h.post("/v1/guests", { first_name: "Walk", last_name: `Er${made}`, email: `walker${made++}@example.com` }, { token });
      expect(res.status).toBe(201);
    };
    for (let i = 0; i < 60; i++) await insert();
    const atStart = await tenantIds(account.id);

    // Forward: rows inserted during the walk are newer than every cursor, so never met.
    const forward = [await page(token, "limit=7")];
    expect(forward[0].prev_cursor).toBeNull();
    while (forward.at(-1)!.next_cursor) {
      await insert();
      forward.push(await page(token, `limit=7&cursor=${forward.at(-1)!.next_cursor}`));
    }
    const seen = idsOf(forward);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(atStart);
    expect(forward).toHaveLength(Math.ceil(60 / 7));
    forward.forEach((p, i) => {
      const last = i === forward.length - 1;
      expect(p.data.length).toBe(last ? 60 - 7 * i : 7);
      expect(p.has_more).toBe(!last);
      expect(p.next_cursor === null).toBe(last);
      expect(p.prev_cursor === null).toBe(i === 0);
    });
    expectNewestFirst(forward);

    // Back from the last page: rows inserted meanwhile are newer, so they are met at the end.
    const backward = [forward.at(-1)!];
    while (backward[0].prev_cursor) {
      await insert();
      backward.unshift(await page(token, `limit=7&cursor=${backward[0].prev_cursor}`));
    }
    const back = idsOf(backward);
    expect(new Set(back).size).toBe(back.length);
    expect(new Set(back)).toEqual(await tenantIds(account.id));
    expect(back.length).toBe(made);
    backward.slice(0, -1).forEach((p, i) => {
      // Full pages, except the newest, which holds what is left at that end.
      if (i === 0) expect(p.data.length).toBeGreaterThan(0);
      else expect(p.data.length).toBe(7);
      expect(p.data.length).toBeLessThanOrEqual(7);
      expect(p.has_more).toBe(i !== 0); // more newer rows beyond, except on the newest page
      expect(p.prev_cursor === null).toBe(i === 0);
      expect(p.next_cursor).not.toBeNull();
    });
    expectNewestFirst(backward);
  });
});

describe("exact pages", () => {
  let token: string;
  let all: string[];

  beforeAll(async () => {
    // Twenty guests inserted at one instant: every boundary is a created_at tie, so only
    // `id` orders them, and a cursor that ignored it would skip or repeat rows.
    const acct = await h.newAccount("Ties");
    token = acct.token;
    const at = new Date("2026-01-01T00:00:00.000Z");
    await h.db.insert(guests).values(
      Array.from({ length: 20 }, (_, i) => ({
        id: newId("guest"),
        accountId: acct.account.id,
        livemode: true,
        firstName: "Tie",
        lastName: String(i),
        email: `tie${i}@example.com`,
        emailKey: `tie${i}@example.com`,
        createdAt: at,
        updatedAt: at,
      })),
    );
    all = idsOf([await page(token, "limit=100")]);
    expect(all).toHaveLength(20);
  });

  it("next and prev cursors lead to the same pages both ways", async () => {
    const p1 = await page(token, "limit=7");
    const p2 = await page(token, `limit=7&cursor=${p1.next_cursor}`);
    const p3 = await page(token, `limit=7&cursor=${p2.next_cursor}`);
    expect([...idsOf([p1]), ...idsOf([p2]), ...idsOf([p3])]).toEqual(all);
    expect([p1.has_more, p2.has_more, p3.has_more]).toEqual([true, true, false]);
    expect(p3.next_cursor).toBeNull();
    expect(p3.data).toHaveLength(6);

    const back2 = await page(token, `limit=7&cursor=${p3.prev_cursor}`);
    expect(idsOf([back2])).toEqual(idsOf([p2]));
    expect(back2.has_more).toBe(true);
    const back1 = await page(token, `limit=7&cursor=${back2.prev_cursor}`);
    expect(idsOf([back1])).toEqual(idsOf([p1]));
    expect(back1.has_more).toBe(false);
    expect(back1.prev_cursor).toBeNull();
    // And forward again from a page reached backwards.
    expect(idsOf([await page(token, `limit=7&cursor=${back1.next_cursor}`)])).toEqual(idsOf([p2]));
  });

  it("limit may change between pages; the cursor keeps its place", async () => {
    const p1 = await page(token, "limit=5");
    const rest = await page(token, `limit=100&cursor=${p1.next_cursor}`);
    expect([...idsOf([p1]), ...idsOf([rest])]).toEqual(all);
    expect(rest.has_more).toBe(false);
  });

  it("a last page that is exactly full says so: no empty page after it", async () => {
    const whole = await page(token, "limit=20");
    expect(whole.data).toHaveLength(20);
    expect([whole.has_more, whole.next_cursor, whole.prev_cursor]).toEqual([false, null, null]);
    const p1 = await page(token, "limit=10");
    const p2 = await page(token, `limit=10&cursor=${p1.next_cursor}`);
    expect(p2.data).toHaveLength(10);
    expect([p2.has_more, p2.next_cursor]).toEqual([false, null]);
    const back = await page(token, `limit=10&cursor=${p2.prev_cursor}`);
    expect(idsOf([back])).toEqual(idsOf([p1]));
    expect([back.has_more, back.prev_cursor]).toEqual([false, null]);
  });

  it("defaults to 25 items, accepts 1 and 100", async () => {
    const { token: many } = await h.newAccount("Many");
    for (let i = 0; i < 27; i++) expect((await h.post("/v1/guests", { first_name: "M", last_name: "M", email: `m${i}@example.com` }, { token: many })).status).toBe(201);
    const byDefault = await page(many, "");
    expect(byDefault.data).toHaveLength(25);
    expect(byDefault.has_more).toBe(true);
    expect((await page(many, "limit=1")).data).toHaveLength(1);
    const hundred = await page(many, "limit=100");
    expect(hundred.data).toHaveLength(27);
    expect(hundred.has_more).toBe(false);
  });

  it("an empty list", async () => {
    const { token: none } = await h.newAccount("Empty");
    expect(await page(none, "")).toEqual({ object: "list", data: [], has_more: false, next_cursor: null, prev_cursor: null });
  });
});

describe("refused", () => {
  it("limit outside 1–100 or not an integer: 400 parameter_invalid", async () => {
    for (const limit of ["0", "101", "abc", "-1", "1.5", "", "1e3"]) {
      expectError(await h.get(`/v1/guests?limit=${limit}`), 400, "parameter_invalid", "limit");
    }
    expectError(await h.get("/v1/properties?limit=0", { sandbox: true }), 400, "parameter_invalid", "limit");
  });

  it("offset: 400 parameter_invalid on every list", async () => {
    expectError(await h.get("/v1/guests?offset=0"), 400, "parameter_invalid", "offset");
    expectError(await h.get("/v1/guests?limit=5&offset=10"), 400, "parameter_invalid", "offset");
    expectError(await h.get("/v1/properties?offset=1"), 400, "parameter_invalid", "offset");
  });

  it("invalid_cursor: garbage, or a cursor made for another list or other filters", async () => {
    for (let i = 0; i < 3; i++) await h.post("/v1/guests", { first_name: "C", last_name: "C", email: `cursor${i}@example.com` });
    const first = await page(h.main.token, "limit=1");
    const cursor = first.next_cursor!;

    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
    const [dir, ms, id, fingerprint] = JSON.parse(Buffer.from(cursor, "base64url").toString());
    const garbage = [
      "abc",
      "!!!!",
      b64({}),
      b64(["n", ms, id]),
      b64(["x", ms, id, fingerprint]),
      b64([dir, -1, id, fingerprint]),
      b64([dir, ms, "", fingerprint]),
      // Forged within the format: a time past JavaScript's dates, an id the database cannot hold.
      b64([dir, 8.64e15 + 1, id, fingerprint]),
      b64([dir, Number.MAX_SAFE_INTEGER, id, fingerprint]),
      b64([dir, ms, "gst_\u0000", fingerprint]),
      b64([dir, ms, "x".repeat(300), fingerprint]),
      "x".repeat(513),
    ];
    for (const bad of garbage) {
      const res = await h.get(`/v1/guests?cursor=${encodeURIComponent(bad)}`);
      if (bad.length > 512) expectError(res, 400, "parameter_invalid", "cursor");
      else expectError(res, 400, "invalid_cursor", "cursor");
    }
    // Made for the guest list without filters: not valid with a filter, nor on another list.
    expectError(await h.get(`/v1/guests?email=cursor0%40example.com&cursor=${cursor}`), 400, "invalid_cursor", "cursor");
    expectError(await h.get(`/v1/properties?cursor=${cursor}`), 400, "invalid_cursor", "cursor");
    // The genuine article still works.
    expect((await page(h.main.token, `limit=1&cursor=${cursor}`)).data).toHaveLength(1);
  });
});
