import { boolean, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";

export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    accountId: text("account_id").notNull(),
    livemode: boolean("livemode").notNull(),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    /** SHA-256 of the canonical JSON body, so key order and white space do not count as "another body". */
    fingerprint: text("fingerprint").notNull(),
    state: text("state", { enum: ["in_flight", "completed"] }).notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: ts("created_at").notNull().defaultNow(),
    lockedAt: ts("locked_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.livemode, t.key] })],
);
