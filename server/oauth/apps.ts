import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import { oauthClients, oauthInstalls } from "@/db/schema";
import { createOAuthClient } from "./clients";
import type { Scope } from "@/server/auth/scopes";
import { hashToken, newSecret } from "@/server/auth/tokens";
import { ApiError, notFound } from "@/server/errors";
import { revokeInstallTokens } from "./families";
import { presentApp } from "./present";

type AccountCtx = { db: Db; accountId: string };
type App = typeof oauthClients.$inferSelect;

/** The account's registered apps, newest first. */
export async function listApps({ db, accountId }: AccountCtx) {
  return db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.accountId, accountId), isNull(oauthClients.deletedAt)))
    .orderBy(desc(oauthClients.createdAt), desc(oauthClients.id));
}

/** One app of the account, or 404 `resource_missing` (another account's app included). */
async function getApp({ db, accountId, id, forUpdate = false }: { db: Executor; accountId: string; id: string; forUpdate?: boolean }) {
  const query = db
    .select()
    .from(oauthClients)
    .where(and(eq(oauthClients.id, id), eq(oauthClients.accountId, accountId), isNull(oauthClients.deletedAt)))
    .limit(1);
  const [row] = await (forUpdate ? query.for("update") : query);
  if (!row) throw notFound("oauth_app", id, "id");
  return row;
}

/** An app's trail entry in the change's transaction: the app as the dashboard presents it (never its secret). */
const appAudit = (tx: Executor, who: Pick<ChangeCtx, "tenant" | "actor">, verb: string, id: string, before?: App, after?: App) =>
  audit(tx, who, {
    action: `oauth_app.${verb}`,
    objectType: "oauth_app",
    objectId: id,
    ...(before && { before: presentApp(before) }),
    ...(after && { after: presentApp(after) }),
  });

/** Registers an app; the secret of a confidential app comes back once. */
export async function registerApp({
  db,
  tenant,
  actor,
  userId,
  input,
}: ChangeCtx & { userId: string; input: { name: string; redirect_uris: string[]; scopes: Scope[]; public: boolean } }) {
  const accountId = tenant.accountId;
  return inTransaction(db, async (tx) => {
    const created = await createOAuthClient({
      db: tx,
      input: {
        accountId,
        name: input.name,
        redirectUris: [...new Set(input.redirect_uris)],
        scopes: input.scopes,
        public: input.public,
        createdBy: userId,
      },
    });
    const app = await getApp({ db: tx, accountId, id: created.client_id });
    await appAudit(tx, { tenant, actor }, "created", app.id, undefined, app);
    return { app, secret: created.client_secret };
  });
}

/**
 * Changes name, redirect URIs or allowed scopes. Narrowing scopes does not widen anything
 * already granted; codes and tokens keep the exact redirect URI they were bound to.
 */
export async function updateApp({
  db,
  tenant,
  actor,
  id,
  input,
}: ChangeCtx & { id: string; input: { name?: string; redirect_uris?: string[]; scopes?: Scope[] } }) {
  return inTransaction(db, async (tx) => {
    const before = await getApp({ db: tx, accountId: tenant.accountId, id, forUpdate: true });
    const [after] = await tx
      .update(oauthClients)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.redirect_uris !== undefined ? { redirectUris: [...new Set(input.redirect_uris)] } : {}),
        ...(input.scopes !== undefined ? { scopes: input.scopes } : {}),
        updatedAt: new Date(),
      })
      .where(eq(oauthClients.id, before.id))
      .returning();
    await appAudit(tx, { tenant, actor }, "updated", id, before, after);
    return { before, after };
  });
}

/** A new secret for a confidential app, shown once; the old one stops working at once. */
export async function rotateAppSecret({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const before = await getApp({ db: tx, accountId: tenant.accountId, id, forUpdate: true });
    if (before.public) throw new ApiError("parameter_invalid", "A public app has no secret to rotate.", { param: "id" });
    const secret = newSecret("appsec");
    const [after] = await tx
      .update(oauthClients)
      .set({ secretHash: hashToken(secret), updatedAt: new Date() })
      .where(eq(oauthClients.id, id))
      .returning();
    await appAudit(tx, { tenant, actor }, "secret_rotated", id, before, after);
    return { before, after, secret };
  });
}

/** Deletes an app: its installs and every token they hold end with it. */
export async function deleteApp({ db, tenant, actor, id, userId }: ChangeCtx & { id: string; userId: string }) {
  const now = new Date();
  return inTransaction(db, async (tx) => {
    const before = await getApp({ db: tx, accountId: tenant.accountId, id, forUpdate: true });
    const installs = await tx
      .update(oauthInstalls)
      .set({ revokedAt: now, revokedBy: userId })
      .where(and(eq(oauthInstalls.clientId, id), isNull(oauthInstalls.revokedAt)))
      .returning({ id: oauthInstalls.id });
    for (const install of installs) await revokeInstallTokens(tx, install.id);
    await tx.update(oauthClients).set({ deletedAt: now, updatedAt: now }).where(eq(oauthClients.id, id));
    await appAudit(tx, { tenant, actor }, "deleted", id, before);
    return before;
  });
}
