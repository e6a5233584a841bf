import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";

export const guests = pgTable(
  "guests",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    email: text("email").notNull(),
    /** Lower-cased e-mail: one guest per address within an account and environment. */
    emailKey: text("email_key").notNull(),
    phone: text("phone"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("guests_email_key").on(t.accountId, t.livemode, t.emailKey),
    index("guests_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
  ],
);

export type RoomPreferences = {
  bed?: string;
  floor?: "high" | "low";
  smoking?: boolean;
  quiet?: boolean;
  accessible?: boolean;
  notes?: string;
};
export type LoyaltyPreferences = { program?: string; tier?: string; number?: string; points?: number };

export const guestPreferences = pgTable("guest_preferences", {
  guestId: text("guest_id")
    .primaryKey()
    .references(() => guests.id, { onDelete: "cascade" }),
  ...tenantColumns(),
  allergies: jsonb("allergies").$type<string[]>().notNull().default([]),
  room: jsonb("room").$type<RoomPreferences>().notNull().default({}),
  loyalty: jsonb("loyalty").$type<LoyaltyPreferences>().notNull().default({}),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});
