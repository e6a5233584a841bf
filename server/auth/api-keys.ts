import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { ApiError, notFound } from "@/server/errors";
import { newId } from "@/server/ids";
import type { Scope } from "./scopes";
import { forgetCredentials } from "./credential-cache";
import { hashToken, newSecret } from "./tokens";
import { normalizeCidr } from "./ip-allow-list";

export type CreateApiKeyInput = { accountId: string; scopes: Scope[]; name?: string | null; allowedIps?: string[] };

/** Issues an API key. The key itself is returned once and only its hash is stored. */
export async function createApiKey({ db, input }: { db: Executor; input: CreateApiKeyInput }) {
  const allowedIps = (input.allowedIps ?? []).map((cidr, i) => {
    const normalized = normalizeCidr(cidr.trim());
    if (!normalized) {
      throw new ApiError("parameter_invalid", `Invalid parameter 'allowed_ips': '${cidr}' is not an IPv4 or IPv6 address or CIDR range.`, { param: `allowed_ips.${i}` });
    }
    return normalized;
  });
  const key = newSecret("hk");
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId("apiKey"),
      accountId: input.accountId,
      name: input.name ?? null,
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, 10),
      scopes: [...new Set(input.scopes)],
      allowedIps: [...new Set(allowedIps)],
    })
    .returning();
  return { id: row.id, key, scopes: row.scopes as Scope[], allowed_ips: row.allowedIps, name: row.name, row };
}

export async function revokeApiKey({ db, accountId, id }: { db: Executor; accountId: string; id: string }) {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  await forgetCredentials(db);
  return rows.length > 0;
}

/** The account's keys, newest first (revoked ones included, marked); never the key itself. */
export const listApiKeys = ({ db, accountId }: { db: Executor; accountId: string }) =>
  db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));

export async function getApiKey({ db, accountId, id }: { db: Executor; accountId: string; id: string }) {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)));
  if (!row) throw notFound("API key", id);
  return row;
}

/** How stale `last_used_at` may get: the auth path writes at most once a minute per key. */
export const lastUsedResolutionMs = 60_000;

/**
 * Records a key's use when its `last_used_at` is older than a minute (the caller checks first,
 * so most requests write nothing; the condition keeps concurrent requests to one write).
 */
export async function touchApiKey(db: Executor, id: string, now = new Date()): Promise<void> {
  await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`${new Date(now.getTime() - lastUsedResolutionMs).toISOString()}::timestamptz`))));
}

export const presentApiKey = (k: typeof apiKeys.$inferSelect) => ({
  id: k.id,
  object: "api_key" as const,
  name: k.name,
  prefix: k.keyPrefix,
  scopes: k.scopes,
  allowed_ips: k.allowedIps,
  created_at: k.createdAt.toISOString(),
  last_used_at: k.lastUsedAt?.toISOString() ?? null,
  revoked_at: k.revokedAt?.toISOString() ?? null,
});
