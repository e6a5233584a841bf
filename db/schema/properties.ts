import { boolean, date, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps } from "./columns";

/** The night audit's choices for a guest still in house past departure. */
export const overstayAtAuditChoices = ["extend", "refuse"] as const;

export type Address = { line1?: string; line2?: string; city?: string; region?: string; postal_code?: string; country?: string };

export const properties = pgTable(
  "properties",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    name: text("name").notNull(),
    timezone: text("timezone").notNull(),
    currency: text("currency").notNull(),
    address: jsonb("address").$type<Address>().notNull().default({}),
    /** Local clock times, "HH:MM". */
    checkInTime: text("check_in_time").notNull().default("15:00"),
    checkOutTime: text("check_out_time").notNull().default("11:00"),
    /** Whether a walk-in may be booked without the guest's e-mail (docs/decisions.md). */
    walkInsWithoutEmail: boolean("walk_ins_without_email").notNull().default(false),
    /** Whether guests get confirmation, modification and cancellation e-mails. */
    guestEmails: boolean("guest_emails").notNull().default(true),
    /** Hour (0–23, property time) at which the night audit closes a business day. */
    auditHour: integer("audit_hour").notNull().default(3),
    /** The business date the last night audit (or the sandbox's advance_day) moved to; null before the first. */
    businessDate: date("business_date"),
    /** What the night audit does with a guest still in house past departure: sell them the night, or refuse to close the day naming them (docs/decisions.md). */
    overstayAtAudit: text("overstay_at_audit", { enum: overstayAtAuditChoices }).notNull().default("extend"),
    ...timestamps(),
  },
  (t) => [index("properties_tenant_idx").on(t.accountId, t.livemode, t.createdAt, t.id)],
);
