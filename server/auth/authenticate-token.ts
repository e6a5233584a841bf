import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import type { AuditActor } from "@/server/audit/audit";
import { accounts, apiKeys } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { limitsFor, type RateLimits } from "@/server/accounts/plans";
import { authenticateAccessToken } from "@/server/oauth/access-tokens";
import type { Scope } from "./scopes";
import { lastUsedResolutionMs, touchApiKey } from "./api-keys";
import { hashToken } from "./tokens";

/** Who a bearer token speaks for. */
export type Principal = {
  kind: "api_key" | "oauth";
  credentialId: string;
  accountId: string;
  scopes: ReadonlySet<Scope>;
  allowedIps: readonly string[];
  /** null: every property of the account (API keys); a list for OAuth installs. */
  propertyIds: readonly string[] | null;
  limits: RateLimits;
  apiVersion: string;
  /**
   * Who the audit trail says made a change with this credential: the API key (id and name), or
   * the app (client id and name) with the staff member who installed it. Never a secret.
   */
  actor: AuditActor;
};

/** Resolves a bearer token to its principal, or throws the matching 401. */
export async function authenticateToken({ db, token }: { db: Executor; token: string }): Promise<Principal> {
  if (token.startsWith("hk_")) return authenticateApiKey(db, token);
  if (token.startsWith("hat_")) return authenticateAccessToken(db, token);
  throw new ApiError("invalid_token", "The bearer token is not a valid Innkeep API key or access token.");
}

async function authenticateApiKey(db: Executor, token: string): Promise<Principal> {
  const [row] = await db
    .select({ key: apiKeys, account: accounts })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, hashToken(token)))
    .limit(1);
  if (!row) throw new ApiError("invalid_token", "The API key is not valid.");
  if (row.key.revokedAt) throw new ApiError("token_revoked", "The API key has been revoked.");
  const now = Date.now();
  // At most one write a minute per key: the common request reads and moves on.
  if (!row.key.lastUsedAt || now - row.key.lastUsedAt.getTime() >= lastUsedResolutionMs) await touchApiKey(db, row.key.id, new Date(now));
  return {
    kind: "api_key",
    credentialId: row.key.id,
    accountId: row.account.id,
    scopes: new Set(row.key.scopes as Scope[]),
    allowedIps: row.key.allowedIps,
    propertyIds: null,
    limits: limitsFor(row.account),
    apiVersion: row.account.apiVersion,
    actor: { type: "api_key", id: row.key.id, name: row.key.name },
  };
}
