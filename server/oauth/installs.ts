import { and, desc, eq, inArray, isNull } from "drizzle-orm";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import type { Db } from "@/db/client";
import { oauthClients, oauthInstalls, properties, users } from "@/db/schema";
import { notFound } from "@/server/errors";
import { revokeInstallTokens } from "./families";
import { presentInstall } from "./present";

type AccountCtx = { db: Db; accountId: string };

/** The apps installed on the account (active installs), newest first, ready to show. */
export async function listInstalls({ db, accountId }: AccountCtx) {
  const rows = await db
    .select({ install: oauthInstalls, appName: oauthClients.name, installedBy: users.email })
    .from(oauthInstalls)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthInstalls.clientId))
    .leftJoin(users, eq(users.id, oauthInstalls.installedBy))
    .where(and(eq(oauthInstalls.accountId, accountId), isNull(oauthInstalls.revokedAt)))
    .orderBy(desc(oauthInstalls.createdAt), desc(oauthInstalls.id));
  const ids = [...new Set(rows.flatMap((r) => r.install.propertyIds))];
  const props = ids.length
    ? await db
        .select({ id: properties.id, name: properties.name, livemode: properties.livemode })
        .from(properties)
        .where(and(eq(properties.accountId, accountId), inArray(properties.id, ids)))
    : [];
  const byId = new Map(props.map((p) => [p.id, p]));
  return rows.map((r) =>
    presentInstall(r.install, {
      appName: r.appName,
      installedBy: r.installedBy,
      properties: r.install.propertyIds.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
    }),
  );
}

/** Revokes an install: every access and refresh token of it stops working at once. */
export async function revokeInstall({ db, tenant, actor, id, userId }: ChangeCtx & { id: string; userId: string }) {
  const accountId = tenant.accountId;
  return inTransaction(db, async (tx) => {
    const [before] = await tx
      .select()
      .from(oauthInstalls)
      .where(and(eq(oauthInstalls.id, id), eq(oauthInstalls.accountId, accountId), isNull(oauthInstalls.revokedAt)))
      .for("update");
    if (!before) throw notFound("oauth_install", id, "id");
    const [after] = await tx.update(oauthInstalls).set({ revokedAt: new Date(), revokedBy: userId }).where(eq(oauthInstalls.id, id)).returning();
    await revokeInstallTokens(tx, id);
    const summary = (row: typeof before) => ({
      app_id: row.clientId,
      scopes: row.scopes,
      property_ids: row.propertyIds,
      revoked_at: row.revokedAt?.toISOString() ?? null,
    });
    await audit(
      tx,
      { tenant, actor },
      { action: "oauth_install.revoked", objectType: "oauth_install", objectId: id, before: summary(before), after: summary(after) },
    );
    return { before, after };
  });
}
