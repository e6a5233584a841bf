import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { createAccount } from "@/server/accounts/create-account";
import type { StaffRole } from "@/server/auth/users";
import { ApiError } from "@/server/errors";
import type { StaffSession } from "@/server/next-auth/session";
import { createContext } from "@/server/trpc/context";
import { mailOutbox } from "@/db/schema";
import { queueMail } from "@/server/events/mail-outbox";
import { eq } from "drizzle-orm";
import { createCaller } from "@/server/trpc/routers/_app";
import { testDatabase } from "../support/database";

let database: Database;
let accountId: string;
/** An account with nothing in it: lookups from it must find nothing. */
const otherAccountId = "acct_other";

const session = (role: StaffRole, account = accountId): StaffSession => ({
  user: { id: "usr_test", accountId: account, role, name: "Test", email: "staff@test.example" },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const caller = (role: StaffRole | null, livemode = true, account = accountId) =>
  createCaller({ db: database.db, session: role ? session(role, account) : null, livemode });

/** The TRPCError a call fails with, and the contract error behind it. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

beforeAll(async () => {
  database = await testDatabase();
  accountId = (await createAccount({ db: database.db, input: { name: "tRPC Hotels", plan: "growth" } })).id;
}, 120_000);
afterAll(() => database.close());

describe("tRPC dashboard API", { timeout: 30_000 }, () => {
  it("refuses calls without a staff session", async () => {
    expect((await failure(caller(null).guests.list({}))).code).toBe("UNAUTHORIZED");
  });

  it("refuses roles the access table leaves out, before any input is read", async () => {
    expect((await failure(caller("housekeeping").guests.list({}))).code).toBe("FORBIDDEN");
    expect((await failure(caller("housekeeping").guests.create({} as never))).code).toBe("FORBIDDEN");
    const props = await caller("housekeeping", false).properties.list();
    expect(props.data.map((p) => p.name)).toContain("Sandbox Harbor Hotel");
  });

  it("creates, reads and pages guests through the same services as /v1", async () => {
    const front = caller("front_desk");
    const created = await front.guests.create({ first_name: "Ada", last_name: "Lovelace", email: "Ada@Example.com" });
    expect(created).toMatchObject({ object: "guest", livemode: true, email: "Ada@Example.com" });
    expect(await front.guests.get({ id: created.id })).toEqual(created);
    const found = await front.guests.list({ email: "ada@example.com" });
    expect(found.data.map((g) => g.id)).toEqual([created.id]);

    await front.guests.create({ first_name: "Bo", last_name: "B", email: "bo@example.com" });
    const first = await front.guests.list({ limit: 1 });
    expect(first.has_more).toBe(true);
    const second = await front.guests.list({ limit: 1, cursor: first.next_cursor! });
    expect(second.data[0].id).not.toBe(first.data[0].id);
    // A cursor is bound to its filters, as on /v1.
    const wrong = await failure(front.guests.list({ limit: 1, cursor: first.next_cursor!, email: "bo@example.com" }));
    expect(wrong).toMatchObject({ code: "BAD_REQUEST", api: { code: "invalid_cursor", param: "cursor" } });
  });

  it("words input and service errors as the contract does, with the field in param", async () => {
    const manager = caller("manager");
    const invalid = await failure(manager.guests.create({ first_name: "A", last_name: "B", email: "not-an-email" }));
    expect(invalid).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "email" } });
    const unknown = await failure(manager.guests.create({ first_name: "A", last_name: "B", email: "x@example.com", vip: true } as never));
    expect(unknown.api).toMatchObject({ code: "parameter_unknown", param: "vip" });
    const nested = await failure(manager.guests.preferences.merge({ guest_id: "gst_x", loyalty: { points: -1 } }));
    expect(nested.api).toMatchObject({ code: "parameter_invalid", param: "loyalty.points" });

    await manager.guests.create({ first_name: "C", last_name: "D", email: "taken@example.com" });
    const taken = await failure(manager.guests.create({ first_name: "E", last_name: "F", email: "TAKEN@example.com" }));
    expect(taken).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "email" } });
  });

  it("keeps live, sandbox and other accounts apart: a foreign guest is resource_missing", async () => {
    const live = await caller("owner").guests.create({ first_name: "Live", last_name: "Only", email: "live.only@example.com" });
    const inSandbox = await failure(caller("owner", false).guests.get({ id: live.id }));
    expect(inSandbox).toMatchObject({ code: "NOT_FOUND", api: { code: "resource_missing" } });
    const elsewhere = await failure(caller("owner", true, otherAccountId).guests.get({ id: live.id }));
    expect(elsewhere.code).toBe("NOT_FOUND");
  });

  it("replaces and merges preferences", async () => {
    const owner = caller("owner");
    const guest = await owner.guests.create({ first_name: "Pref", last_name: "Erence", email: "prefs@example.com" });
    expect((await owner.guests.preferences.get({ guest_id: guest.id })).updated_at).toBeNull();
    await owner.guests.preferences.replace({ guest_id: guest.id, allergies: ["nuts"], room: { floor: "high", quiet: true }, loyalty: { tier: "Gold" } });
    const merged = await owner.guests.preferences.merge({ guest_id: guest.id, room: { quiet: null, bed: "king" } });
    expect(merged).toMatchObject({ allergies: ["nuts"], room: { floor: "high", bed: "king" }, loyalty: { tier: "Gold" } });
    expect(merged.room).not.toHaveProperty("quiet");
  });
});

describe("tRPC context", () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it("takes the data set from the header, else the switch's cookie, else live", () => {
    const base = { db: {} as Database["db"], session: null };
    expect(createContext({ ...base, headers: headers({ "service-environment": "sandbox" }) }).livemode).toBe(false);
    expect(createContext({ ...base, headers: headers({ cookie: "a=1; innkeep_environment=sandbox" }) }).livemode).toBe(false);
    expect(createContext({ ...base, headers: headers({ "service-environment": "live", cookie: "innkeep_environment=sandbox" }) }).livemode).toBe(true);
    expect(createContext({ ...base, headers: headers({}) }).livemode).toBe(true);
  });

  it("refuses an unknown environment as /v1 does", () => {
    const call = () => createContext({ db: {} as Database["db"], session: null, headers: headers({ "service-environment": "staging" }) });
    expect(call).toThrow(TRPCError);
    try {
      call();
    } catch (error) {
      expect((error as TRPCError).code).toBe("BAD_REQUEST");
      expect(((error as TRPCError).cause as ApiError).code).toBe("invalid_environment");
    }
  });

  it("records each dashboard change in the audit trail, shown only to roles that may see the object", async () => {
    const front = caller("front_desk");
    const created = await front.guests.create({ first_name: "Grace", last_name: "Hopper", email: "grace.audit@example.com" });
    await front.guests.update({ id: created.id, phone: "+1 555 0100" });
    const trail = await front.audit.list({ object_type: "guest", object_id: created.id });
    expect(trail.data.map((e) => e.action)).toEqual(["guest.updated", "guest.created"]);
    expect(trail.data[0]).toMatchObject({ actor: { id: "usr_test", email: "staff@test.example" }, changed: ["phone"] });
    expect(trail.data[0].before).toMatchObject({ phone: null });
    expect(trail.data[0].after).toMatchObject({ phone: "+1 555 0100" });
    expect((await failure(caller("housekeeping").audit.list({ object_type: "guest", object_id: created.id }))).code).toBe("FORBIDDEN");
    // Another account sees nothing of it.
    expect((await caller("owner", true, otherAccountId).audit.list({ object_type: "guest", object_id: created.id })).data).toEqual([]);
    // A refused change records nothing.
    await failure(front.guests.update({ id: created.id, email: "not-an-email" }));
    expect((await front.audit.list({ object_type: "guest", object_id: created.id })).data).toHaveLength(2);
  });

  it("mail.list: the account's outbox with each SMTP attempt, for owners and managers only", async () => {
    const id = await queueMail(database.db, { accountId, to: "dev@test.example", subject: "Webhook endpoint disabled", text: "we_1" });
    await database.db
      .update(mailOutbox)
      .set({ attempts: [{ number: 1, at: "2026-01-01T00:00:00.000Z", error: "451 Try again later" }], error: "451 Try again later" })
      .where(eq(mailOutbox.id, id));
    const [mail] = await caller("manager").mail.list();
    expect(mail).toMatchObject({ id, to: "dev@test.example", status: "pending", sent_at: null, error: "451 Try again later" });
    expect(mail.attempts).toEqual([{ number: 1, at: "2026-01-01T00:00:00.000Z", error: "451 Try again later" }]);
    expect(await caller("owner", true, otherAccountId).mail.list()).toEqual([]);
    expect((await failure(caller("front_desk").mail.list())).code).toBe("FORBIDDEN");
  });
});
