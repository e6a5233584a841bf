import { eq, inArray, sql } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { signInThrottles, users } from "@/db/schema";
import { recordAudit } from "@/server/audit/audit";
import { verifyUserPassword } from "@/server/auth/users";

/**
 * Staff sign-in with throttling shared by every instance (the counts are rows of
 * `sign_in_throttles`): after a few failures in a row each further attempt waits twice as long as
 * the one before, then the account (or the address) is locked for a quarter of an hour. An attempt
 * that comes too soon or while locked is refused without its password being checked, so a guesser
 * gains nothing by sending faster. Failures on a known account are in its audit trail; an owner
 * can unlock an account from Settings.
 */

export type ThrottlePolicy = {
  /** Failures in a row answered without delay. */
  free: number;
  /** Failures in a row that lock. */
  lockAt: number;
  lockSeconds: number;
  /** A quarter of an hour without a failure starts the count again. */
  quietSeconds: number;
};

/** One person's account: 3 free tries, then 1, 2, 4 … 60 s, and the lock at the 10th failure. */
const accountPolicy: ThrottlePolicy = { free: 3, lockAt: 10, lockSeconds: 15 * 60, quietSeconds: 15 * 60 };
/** One address, which a whole front office may share behind its router: 10 free, lock at 30. */
const addressPolicy: ThrottlePolicy = { free: 10, lockAt: 30, lockSeconds: 15 * 60, quietSeconds: 15 * 60 };

/** Seconds to wait, after `failures` failures in a row, before the next attempt is checked. */
function delayAfter(failures: number, policy: ThrottlePolicy): number {
  return failures < policy.free ? 0 : Math.min(2 ** (failures - policy.free), 60);
}

/** Why an attempt was not checked, in words a clerk can act on. */
export class SignInRefused extends Error {}

const accountKey = (email: string) => `user:${email.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;

type Row = typeof signInThrottles.$inferSelect;
type Refusal = { scope: "account" | "address"; locked: boolean; seconds: number };

function refusalOf(row: Row | undefined, scope: Refusal["scope"], policy: ThrottlePolicy, now: Date): Refusal | null {
  if (!row) return null;
  if (row.lockedUntil && row.lockedUntil > now) return { scope, locked: true, seconds: Math.ceil((row.lockedUntil.getTime() - now.getTime()) / 1000) };
  const since = (now.getTime() - row.lastFailureAt.getTime()) / 1000;
  if (since >= policy.quietSeconds) return null;
  const wait = delayAfter(row.failures, policy) - since;
  return wait > 0 ? { scope, locked: false, seconds: Math.ceil(wait) } : null;
}

const minutes = (seconds: number) => {
  const m = Math.ceil(seconds / 60);
  return m === 1 ? "1 minute" : `${m} minutes`;
};

function message(refusal: Refusal): string {
  if (!refusal.locked) return `Too many failed sign-ins. Wait ${refusal.seconds} ${refusal.seconds === 1 ? "second" : "seconds"} before trying again.`;
  if (refusal.scope === "address") return `Too many failed sign-ins from this network. Try again in ${minutes(refusal.seconds)}.`;
  return `This account is locked after ${accountPolicy.lockAt} failed sign-ins in a row. It unlocks by itself in ${minutes(refusal.seconds)}, or an owner can unlock it now under Settings → Users and roles.`;
}

/** Counts one failure against `key` in one statement, so two instances never lose a count. */
async function countFailure(db: Db, key: string, policy: ThrottlePolicy, now: Date): Promise<Row> {
  const stamp = now.toISOString();
  const quietBefore = new Date(now.getTime() - policy.quietSeconds * 1000).toISOString();
  const next = sql`CASE WHEN ${signInThrottles.lastFailureAt} <= ${quietBefore}::timestamptz THEN 1 ELSE ${signInThrottles.failures} + 1 END`;
  const lockedUntil = new Date(now.getTime() + policy.lockSeconds * 1000).toISOString();
  const [row] = await db
    .insert(signInThrottles)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: signInThrottles.key,
      set: {
        failures: next,
        lastFailureAt: sql`${stamp}::timestamptz`,
        lockedUntil: sql`CASE WHEN ${next} >= ${policy.lockAt} THEN ${lockedUntil}::timestamptz ELSE NULL END`,
      },
    })
    .returning();
  return row;
}

export type SignInAttempt = { db: Db; email: string; password: string; address: string | undefined; now?: Date };
export type SignedIn = NonNullable<Awaited<ReturnType<typeof verifyUserPassword>>>;

/**
 * The staff member these credentials sign in, or null for a wrong e-mail or password. Throws
 * SignInRefused (with the words to show) when the account or the address must wait or is locked.
 */
export async function signInStaff({ db, email, password, address, now = new Date() }: SignInAttempt): Promise<SignedIn | null> {
  const keys = [accountKey(email), ...(address ? [addressKey(address)] : [])];
  const rows = await db.select().from(signInThrottles).where(inArray(signInThrottles.key, keys));
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const [target] = await db.select({ id: users.id, accountId: users.accountId }).from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  const refusal =
    refusalOf(byKey.get(accountKey(email)), "account", accountPolicy, now) ?? (address ? refusalOf(byKey.get(addressKey(address)), "address", addressPolicy, now) : null);
  if (refusal) {
    if (target) await auditAttempt(db, target, email, address, refusal.locked ? "Refused: locked" : "Refused: too soon after a failure");
    throw new SignInRefused(message(refusal));
  }

  const user = await verifyUserPassword({ db, email, password });
  if (user) {
    // A success clears the account's count; the address's runs out on its own.
    await db.delete(signInThrottles).where(eq(signInThrottles.key, accountKey(email)));
    return user;
  }
  const account = await countFailure(db, accountKey(email), accountPolicy, now);
  if (address) await countFailure(db, addressKey(address), addressPolicy, now);
  if (target) {
    await auditAttempt(db, target, email, address, "Wrong password");
    if (account.failures === accountPolicy.lockAt) {
      await recordAudit({
        db,
        tenant: { accountId: target.accountId, livemode: true, propertyIds: null },
        actor: { id: "sign_in", email: email.trim().toLowerCase() },
        entry: { action: "user.sign_in_locked", objectType: "user", objectId: target.id, after: { failed_sign_ins: account.failures } },
      });
    }
  }
  return null;
}

async function auditAttempt(db: Db, target: { id: string; accountId: string }, email: string, address: string | undefined, outcome: string) {
  await recordAudit({
    db,
    tenant: { accountId: target.accountId, livemode: true, propertyIds: null },
    // Nobody is signed in: the actor is the sign-in form, as whoever typed this e-mail.
    actor: { id: "sign_in", email: email.trim().toLowerCase() },
    entry: { action: "user.sign_in_failed", objectType: "user", objectId: target.id, after: { outcome, address: address ?? "unknown" } },
  });
}

/** Whether a staff member's account is locked now (the users list shows it, with Unlock). */
export async function lockedAccounts(db: Db, emails: string[], now = new Date()): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await db.select().from(signInThrottles).where(inArray(signInThrottles.key, emails.map(accountKey)));
  return new Set(rows.filter((r) => r.lockedUntil && r.lockedUntil > now).map((r) => r.key.slice("user:".length)));
}

/** Lifts an account's lock and its count of failures (an owner, from Settings). */
export async function unlockAccount(db: Executor, email: string): Promise<boolean> {
  const removed = await db.delete(signInThrottles).where(eq(signInThrottles.key, accountKey(email))).returning({ key: signInThrottles.key });
  return removed.length > 0;
}
