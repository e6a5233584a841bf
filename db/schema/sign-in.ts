import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

/**
 * Failed staff sign-ins, counted per account (`user:<e-mail>`) and per address (`address:<ip>`),
 * shared by every instance: the growing delays and the lock of server/staff/sign-in-throttle.ts.
 */
export const signInThrottles = pgTable("sign_in_throttles", {
  key: text("key").primaryKey(),
  /** Failures in a row, since the last success (accounts) or the last quiet quarter of an hour. */
  failures: integer("failures").notNull().default(0),
  lastFailureAt: ts("last_failure_at").notNull(),
  /** Set once the failures reach the lock: no attempt is checked before then. */
  lockedUntil: ts("locked_until"),
});
