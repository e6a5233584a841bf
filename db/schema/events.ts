import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tenantColumns, ts } from "./columns";

/**
 * The outbox: every change that names an event writes its row here in the change's own
 * transaction. The delivery engine reads from it.
 */
export const events = pgTable(
  "events",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id"),
    type: text("type").notNull(),
    apiVersion: text("api_version").notNull(),
    /** `data.object`: the full resource at the time of the event. */
    object: jsonb("object").$type<Record<string, unknown>>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Set by the webhook fan-out in the transaction that creates the event's deliveries. */
    fannedOutAt: ts("fanned_out_at"),
  },
  (t) => [
    index("events_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("events_type_idx").on(t.accountId, t.livemode, t.type, t.createdAt),
    index("events_fanout_idx").on(t.createdAt, t.id).where(sql`${t.fannedOutAt} is null`),
  ],
);
