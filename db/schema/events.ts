import { sql } from "drizzle-orm";
import { customType, index, jsonb, pgTable, smallint, text } from "drizzle-orm/pg-core";
import { tenantColumns, ts } from "./columns";

/** A 64-bit transaction id, read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({
  dataType: () => "xid8",
  fromDriver: (value) => String(value),
});

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
    /**
     * The writing transaction's id. The webhook fan-out takes events in (xid, id) order only
     * below the oldest transaction still running, so an event that commits late is never passed
     * over, and no event row is written again once inserted.
     */
    xid: xid8("xid").notNull().default(sql`pg_current_xact_id()`),
    /** Set at insert on events that are never fanned out: test events (a ping or a sample, to one endpoint), and only those. */
    fannedOutAt: ts("fanned_out_at"),
  },
  (t) => [
    index("events_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("events_type_idx").on(t.accountId, t.livemode, t.type, t.createdAt),
    index("events_fanout_idx").on(t.xid, t.id).where(sql`${t.fannedOutAt} is null`),
  ],
);

/** How far the fan-out has come: the (xid, id) of the last event it took. One row. */
export const eventFanoutCursor = pgTable("event_fanout_cursor", {
  id: smallint("id").primaryKey(),
  xid: xid8("xid").notNull(),
  eventId: text("event_id").notNull(),
});
