import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";
import type { Address } from "./properties";

export const guests = pgTable(
  "guests",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** null only for a walk-in booked without one, where the property allows it. */
    email: text("email"),
    /** Lower-cased e-mail: one guest per address within an account and environment. */
    emailKey: text("email_key"),
    phone: text("phone"),
    /** Postal address for invoices, every line optional; null: none given. */
    address: jsonb("address").$type<Address>(),
    /** The phone's digits alone (db/migrations/0012_find_anyone.sql). */
    phoneKey: text("phone_key").generatedAlwaysAs(sql`regexp_replace(coalesce("phone", ''), '[^0-9]', '', 'g')`),
    /** Names, e-mail (folded: lower case, no accents) and the phone's digits, for search. */
    searchText: text("search_text").generatedAlwaysAs(
      sql`"innkeep_fold"("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '')) || ' ' || regexp_replace(coalesce("phone", ''), '[^0-9]', '', 'g')`,
    ),
    /** When the guest was erased on request: names, contact and free text anonymised (server/guest-data/erase-guest.ts). */
    erasedAt: ts("erased_at"),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("guests_email_key").on(t.accountId, t.livemode, t.emailKey),
    index("guests_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("guests_search_idx").using("gin", sql`${t.searchText} gin_trgm_ops`),
    uniqueIndex("guests_no_email_key")
      .on(t.accountId, t.livemode, t.phoneKey, sql`"innkeep_fold"(${t.lastName})`)
      .where(sql`${t.emailKey} is null and ${t.phoneKey} <> ''`),
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
