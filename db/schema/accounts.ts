import { boolean, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";

export const accounts = pgTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  plan: text("plan", { enum: ["starter", "growth", "scale", "enterprise"] }).notNull(),
  /** Custom limits; null means "the plan's limit" (and for enterprise, unlimited). */
  ratePerSecond: integer("rate_per_second"),
  ratePerMinute: integer("rate_per_minute"),
  ratePerDay: integer("rate_per_day"),
  developerContact: text("developer_contact"),
  apiVersion: text("api_version").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    email: text("email").notNull(),
    name: text("name"),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["owner", "manager", "front_desk", "housekeeping"] }).notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("users_email_key").on(t.email)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    name: text("name"),
    /** SHA-256 of the whole key: keys carry 190 bits of entropy, so a slow hash adds nothing. */
    keyHash: text("key_hash").notNull(),
    keyPrefix: text("key_prefix").notNull(),
    scopes: text("scopes").array().notNull(),
    allowedIps: text("allowed_ips").array().notNull().default([]),
    createdAt: ts("created_at").notNull().defaultNow(),
    revokedAt: ts("revoked_at"),
    /** Last authenticated use, written at most once a minute per key (keeps the auth path cheap). */
    lastUsedAt: ts("last_used_at"),
  },
  (t) => [uniqueIndex("api_keys_hash_key").on(t.keyHash), index("api_keys_account_idx").on(t.accountId)],
);

export const oauthClients = pgTable("oauth_clients", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id),
  name: text("name").notNull(),
  secretHash: text("secret_hash"),
  redirectUris: text("redirect_uris").array().notNull(),
  scopes: text("scopes").array().notNull(),
  public: boolean("public").notNull().default(false),
  createdBy: text("created_by"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  /** Apps are deleted softly: installs and audit entries keep pointing at them. */
  deletedAt: ts("deleted_at"),
});
