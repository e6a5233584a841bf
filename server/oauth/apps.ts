import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthClients, oauthInstalls } from "@/db/schema";
import { createOAuthClient } from "@/server/auth/oauth-clients";
import type { Scope } from "@/server/auth/scopes";
import { hashToken, newSecret } from "@/server/auth/tokens";
import { ApiError, notFound } from "@/server/errors";
import { revokeInstallTokens } from "./families";

type AccountCtx = { db: Db; accountId: string };

/** The account's registered apps, newest first. */
export async function listApps({ db, accountId }: AccountCtx) {
  return db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.accountId, accountId), isNull(oauthClients.deletedAt)))
    .orderBy(desc(oauthClients.createdAt), desc(oauthClients.id));
}

/** One app of the account, or 404 `resource_missing` (another account's app included). */
export async function getApp({ db, accountId, id }: AccountCtx & { id: string }) {
  const [row] = await db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.id, id), eq(oauthClients.accountId, accountId), isNull(oauthClients.deletedAt)))
    .limit(1);
  if (!row) throw notFound("oauth_app", id, "id");
  return row;
}

/** Registers an app; the secret of a confidential app comes back once. */
export async function registerApp({
  db,
  accountId,
  userId,
  input,
}: AccountCtx & { userId: string; input: { name: string; redirect_uris: string[]; scopes: Scope[]; public: boolean } }) {
  const created = await createOAuthClient({
    db,
    input: { accountId, name: input.name, redirectUris: [...new Set(input.redirect_uris)], scopes: input.scopes, public: input.public, createdBy: userId },
  });
  return { app: await getApp({ db, accountId, id: created.client_id }), secret: created.client_secret };
}

/**
 * Changes name, redirect URIs or allowed scopes. Narrowing scopes does not widen anything
 * already granted; codes and tokens keep the exact redirect URI they were bound to.
 */
export async function updateApp({ db, accountId, id, input }: AccountCtx & { id: string; input: { name?: string; redirect_uris?: string[]; scopes?: Scope[] } }) {
  const before = await getApp({ db, accountId, id });
  const [after] = await db
    .update(oauthClients)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.redirect_uris !== undefined ? { redirectUris: [...new Set(input.redirect_uris)] } : {}),
      ...(input.scopes !== undefined ? { scopes: input.scopes } : {}),
      updatedAt: new Date(),
    })
    .where(eq(oauthClients.id, before.id))
    .returning();
  return { before, after };
}

/** A new secret for a confidential app, shown once; the old one stops working at once. */
export async function rotateAppSecret({ db, accountId, id }: AccountCtx & { id: string }) {
  const before = await getApp({ db, accountId, id });
  if (before.public) throw new ApiError("parameter_invalid", "A public app has no secret to rotate.", { param: "id" });
  const secret = newSecret("appsec");
  const [after] = await db.update(oauthClients).set({ secretHash: hashToken(secret), updatedAt: new Date() }).where(eq(oauthClients.id, id)).returning();
  return { before, after, secret };
}

/** Deletes an app: its installs and every token they hold end with it. */
export async function deleteApp({ db, accountId, id, userId }: AccountCtx & { id: string; userId: string }) {
  const before = await getApp({ db, accountId, id });
  const now = new Date();
  await db.transaction(async (tx) => {
    const installs = await tx
      .update(oauthInstalls)
      .set({ revokedAt: now, revokedBy: userId })
      .where(and(eq(oauthInstalls.clientId, id), isNull(oauthInstalls.revokedAt)))
      .returning({ id: oauthInstalls.id });
    for (const install of installs) await revokeInstallTokens(tx, install.id);
    await tx.update(oauthClients).set({ deletedAt: now, updatedAt: now }).where(eq(oauthClients.id, id));
  });
  return before;
}
