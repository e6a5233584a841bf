import { bigint, boolean, date, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { tenantColumns } from "./columns";
import { reservationStatuses } from "./reservations";

/**
 * One row per night of every reservation, so that the reports read the nights of a date range
 * instead of expanding every stay ever booked. Kept by a trigger on `reservations` (migration
 * 0006): whatever writes a stay (a service, the sandbox seed, an import) rewrites its nights in
 * the same transaction. `booked`: the stay counts as sold (booked, in house or departed, not
 * cancelled or no-show); `sold`: this night does (for an early departure, only the nights before
 * its local check-out date, at least the arrival night). `charged_gross` and `charged_tax`: what
 * the stay's folio charges for the night (its lines of kind room_night and tax dated that night),
 * kept by the same trigger and by one on `folio_charges` (migration 0022), whichever is written first.
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
    /** What the stay's folio charges for this night: its lines of kind room_night and tax (gross, and the tax in it). */
    chargedGross: integer("charged_gross").notNull().default(0),
    chargedTax: integer("charged_tax").notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.reservationId, t.date] }),
    index("sales_nights_property_arrival_idx").on(t.propertyId, t.checkIn),
  ],
);

/**
 * The sold nights of `sales_nights` summed per room type and date, kept by the same trigger in
 * the same transaction (minus a stay's old nights, plus its new ones), with what the folios charge
 * for those sold nights (kept as the lines are written too): the occupancy and revenue reports
 * read one row per room type and night of their range. The booking has already locked
 * these (room type, date) pairs' inventory rows, so the sums add no new waiting.
 */
export const salesDays = pgTable(
  "sales_days",
  {
    roomTypeId: text("room_type_id").notNull(),
    date: date("date").notNull(),
    propertyId: text("property_id").notNull(),
    roomsSold: integer("rooms_sold").notNull(),
    roomRevenue: bigint("room_revenue", { mode: "number" }).notNull(),
    chargedGross: bigint("charged_gross", { mode: "number" }).notNull().default(0),
    chargedTax: bigint("charged_tax", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.roomTypeId, t.date] }), index("sales_days_property_date_idx").on(t.propertyId, t.date)],
);

/**
 * Money per property and local date: captured payments (succeeded, partially refunded or
 * refunded, by capture time) and refunds (by creation time), summed in the property's time zone.
 * Kept by triggers on `payments` and `refunds` (migration 0009) in the writing transaction, and
 * rebuilt for a property whose time zone changes: the revenue report reads one row per night of
 * its range instead of every payment in it.
 */
export const moneyDays = pgTable(
  "money_days",
  {
    propertyId: text("property_id").notNull(),
    date: date("date").notNull(),
    payments: bigint("payments", { mode: "number" }).notNull(),
    refunds: bigint("refunds", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.propertyId, t.date] })],
);
