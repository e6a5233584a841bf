import { date, index, pgTable, text } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps } from "./columns";

export const assignmentStatuses = ["pending", "in_progress", "done"] as const;

/** Who cleans which room on which day (v1.6). */
export const housekeepingAssignments = pgTable(
  "housekeeping_assignments",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    roomId: text("room_id").notNull(),
    date: date("date").notNull(),
    assignee: text("assignee").notNull(),
    notes: text("notes"),
    status: text("status", { enum: assignmentStatuses }).notNull().default("pending"),
    ...timestamps(),
  },
  (t) => [index("housekeeping_assignments_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id), index("housekeeping_assignments_date_idx").on(t.propertyId, t.date)],
);
