import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guestPreferences, guests } from "@/db/schema";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";

// Another account's objects, and the other environment's, do not exist for a caller: 404 on
// direct access (never 403), absent from lists, unchangeable (contract §1, §2).

let h: Harness;
let other: Awaited<ReturnType<Harness["newAccount"]>>;
/** One guest per (account, environment), all with the same e-mail: four separate data sets. */
const ids = { mineLive: "", mineSandbox: "", otherLive: "", otherSandbox: "" };
const email = "same.person@example.com";

beforeAll(async () => {
  h = await startHarness();
  other = await h.newAccount("Other Hotels");
  const create = async (token: string, sandbox: boolean, first_name: string) => {
    const res = await h.post("/v1/guests", { first_name, last_name: "Guest", email }, { token, sandbox });
    expect(res.status, res.text).toBe(201);
    expect(res.json.livemode).toBe(!sandbox);
    return res.json.id as string;
  };
  ids.mineLive = await create(h.main.token, false, "MineLive");
  ids.mineSandbox = await create(h.main.token, true, "MineSandbox");
  ids.otherLive = await create(other.token, false, "OtherLive");
  ids.otherSandbox = await create(other.token, true, "OtherSandbox");
});
afterAll(async () => h?.close());

const listIds = async (token: string, sandbox: boolean, query = "") => {
  const res = await h.get(`/v1/guests${query}`, { token, sandbox });
  expect(res.status).toBe(200);
  expect(res.json.has_more).toBe(false);
  return res.json.data.map((g: { id: string }) => g.id);
};

/** The guest ids the database holds for one account and environment. */
const stored = async (accountId: string, livemode: boolean) =>
  (await h.db.select({ id: guests.id }).from(guests).where(and(eq(guests.accountId, accountId), eq(guests.livemode, livemode)))).map((r) => r.id).sort();

