import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { newId } from "@/server/ids";
import type { Scope } from "./scopes";
import { forgetCredentials } from "./credential-cache";
import { hashToken, newSecret } from "./tokens";
import { normalizeCidr } from "./ip-allow-list";

export type CreateApiKeyInput = { accountId: string; scopes: Scope[]; name?: string | null; allowedIps?: string[] };

/** Issues an API key. The key itself is returned once and only its hash is stored. */
export async function createApiKey({ db, input }: { db: Executor; input: CreateApiKeyInput }) {
  const allowedIps = (input.allowedIps ?? []).map((cidr) => {
    const normalized = normalizeCidr(cidr);
    if (!normalized) throw new Error(`Not an IP address or CIDR range: ${cidr}`);
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
      allowedIps,
    })
    .returning();
  return { id: row.id, key, scopes: row.scopes as Scope[], allowed_ips: row.allowedIps, name: row.name };
}

export async function revokeApiKey({ db, accountId, id }: { db: Executor; accountId: string; id: string }) {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)))
    .returning({ id: apiKeys.id });
  forgetCredentials();
  return rows.length > 0;
}
