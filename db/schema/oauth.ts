import { sql } from "drizzle-orm";
import { index, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { accounts, oauthClients, users } from "./accounts";

/**
 * An app installed by an account: what the consent page granted (scopes, properties). One live
 * install per account and app; a new consent replaces its grant, revoking it ends every token.
 */
export const oauthInstalls = pgTable(
  "oauth_installs",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull().references(() => accounts.id),
    clientId: text("client_id").notNull().references(() => oauthClients.id),
    scopes: text("scopes").array().notNull(),
    propertyIds: text("property_ids").array().notNull(),
    installedBy: text("installed_by").references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
    revokedBy: text("revoked_by"),
  },
  (t) => [
    uniqueIndex("oauth_installs_active_key").on(t.accountId, t.clientId).where(sql`revoked_at is null`),
    index("oauth_installs_account_idx").on(t.accountId, t.createdAt),
  ],
);

/** Authorization codes: single use, short-lived, bound to client, redirect URI and PKCE challenge. */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    id: text("id").primaryKey(),
    codeHash: text("code_hash").notNull(),
    clientId: text("client_id").notNull().references(() => oauthClients.id),
    installId: text("install_id").notNull().references(() => oauthInstalls.id),
    userId: text("user_id").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    scopes: text("scopes").array().notNull(),
    codeChallenge: text("code_challenge"),
    codeChallengeMethod: text("code_challenge_method"),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("oauth_codes_hash_key").on(t.codeHash)],
);

/**
 * Access and refresh tokens, stored hashed. `familyId` is the code they descend from: reuse of a
 * code or of a retired refresh token revokes the whole family.
 */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    tokenHash: text("token_hash").notNull(),
    clientId: text("client_id").notNull().references(() => oauthClients.id),
    installId: text("install_id").notNull().references(() => oauthInstalls.id),
    familyId: text("family_id").notNull(),
    userId: text("user_id").notNull(),
    scopes: text("scopes").array().notNull(),
    expiresAt: ts("expires_at").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    /** Refresh tokens only: exchanged for a new one; presenting it again is theft. */
    rotatedAt: ts("rotated_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [
    uniqueIndex("oauth_tokens_hash_key").on(t.tokenHash),
    index("oauth_tokens_family_idx").on(t.familyId),
    index("oauth_tokens_install_idx").on(t.installId),
  ],
);
