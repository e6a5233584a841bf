import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, apiKeys } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { limitsFor } from "@/server/plans";
import { authenticateAccessToken } from "./access-tokens";
import type { Scope } from "./scopes";
import type { Principal } from "./principal";
import { hashToken } from "./tokens";

export type { Principal } from "./principal";

/** How stale `last_used_at` may get: the auth path writes at most once a minute per key. */
const lastUsedResolutionMs = 60_000;

/**
 * Records a key's use when its `last_used_at` is older than a minute (the caller checks first,
 * so most requests write nothing; the condition keeps concurrent requests to one write).
 */
async function touchApiKey(db: Executor, id: string, now = new Date()): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(apiKeys.id, id),
        or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`${new Date(now.getTime() - lastUsedResolutionMs).toISOString()}::timestamptz`)),
      ),
    );
}

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
