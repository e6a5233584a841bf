import { date, index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, ts } from "./columns";

/**
 * One row per property and business date the night audit closed (server/night-audit/). The
 * unique key makes the audit run once per date whatever the number of workers or instances:
 * runners take the property's row lock, and the one that finds this row already written does nothing.
 */
export const nightAudits = pgTable(
  "night_audits",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    businessDate: date("business_date").notNull(),
    /** What ran it: the schedule (`scheduled`), a person or integrator (`manual`), or the sandbox's `advance_day`. */
    trigger: text("trigger", { enum: ["scheduled", "manual", "advance_day"] }).notNull(),
    noShows: jsonb("no_shows").$type<string[]>().notNull(),
    departuresInHouse: jsonb("departures_in_house").$type<string[]>().notNull(),
    flash: jsonb("flash").$type<Record<string, unknown>>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("night_audits_property_date_key").on(t.propertyId, t.businessDate), index("night_audits_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id)],
);
