import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";

/**
 * A property's booking engine (issue 38): whether guests may book it at `/book/<slug>`, and which
 * of its rate plans are sold there. No row: switched off, no address yet.
 */
export const bookingEngines = pgTable(
  "booking_engines",
  {
    propertyId: text("property_id").primaryKey(),
    ...tenantColumns(),
    enabled: boolean("enabled").notNull().default(false),
    /** The address's last part, unique across every account and environment (the page is public). */
    slug: text("slug"),
    ratePlanIds: text("rate_plan_ids").array().notNull().default(sql`'{}'::text[]`),
    ...timestamps(),
  },
  (t) => [uniqueIndex("booking_engines_slug_key").on(t.slug)],
);

/**
 * A guest's booking in progress: the stay they chose, the inventory hold that keeps its room while
 * they fill the form, and the token their form carries (stored hashed). Booked once: the
 * reservation it became, so a second submit answers the same booking.
 */
export const bookingSessions = pgTable(
  "booking_sessions",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    roomTypeId: text("room_type_id").notNull(),
    ratePlanId: text("rate_plan_id").notNull(),
    checkIn: date("check_in").notNull(),
    checkOut: date("check_out").notNull(),
    adults: integer("adults").notNull(),
    children: integer("children").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** The hold keeping the room; null once released (booked, abandoned or expired). */
    holdId: text("hold_id"),
    reservationId: text("reservation_id"),
    /** The guest pages' language when the room was chosen; the booking's e-mails speak it. */
    locale: text("locale").notNull().default("en"),
    /** SHA-256 of the manage link's token (derived from the form's token), set once booked. */
    manageTokenHash: text("manage_token_hash"),
    createdAt: ts("created_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("booking_sessions_token_key").on(t.tokenHash),
    uniqueIndex("booking_sessions_manage_token_key").on(t.manageTokenHash),
    index("booking_sessions_open_idx").on(t.propertyId, t.expiresAt).where(sql`${t.holdId} is not null`),
  ],
);
