import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { auditLog } from "@/db/schema";
import { createAccount } from "@/server/accounts/create-account";
import { createUser } from "@/server/auth/users";
import { RateLimiter } from "@/server/http/rate-limit";
import { SignInRefused, signInStaff } from "@/server/staff/sign-in";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { testDatabase } from "../support/database";

// Issue 26, point 6: staff sign-in is throttled per account and per address, as docs/decisions.md
// states it: per account 3 failures free, then waits of 1, 2, 4, 8, 16, 32 s, and the 10th failure in
// a row locks for 15 minutes; per address 10 free and a lock at 30. Refused attempts are not
// checked; failures are in the account's audit trail; an owner can unlock; the lock runs out.

let database: Database;
let accountId: string;
let owner: { id: string; email: string };
let n = 0;
const at = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

beforeAll(async () => {
  database = await testDatabase();
  accountId = (await createAccount({ db: database.db, input: { name: "Sign-in Hotels", plan: "growth" } })).id;
  owner = await createUser({ db: database.db, input: { accountId, email: "owner@signin.example", password: "owner-password-1", role: "owner" } });
});
afterAll(async () => database?.close());

async function clerk() {
  const email = `clerk${++n}@signin.example`;
  const user = await createUser({ db: database.db, input: { accountId, email, password: "right-password-1", role: "front_desk" } });
  return { id: user.id, email };
}

/** One attempt: "ok", "wrong" or the refusal's words. */
async function attempt(email: string, password: string, now: Date, address = `198.51.100.${n}`) {
  try {
    return (await signInStaff({ db: database.db, email, password, address, now })) ? "ok" : "wrong";
  } catch (error) {
    if (error instanceof SignInRefused) return error.message;
    throw error;
  }
}

const trailOf = async (userId: string) =>
  (await database.db.select().from(auditLog).where(and(eq(auditLog.accountId, accountId), eq(auditLog.objectId, userId)))).map((r) => r.action);

