import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenantColumns, ts } from "./columns";

/**
 * One row per room type and night: the unit that sales lock. Selling is a conditional UPDATE
 * of these rows (see server/inventory/sell-nights.ts), so the counters are the truth.
 */
export const inventoryNights = pgTable(
  "inventory_nights",
  {
    roomTypeId: text("room_type_id").notNull(),
    date: date("date").notNull(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    total: integer("total").notNull(),
    outOfOrder: integer("out_of_order").notNull().default(0),
    held: integer("held").notNull().default(0),
    sold: integer("sold").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.roomTypeId, t.date] }),
    index("inventory_nights_property_idx").on(t.propertyId, t.date),
    check("inventory_nights_non_negative", sql`${t.sold} >= 0 and ${t.held} >= 0 and ${t.outOfOrder} >= 0 and ${t.total} >= 0`),
  ],
);

/** Rooms held back from sale for a range of nights. */
export const inventoryHolds = pgTable(
  "inventory_holds",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    roomTypeId: text("room_type_id").notNull(),
    from: date("from").notNull(),
    to: date("to").notNull(),
    rooms: integer("rooms").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    releasedAt: ts("released_at"),
  },
  (t) => [index("inventory_holds_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id)],
);
