import { eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, oauthClients, oauthInstalls, oauthTokens, users } from "@/db/schema";
import { limitsFor } from "@/server/plans";
import type { Principal } from "./principal";
import type { Scope } from "./scopes";
import { hashToken } from "./tokens";
import { ApiError } from "@/server/errors";

/** "Last used" is written at most this often per install, not on every request. */
const lastUsedGranularityMs = 60_000;

/**
 * Resolves an OAuth access token (`hat_…`) to its principal: the installing account (whose rate
 * limits it spends), the scopes of the token within the install's current grant, and the
 * granted properties. Revoked tokens and revoked installs answer like unknown credentials.
 */
export async function authenticateAccessToken(db: Executor, token: string): Promise<Principal> {
  const [row] = await db
    .select({ token: oauthTokens, install: oauthInstalls, account: accounts, appName: oauthClients.name, installerEmail: users.email })
    .from(oauthTokens)
    .innerJoin(oauthInstalls, eq(oauthInstalls.id, oauthTokens.installId))
    .innerJoin(accounts, eq(accounts.id, oauthInstalls.accountId))
    .innerJoin(oauthClients, eq(oauthClients.id, oauthInstalls.clientId))
    // The staff member who installed the app, named on the audit trail beside it.
    .leftJoin(users, eq(users.id, oauthInstalls.installedBy))
    .where(eq(oauthTokens.tokenHash, hashToken(token)))
    .limit(1);
  if (!row || row.token.kind !== "access" || row.token.revokedAt || row.install.revokedAt) {
    throw new ApiError("invalid_token", "The access token is not valid.");
  }
  if (row.token.expiresAt.getTime() <= Date.now()) {
    throw new ApiError("token_expired", "The access token has expired. Use your refresh token to get a new one.");
  }
  const last = row.install.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - last > lastUsedGranularityMs) {
    await db.update(oauthInstalls).set({ lastUsedAt: new Date() }).where(eq(oauthInstalls.id, row.install.id));
  }
  const granted = new Set(row.install.scopes);
  return {
    kind: "oauth",
    credentialId: row.install.id,
    accountId: row.account.id,
    scopes: new Set(row.token.scopes.filter((s) => granted.has(s)) as Scope[]),
    allowedIps: [],
    propertyIds: row.install.propertyIds,
    limits: limitsFor(row.account),
    apiVersion: row.account.apiVersion,
    actor: { type: "oauth_app", id: row.install.clientId, name: row.appName, email: row.installerEmail },
  };
}
