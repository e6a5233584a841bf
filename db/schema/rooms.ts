import { boolean, date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";

export const roomTypes = pgTable(
  "room_types",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    description: text("description"),
    /** Beds in words ("1 king", "2 queens"). */
    beds: text("beds"),
    maxOccupancy: integer("max_occupancy").notNull(),
    baseOccupancy: integer("base_occupancy").notNull(),
    amenities: text("amenities").array().notNull().default([]),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("room_types_code_key").on(t.propertyId, t.code),
    index("room_types_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
  ],
);

export const housekeepingStatuses = ["dirty", "clean", "inspected", "out-of-order"] as const;
export type HousekeepingStatus = (typeof housekeepingStatuses)[number];

export const rooms = pgTable(
  "rooms",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    roomTypeId: text("room_type_id").notNull(),
    number: text("number").notNull(),
    floor: integer("floor"),
    housekeepingStatus: text("housekeeping_status", { enum: housekeepingStatuses }).notNull().default("clean"),
    occupied: boolean("occupied").notNull().default(false),
    outOfOrderReason: text("out_of_order_reason"),
    /** First night the room is back in service; null while out of order means "until further notice". */
    outOfOrderUntil: date("out_of_order_until"),
    /** Taken out of the hotel: no longer sold, assigned or cleaned; the row stays for its history. */
    retiredAt: ts("retired_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("rooms_number_key").on(t.propertyId, t.number),
    index("rooms_type_idx").on(t.roomTypeId),
    index("rooms_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
  ],
);
