import { TRPCError } from "@trpc/server";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { accounts, auditLog, users as usersTable } from "@/db/schema";
import { createAccount } from "@/server/accounts/create-account";
import { createUser, verifyUserPassword, type StaffRole } from "@/server/auth/users";
import { ApiError } from "@/server/errors";
import { accountRateKey, RateLimiter } from "@/server/http/rate-limit";
import type { StaffSession } from "@/server/next-auth/session";
import { currentStaffUser } from "@/server/staff/users";
import { createCaller } from "@/server/trpc/routers/_app";
import { testDatabase } from "../support/database";

// Issue #10: the settings page's tRPC procedures (developer contact, plan, usage, staff users)
// against a real database, with the role matrix and the last-owner rule.

let database: Database;
let accountId: string;
let otherAccountId: string;
const limiter = new RateLimiter();
type Who = { id: string; email: string; role: StaffRole; accountId: string };
const staff: Record<string, Who> = {};

const as = (who: Who, livemode = true) => {
  const session: StaffSession = { user: { id: who.id, accountId: who.accountId, role: who.role, name: null, email: who.email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
  return createCaller({ db: database.db, session, livemode, limiter });
};

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

const auditCount = async () => (await database.db.select().from(auditLog)).length;

beforeAll(async () => {
  database = await testDatabase();
  accountId = (await createAccount({ db: database.db, input: { name: "Settings Hotels", plan: "growth", developerContact: "dev@settings.example" } })).id;
  otherAccountId = (await createAccount({ db: database.db, input: { name: "Elsewhere", plan: "starter" } })).id;
  for (const role of ["owner", "manager", "front_desk", "housekeeping"] as const) {
    const user = await createUser({ db: database.db, input: { accountId, email: `${role}@settings.example`, password: "password-1", role } });
    staff[role] = { id: user.id, email: user.email, role, accountId };
  }
  const foreign = await createUser({ db: database.db, input: { accountId: otherAccountId, email: "owner@elsewhere.example", password: "password-1", role: "owner" } });
  staff.foreign = { id: foreign.id, email: foreign.email, role: "owner", accountId: otherAccountId };
}, 120_000);
afterAll(() => database.close());

describe("account settings", { timeout: 60_000 }, () => {
  it("shows the plan, its limits and the developer contact to owners and managers", async () => {
    const settings = await as(staff.manager).settings.get();
    expect(settings).toMatchObject({ id: accountId, plan: "growth", developer_contact: "dev@settings.example", rate_limits: { per_second: 100, per_minute: 1000, per_day: 500_000 }, custom_limits: false });
  });

  it("changes the developer contact, audited with before and after", async () => {
    const updated = await as(staff.manager).settings.update({ developer_contact: "Alerts@Settings.example" });
    expect(updated.developer_contact).toBe("alerts@settings.example");
    const [row] = await database.db.select().from(accounts).where(eq(accounts.id, accountId));
    expect(row.developerContact).toBe("alerts@settings.example");
    const trail = await as(staff.owner).audit.list({ object_type: "account", object_id: accountId });
    expect(trail.data[0]).toMatchObject({ action: "account.updated", actor: { email: "manager@settings.example" }, changed: ["developer_contact"], before: { developer_contact: "dev@settings.example" } });
    // Cleared: notices are then only kept in the outbox.
    expect((await as(staff.owner).settings.update({ developer_contact: null })).developer_contact).toBeNull();
  });

  it("refuses a bad contact and changes nothing", async () => {
    const before = await auditCount();
    expect((await failure(as(staff.owner).settings.update({ developer_contact: "not-an-email" }))).api).toMatchObject({ code: "parameter_invalid", param: "developer_contact" });
    expect((await failure(as(staff.owner).settings.update({} as never))).api).toMatchObject({ code: "parameter_missing", param: "developer_contact" });
    expect((await failure(as(staff.owner).settings.update({ developer_contact: "a@b.example", plan: "scale" } as never))).api).toMatchObject({ code: "parameter_unknown", param: "plan" });
    expect(await auditCount()).toBe(before);
  });

  it("lets only owners change the plan; the limits follow it", async () => {
    expect((await failure(as(staff.manager).settings.changePlan({ plan: "scale" }))).code).toBe("FORBIDDEN");
    expect((await failure(as(staff.owner).settings.changePlan({ plan: "platinum" } as never))).api).toMatchObject({ code: "parameter_invalid", param: "plan" });
    const scaled = await as(staff.owner).settings.changePlan({ plan: "scale" });
    expect(scaled.rate_limits).toEqual({ per_second: 500, per_minute: 5000, per_day: 2_500_000 });
    const trail = await as(staff.owner).audit.list({ object_type: "account", object_id: accountId });
    expect(trail.data[0]).toMatchObject({ action: "account.plan_changed", before: { plan: "growth" }, after: { plan: "scale" } });
    await as(staff.owner).settings.changePlan({ plan: "growth" });
  });

  it("reads this minute's and day's usage from the limiter's counters without counting", async () => {
    const account = (await database.db.select().from(accounts).where(eq(accounts.id, accountId)))[0];
    const limits = { perSecond: 100, perMinute: 1000, perDay: 500_000 };
    expect(account.plan).toBe("growth");
    const empty = await as(staff.manager).settings.usage();
    expect(empty).toMatchObject({ livemode: true, minute: { used: 0, limit: 1000 }, day: { used: 0, limit: 500_000 } });
    for (let i = 0; i < 7; i++) await limiter.consume(accountRateKey(accountId, true), limits);
    await limiter.consume(accountRateKey(accountId, false), limits);
    const live = await as(staff.manager).settings.usage();
    expect(live.minute).toMatchObject({ used: 7, limit: 1000 });
    expect(live.day).toMatchObject({ used: 7, limit: 500_000 });
    expect(Date.parse(live.day.resets_at!)).toBe(Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 86_400_000);
    // Reading did not count: the same again.
    expect((await as(staff.manager).settings.usage()).minute.used).toBe(7);
    // The sandbox is counted apart, and follows the switch.
    expect((await as(staff.manager, false).settings.usage()).minute).toMatchObject({ used: 1 });
    // Another account's counters are its own.
    expect((await as(staff.foreign).settings.usage()).minute).toMatchObject({ used: 0, limit: 500 });
  });

  it("front desk and housekeeping are FORBIDDEN from every settings procedure", async () => {
    for (const role of ["front_desk", "housekeeping"] as const) {
      const c = as(staff[role]);
      expect((await failure(c.settings.get())).code).toBe("FORBIDDEN");
      expect((await failure(c.settings.usage())).code).toBe("FORBIDDEN");
      expect((await failure(c.settings.update({ developer_contact: "x@y.example" }))).code).toBe("FORBIDDEN");
      expect((await failure(c.settings.users.list())).code).toBe("FORBIDDEN");
      expect((await failure(c.audit.list({ object_type: "account", object_id: accountId }))).code).toBe("FORBIDDEN");
    }
  });
});

describe("staff users", { timeout: 60_000 }, () => {
  it("managers cannot list or manage users", async () => {
    const manager = as(staff.manager);
    expect((await failure(manager.settings.users.list())).code).toBe("FORBIDDEN");
    expect((await failure(manager.settings.users.invite({ email: "x@settings.example", role: "owner", password: "password-1" }))).code).toBe("FORBIDDEN");
    expect((await failure(manager.settings.users.changeRole({ id: staff.manager.id, role: "owner" }))).code).toBe("FORBIDDEN");
    expect((await failure(manager.settings.users.remove({ id: staff.front_desk.id }))).code).toBe("FORBIDDEN");
    expect((await failure(manager.audit.list({ object_type: "user", object_id: staff.front_desk.id }))).code).toBe("FORBIDDEN");
    expect((await currentStaffUser({ db: database.db, id: staff.front_desk.id }))?.role).toBe("front_desk");
  });

  it("an owner invites, re-roles and removes a user, each step audited", async () => {
    const owner = as(staff.owner);
    const invited = await owner.settings.users.invite({ email: "New.Clerk@Settings.example", name: "New Clerk", role: "front_desk", password: "initial-pass" });
    expect(invited).toMatchObject({ object: "user", email: "new.clerk@settings.example", role: "front_desk", name: "New Clerk" });
    expect(invited).not.toHaveProperty("password_hash");
    expect(await verifyUserPassword({ db: database.db, email: "new.clerk@settings.example", password: "initial-pass" })).toMatchObject({ id: invited.id, accountId, role: "front_desk" });
    expect((await owner.settings.users.list()).map((u) => u.email)).toContain("new.clerk@settings.example");

    expect((await owner.settings.users.changeRole({ id: invited.id, role: "manager" })).role).toBe("manager");
    expect((await currentStaffUser({ db: database.db, id: invited.id }))?.role).toBe("manager");
    expect(await owner.settings.users.remove({ id: invited.id })).toEqual({ id: invited.id, object: "user", deleted: true });
    expect(await currentStaffUser({ db: database.db, id: invited.id })).toBeNull();

    const trail = await owner.audit.list({ object_type: "user", object_id: invited.id });
    expect(trail.data.map((e) => e.action)).toEqual(["user.removed", "user.role_changed", "user.invited"]);
    expect(trail.data[1]).toMatchObject({ before: { role: "front_desk" }, after: { role: "manager" }, changed: ["role"] });
  });

  it("refuses bad invitations and changes nothing", async () => {
    const owner = as(staff.owner);
    const before = (await owner.settings.users.list()).length;
    const audits = await auditCount();
    expect((await failure(owner.settings.users.invite({ email: "nope", role: "manager", password: "password-1" }))).api).toMatchObject({ code: "parameter_invalid", param: "email" });
    expect((await failure(owner.settings.users.invite({ email: "short@settings.example", role: "manager", password: "short" }))).api).toMatchObject({ code: "parameter_invalid", param: "password" });
    expect((await failure(owner.settings.users.invite({ email: "r@settings.example", role: "admin", password: "password-1" } as never))).api).toMatchObject({ code: "parameter_invalid", param: "role" });
    expect((await failure(owner.settings.users.invite({ email: "r@settings.example", role: "manager" } as never))).api).toMatchObject({ code: "parameter_missing", param: "password" });
    // Taken, in this account or any other (e-mails sign in, so they are unique everywhere).
    expect((await failure(owner.settings.users.invite({ email: "MANAGER@settings.example", role: "manager", password: "password-1" }))).api).toMatchObject({ code: "parameter_invalid", param: "email" });
    expect((await failure(owner.settings.users.invite({ email: "owner@elsewhere.example", role: "manager", password: "password-1" }))).api).toMatchObject({ code: "parameter_invalid", param: "email" });
    expect((await owner.settings.users.list()).length).toBe(before);
    expect(await auditCount()).toBe(audits);
  });

  it("another account's user is resource_missing, never changed", async () => {
    const owner = as(staff.owner);
    expect((await failure(owner.settings.users.changeRole({ id: staff.foreign.id, role: "housekeeping" }))).api).toMatchObject({ code: "resource_missing" });
    expect((await failure(owner.settings.users.remove({ id: staff.foreign.id }))).api).toMatchObject({ code: "resource_missing" });
    expect((await owner.settings.users.list()).map((u) => u.id)).not.toContain(staff.foreign.id);
    expect((await currentStaffUser({ db: database.db, id: staff.foreign.id }))?.role).toBe("owner");
  });

  it("the last owner can be neither demoted nor removed, even by themselves; with two, one may go", async () => {
    const owner = as(staff.owner);
    const demote = await failure(owner.settings.users.changeRole({ id: staff.owner.id, role: "manager" }));
    expect(demote).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "role" } });
    expect(demote.api!.message).toMatch(/at least one owner/);
    expect((await failure(owner.settings.users.remove({ id: staff.owner.id }))).api).toMatchObject({ code: "parameter_invalid", param: "id" });
    expect((await currentStaffUser({ db: database.db, id: staff.owner.id }))?.role).toBe("owner");

    const second = await owner.settings.users.invite({ email: "second.owner@settings.example", role: "owner", password: "password-2" });
    const secondOwner = as({ id: second.id, email: second.email, role: "owner", accountId });
    // Both try to demote each other at once: exactly one succeeds.
    const results = await Promise.allSettled([
      owner.settings.users.changeRole({ id: second.id, role: "manager" }),
      secondOwner.settings.users.changeRole({ id: staff.owner.id, role: "manager" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const owners = (await database.db.select().from(usersTable).where(eq(usersTable.accountId, accountId))).filter((u) => u.role === "owner");
    expect(owners).toHaveLength(1);
  });
});
