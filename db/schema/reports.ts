import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenantColumns } from "./columns";
import { reservationStatuses } from "./reservations";

/**
 * One row per night of every reservation, so that the reports read the nights of a date range
 * instead of expanding every stay ever booked. Kept by a trigger on `reservations` (migration
 * 0006): whatever writes a stay (a service, the sandbox seed, an import) rewrites its nights in
 * the same transaction. `booked`: the stay counts as sold (booked, in house or departed, not
 * cancelled or no-show); `sold`: this night does (for an early departure, only the nights before
 * its local check-out date, at least the arrival night).
 */
export const salesNights = pgTable(
  "sales_nights",
  {
    ...tenantColumns(),
    reservationId: text("reservation_id").notNull(),
    propertyId: text("property_id").notNull(),
    date: date("date").notNull(),
    checkIn: date("check_in").notNull(),
    roomTypeId: text("room_type_id").notNull(),
    ratePlanId: text("rate_plan_id").notNull(),
    source: text("source").notNull(),
    channel: text("channel"),
    status: text("status", { enum: reservationStatuses }).notNull(),
    amount: integer("amount").notNull(),
    booked: boolean("booked").notNull(),
    sold: boolean("sold").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.reservationId, t.date] }),
    // The nightly figures read only sold nights and their amounts: an index-only scan once vacuumed.
    index("sales_nights_sold_idx").on(t.propertyId, t.date, t.amount).where(sql`${t.sold}`),
    index("sales_nights_property_arrival_idx").on(t.propertyId, t.checkIn),
  ],
);