describe("guests", () => {
  it("each environment of each account sees exactly its own guests", async () => {
    // The sandboxes also hold the seeded hotel's guests; each list is exactly its data set.
    const sets = [
      { token: h.main.token, accountId: h.main.account.id, sandbox: false, own: ids.mineLive },
      { token: h.main.token, accountId: h.main.account.id, sandbox: true, own: ids.mineSandbox },
      { token: other.token, accountId: other.account.id, sandbox: false, own: ids.otherLive },
      { token: other.token, accountId: other.account.id, sandbox: true, own: ids.otherSandbox },
    ];
    for (const { token, accountId, sandbox, own } of sets) {
      const listed = await listIds(token, sandbox, "?limit=100");
      expect([...listed].sort()).toEqual(await stored(accountId, !sandbox));
      expect(listed).toContain(own);
      for (const foreign of Object.values(ids).filter((id) => id !== own)) expect(listed).not.toContain(foreign);
    }
    expect(await listIds(h.main.token, false)).toEqual([ids.mineLive]);
    expect(await listIds(h.main.token, false, `?email=${encodeURIComponent(email)}`)).toEqual([ids.mineLive]);
    expect(await listIds(h.main.token, true, `?email=${encodeURIComponent(email.toUpperCase())}`)).toEqual([ids.mineSandbox]);
  });

  it("another account's guest answers 404 exactly like one that never existed", async () => {
    const foreign = [
      { id: ids.otherLive, sandbox: false },
      { id: ids.otherSandbox, sandbox: false },
      { id: ids.otherLive, sandbox: true },
      { id: ids.otherSandbox, sandbox: true },
    ];
    const shape = (error: { message: string; param?: string }, id: string) => ({ ...error, message: error.message.replace(id, "<id>") });
    const missing = expectError(await h.get("/v1/guests/gst_neverexisted"), 404, "resource_missing", "id");
    for (const { id, sandbox } of foreign) {
      for (const path of [`/v1/guests/${id}`, `/v1/guests/${id}/preferences`]) {
        const error = expectError(await h.get(path, { sandbox }), 404, "resource_missing", "id");
        expect(shape({ message: error.message, param: error.param }, id)).toEqual(shape({ message: missing.message, param: missing.param }, "gst_neverexisted"));
      }
    }
  });

  it("the account's own guest of the other environment is a 404 that names the environment that holds it", async () => {
    for (const { id, sandbox } of [
      { id: ids.mineSandbox, sandbox: false },
      { id: ids.mineLive, sandbox: true },
    ]) {
      for (const path of [`/v1/guests/${id}`, `/v1/guests/${id}/preferences`]) {
        const error = expectError(await h.get(path, { sandbox }), 404, "resource_missing", "id");
        expect(error.message).toContain(`No such guest: '${id}' in the ${sandbox ? "sandbox" : "live"} environment.`);
        expect(error.message).toContain(`It exists in this account's ${sandbox ? "live" : "sandbox"} environment`);
      }
    }
  });

  it("a foreign guest cannot be changed, nor its preferences", async () => {
    const before = await h.db.select().from(guests);
    for (const [id, sandbox] of [[ids.otherLive, false], [ids.mineSandbox, false], [ids.mineLive, true]] as const) {
      expectError(await h.patch(`/v1/guests/${id}`, { first_name: "Hijacked" }, { sandbox }), 404, "resource_missing", "id");
      expectError(await h.put(`/v1/guests/${id}/preferences`, { allergies: ["hijack"] }, { sandbox }), 404, "resource_missing", "id");
      expectError(await h.patch(`/v1/guests/${id}/preferences`, { room: { bed: "hijack" } }, { sandbox }), 404, "resource_missing", "id");
    }
    expect(await h.db.select().from(guests)).toEqual(before);
    expect(await h.db.select().from(guestPreferences)).toEqual([]);
  });

  it("e-mails are unique per account and environment, not across them", async () => {
    // The four guests above share one e-mail; a second in one data set is refused.
    expectError(await h.post("/v1/guests", { first_name: "Dup", last_name: "Guest", email }, { sandbox: true }), 422, "parameter_invalid", "email");
    const rows = await h.db.select().from(guests).where(eq(guests.emailKey, email));
    expect(rows).toHaveLength(4);
  });

  it("a cursor carries no data across: used in the other environment it still lists only that one", async () => {
    await h.post("/v1/guests", { first_name: "Second", last_name: "Live", email: "second.live@example.com" });
    const first = await h.get("/v1/guests?limit=1");
    expect(first.json.has_more).toBe(true);
    const crossed = await h.get(`/v1/guests?limit=1&cursor=${first.json.next_cursor}`, { sandbox: true });
    expect(crossed.status).toBe(200);
    for (const g of crossed.json.data) expect(g.livemode).toBe(false);
    expect(crossed.json.data.map((g: { id: string }) => g.id)).not.toContain(ids.mineLive);
  });
});

describe("properties", () => {
  it("lists only the account's properties of the environment asked for", async () => {
    const mineSandbox = await h.get("/v1/properties", { sandbox: true });
    const otherSandbox = await h.get("/v1/properties", { token: other.token, sandbox: true });
    expect(mineSandbox.json.data).toHaveLength(1);
    expect(otherSandbox.json.data).toHaveLength(1);
    expect(mineSandbox.json.data[0].id).not.toBe(otherSandbox.json.data[0].id);
    expect(mineSandbox.json.data[0].livemode).toBe(false);
    // A new account has only its sandbox hotel: live is empty.
    const live = await h.get("/v1/properties");
    expect(live.json).toEqual({ object: "list", data: [], has_more: false, next_cursor: null, prev_cursor: null });
  });

  it("another account's or environment's property answers 404", async () => {
    const mine = (await h.get("/v1/properties", { sandbox: true })).json.data[0];
    const theirs = (await h.get("/v1/properties", { token: other.token, sandbox: true })).json.data[0];
    expect((await h.get(`/v1/properties/${mine.id}`, { sandbox: true })).json).toEqual(mine);
    expectError(await h.get(`/v1/properties/${mine.id}`), 404, "resource_missing", "id");
    expectError(await h.get(`/v1/properties/${theirs.id}`, { sandbox: true }), 404, "resource_missing", "id");
    expectError(await h.get(`/v1/properties/${theirs.id}`), 404, "resource_missing", "id");
  });
});
