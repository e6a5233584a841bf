import { and, desc, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { ApiError, notFound } from "@/server/errors";
import { newId } from "@/server/ids";
import type { Scope } from "./scopes";
import { forgetCredentials } from "./credential-cache";
import { hashToken, newSecret } from "./tokens";
import { normalizeCidr } from "./ip-allow-list";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";

export type CreateApiKeyInput = { accountId: string; scopes: Scope[]; name?: string | null; allowedIps?: string[] };

/** Issues an API key. The key itself is returned once and only its hash is stored. */
export async function createApiKey({ db, input }: { db: Executor; input: CreateApiKeyInput }) {
  const allowedIps = (input.allowedIps ?? []).map((cidr, i) => {
    const normalized = normalizeCidr(cidr.trim());
    if (!normalized) {
      throw new ApiError("parameter_invalid", `Invalid parameter 'allowed_ips': '${cidr}' is not an IPv4 or IPv6 address or CIDR range.`, {
        param: `allowed_ips.${i}`,
      });
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
  return (await revokeKeyRow(db, accountId, id)) !== undefined;
}

/** Revokes a key still in force; its row as revoked (its state before differs only in `revoked_at`), or none. */
async function revokeKeyRow(db: Executor, accountId: string, id: string) {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning();
  await forgetCredentials(db);
  return row;
}

/** The dashboard's key: issued and on the account's trail in one transaction (never the key itself). */
export const issueApiKey = ({ db, tenant, actor, input }: ChangeCtx & { input: Omit<CreateApiKeyInput, "accountId"> }) =>
  inTransaction(db, async (tx) => {
    const created = await createApiKey({ db: tx, input: { ...input, accountId: tenant.accountId } });
    await audit(tx, { tenant, actor }, { action: "api_key.created", objectType: "api_key", objectId: created.id, after: presentApiKey(created.row) });
    return created;
  });

/** The dashboard's revocation, on the trail in the same transaction; an unknown key is 404, a revoked one 409. */
export const withdrawApiKey = ({ db, tenant, actor, id }: ChangeCtx & { id: string }) =>
  inTransaction(db, async (tx) => {
    const row = await revokeKeyRow(tx, tenant.accountId, id);
    if (!row) {
      await getApiKey({ db: tx, accountId: tenant.accountId, id });
      throw new ApiError("invalid_state_transition", "This API key is already revoked.", { param: "id" });
    }
    const after = presentApiKey(row);
    await audit(
      tx,
      { tenant, actor },
      { action: "api_key.revoked", objectType: "api_key", objectId: row.id, before: presentApiKey({ ...row, revokedAt: null }), after },
    );
    return after;
  });

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
