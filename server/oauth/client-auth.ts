import { timingSafeEqual } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { oauthClients } from "@/db/schema";
import { hashToken } from "@/server/auth/tokens";
import { isStorableText } from "@/server/http/validation";

export type OAuthClientRow = typeof oauthClients.$inferSelect;

/**
 * A registered, not deleted app by its client_id. A client_id the database could not even hold
 * (a NUL character, an unpaired surrogate) names no app: it is unknown, never a failed query.
 */
export async function findClient(db: Executor, clientId: string): Promise<OAuthClientRow | undefined> {
  if (!isStorableText(clientId)) return undefined;
  const [row] = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.id, clientId), isNull(oauthClients.deletedAt)))
    .limit(1);
  return row;
}

/**
 * Client authentication: a confidential client must present its secret (compared as hashes in
 * constant time); a public client has none and must not send one.
 */
export async function authenticateClient(db: Executor, clientId: string, secret: string | undefined): Promise<OAuthClientRow | undefined> {
  const client = await findClient(db, clientId);
  if (!client) return undefined;
  if (client.public) return secret ? undefined : client;
  if (!secret || !client.secretHash) return undefined;
  const given = Buffer.from(hashToken(secret), "hex");
  const stored = Buffer.from(client.secretHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored) ? client : undefined;
}
