import { index, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tenantColumns, ts } from "./columns";

/**
 * The audit trail: every change made in the dashboard or through `/v1`, written in the change's
 * own transaction by its service, with who made it and the object before and after.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    /**
     * A staff member (id, e-mail); an API key (id, its name then); an OAuth app (its client id, its
     * name then, and the e-mail of the staff member who installed it); the night audit (`night_audit`,
     * with the e-mail of the staff member who ran it by hand). Never a secret.
     */
    actorType: text("actor_type", { enum: ["staff", "api_key", "oauth_app", "night_audit", "booking_engine"] }).notNull().default("staff"),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email"),
    actorName: text("actor_name"),
    /** `<object_type>.<verb>`, e.g. `reservation.checked_in`. */
    action: text("action").notNull(),
    objectType: text("object_type").notNull(),
    objectId: text("object_id").notNull(),
    before: jsonb("before").$type<unknown>(),
    after: jsonb("after").$type<unknown>(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("audit_log_object_idx").on(t.accountId, t.objectId, t.createdAt, t.id), index("audit_log_account_idx").on(t.accountId, t.createdAt, t.id)],
);