describe("per account", () => {
  it("answers the first 3 failures at once, then makes each wait twice as long, and does not check a password sent too soon", async () => {
    const user = await clerk();
    const t0 = new Date("2026-11-25T10:00:00Z");
    for (let i = 0; i < 3; i++) expect(await attempt(user.email, "wrong", t0)).toBe("wrong");
    // After the 3rd failure: 1 s. Sent at once, even the right password is refused unchecked.
    expect(await attempt(user.email, "right-password-1", t0)).toBe("Too many failed sign-ins. Wait 1 second before trying again.");
    expect(await attempt(user.email, "wrong", at(t0, 1))).toBe("wrong");
    // After the 4th: 2 s from that failure.
    expect(await attempt(user.email, "wrong", at(t0, 2))).toBe("Too many failed sign-ins. Wait 1 second before trying again.");
    expect(await attempt(user.email, "wrong", at(t0, 3))).toBe("wrong");
    // After the 5th: 4 s.
    expect(await attempt(user.email, "wrong", at(t0, 4))).toBe("Too many failed sign-ins. Wait 3 seconds before trying again.");
    expect(await attempt(user.email, "right-password-1", at(t0, 7))).toBe("ok");
    // A success starts the count again.
    expect(await attempt(user.email, "wrong", at(t0, 8))).toBe("wrong");
    expect(await attempt(user.email, "wrong", at(t0, 8))).toBe("wrong");
  });

  it("locks at the 10th failure in a row with words that say what to do; the lock runs out after 15 minutes", async () => {
    const user = await clerk();
    const t0 = new Date("2026-11-25T11:00:00Z");
    // Waits after failures 3…9: 1, 2, 4, 8, 16, 32, 60 s (the last capped at a minute).
    const waits = [0, 0, 0, 1, 2, 4, 8, 16, 32, 60];
    let now = t0;
    for (let i = 0; i < 10; i++) {
      now = at(now, waits[i]);
      expect(await attempt(user.email, "wrong", now), `failure ${i + 1}`).toBe("wrong");
    }
    const locked = await attempt(user.email, "right-password-1", at(now, 61));
    expect(locked).toBe("This account is locked after 10 failed sign-ins in a row. It unlocks by itself in 14 minutes, or an owner can unlock it now under Settings → Users and roles.");
    expect(await attempt(user.email, "right-password-1", at(now, 14 * 60 + 59))).toMatch(/locked/);
    expect(await attempt(user.email, "right-password-1", at(now, 15 * 60))).toBe("ok");

    const trail = await trailOf(user.id);
    expect(trail.filter((a) => a === "user.sign_in_failed")).toHaveLength(12);
    expect(trail.filter((a) => a === "user.sign_in_locked")).toHaveLength(1);
    const [failed] = await database.db.select().from(auditLog).where(and(eq(auditLog.objectId, user.id), eq(auditLog.action, "user.sign_in_failed"))).limit(1);
    expect(failed.actorEmail).toBe(user.email);
    expect(failed.after).toMatchObject({ outcome: "Wrong password" });
  });

  it("counts e-mails that are no one's the same way, so the answers do not tell which exist", async () => {
    const t0 = new Date("2026-11-25T12:00:00Z");
    for (let i = 0; i < 3; i++) expect(await attempt("nobody@signin.example", "x", t0)).toBe("wrong");
    expect(await attempt("nobody@signin.example", "x", t0)).toBe("Too many failed sign-ins. Wait 1 second before trying again.");
  });

  it("an owner unlocks a locked account from Settings, in the audit trail; others cannot", async () => {
    const user = await clerk();
    const t0 = new Date(Date.now() - 5 * 60_000);
    let now = t0;
    for (const wait of [0, 0, 0, 1, 2, 4, 8, 16, 32, 60]) {
      now = at(now, wait);
      await attempt(user.email, "wrong", now);
    }
    expect(await attempt(user.email, "right-password-1", new Date())).toMatch(/locked/);

    const session = (who: { id: string; email: string }, role: "owner" | "front_desk"): StaffSession => ({
      user: { id: who.id, accountId, role, name: null, email: who.email },
      expires: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const caller = (who: { id: string; email: string }, role: "owner" | "front_desk") => createCaller({ db: database.db, session: session(who, role), livemode: true, limiter: new RateLimiter() });
    const listed = await caller(owner, "owner").settings.users.list();
    expect(listed.find((u) => u.id === user.id)?.sign_in_locked).toBe(true);
    expect(listed.find((u) => u.id === owner.id)?.sign_in_locked).toBe(false);

    await expect(caller(user, "front_desk").settings.users.unlock({ id: user.id })).rejects.toThrow();
    expect(await attempt(user.email, "right-password-1", new Date())).toMatch(/locked/);

    await caller(owner, "owner").settings.users.unlock({ id: user.id });
    expect(await attempt(user.email, "right-password-1", new Date())).toBe("ok");
    expect((await caller(owner, "owner").settings.users.list()).find((u) => u.id === user.id)?.sign_in_locked).toBe(false);
    expect(await trailOf(user.id)).toContain("user.sign_in_unlocked");
  });
});

describe("per address", () => {
  it("throttles one address across accounts: 10 failures free, then waits, and a lock at the 30th", async () => {
    const address = "203.0.113.77";
    const t0 = new Date("2026-11-25T13:00:00Z");
    // Each failure on a different account, so only the address counts up.
    const emails = Array.from({ length: 40 }, (_, i) => `spray${i}@signin.example`);
    for (let i = 0; i < 10; i++) expect(await attempt(emails[i], "x", t0, address)).toBe("wrong");
    expect(await attempt(emails[10], "x", t0, address)).toBe("Too many failed sign-ins. Wait 1 second before trying again.");
    // Another address is not held back by this one.
    expect(await attempt(emails[10], "x", t0, "203.0.113.78")).toBe("wrong");

    let now = t0;
    for (let i = 10; i < 30; i++) {
      now = at(now, 60);
      expect(await attempt(emails[i], "x", now, address), `failure ${i + 1}`).toBe("wrong");
    }
    expect(await attempt(emails[31], "x", at(now, 61), address)).toBe("Too many failed sign-ins from this network. Try again in 14 minutes.");
  }, 240_000); // 31 password checks (bcrypt, cost 12) on a busy machine
});
