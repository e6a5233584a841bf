import { and, eq, isNull } from "drizzle-orm";
import OAuth2Server from "@node-oauth/oauth2-server";
import type { AuthorizationCode, AuthorizationCodeModel, Client, RefreshToken, RefreshTokenModel, Token, User } from "@node-oauth/oauth2-server";
import type { Executor } from "@/db/client";
import { oauthCodes, oauthInstalls, oauthTokens } from "@/db/schema";
import { newSecret, hashToken } from "@/server/auth/tokens";
import { newId } from "@/server/ids";
import { authenticateClient } from "./client-auth";
import { revokeFamily } from "./families";
import { tokenPrefixes } from "./lifetimes";

/** What the library carries as its "user": who consented, which install, which token family. */
export type GrantUser = User & { id: string; installId: string; familyId: string };

/** The grant types this server supports (RFC 8414 metadata, and the token endpoint's first check). */
export const grantTypes = ["authorization_code", "refresh_token"];
const grants = grantTypes;

/** Whether an install still stands (the dashboard can revoke it at any moment). */
async function installActive(db: Executor, installId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: oauthInstalls.id })
    .from(oauthInstalls)
    .where(and(eq(oauthInstalls.id, installId), isNull(oauthInstalls.revokedAt)))
    .limit(1);
  return Boolean(row);
}

/**
 * The storage side of `@node-oauth/oauth2-server` over drizzle. The library validates the
 * protocol (grant types, PKCE, redirect URI, scope narrowing, §5.2 errors); this model owns the
 * token formats, hashed storage, single use of codes and family revocation.
 */
export function oauthModel(db: Executor): AuthorizationCodeModel & RefreshTokenModel {
  return {
    async getClient(clientId: string, clientSecret: string | undefined): Promise<Client | null> {
      const client = await authenticateClient(db, clientId, clientSecret || undefined);
      return client ? { id: client.id, grants, redirectUris: client.redirectUris } : null;
    },

    generateAccessToken: async () => newSecret(tokenPrefixes.access),
    generateRefreshToken: async () => newSecret(tokenPrefixes.refresh),

    async getAuthorizationCode(code: string): Promise<AuthorizationCode | null> {
      const [row] = await db.select().from(oauthCodes).where(eq(oauthCodes.codeHash, hashToken(code))).limit(1);
      if (!row) return null;
      if (row.usedAt) {
        // A second use means the code leaked: whatever was issued from it must stop working. A
        // first exchange that failed (a wrong code_verifier or redirect_uri: the library uses the
        // code up before checking them, against guessing) issued nothing, and the answer says so.
        const [issued] = await db.select({ id: oauthTokens.id }).from(oauthTokens).where(eq(oauthTokens.familyId, row.id)).limit(1);
        if (!issued) {
          throw new OAuth2Server.InvalidGrantError(
            "The authorization code was already presented, in an exchange that failed (a code is used up by its first exchange, even a refused one); no token was issued from it. Send the user through authorization again.",
          );
        }
        await revokeFamily(db, row.id);
        throw new OAuth2Server.InvalidGrantError(
          "The authorization code was already used; every token issued from it has been revoked. Send the user through authorization again.",
        );
      }
      if (!(await installActive(db, row.installId))) return null;
      const user: GrantUser = { id: row.userId, installId: row.installId, familyId: row.id };
      return {
        authorizationCode: row.id,
        expiresAt: row.expiresAt,
        redirectUri: row.redirectUri,
        scope: row.scopes,
        client: { id: row.clientId, grants },
        user,
        codeChallenge: row.codeChallenge ?? undefined,
        codeChallengeMethod: row.codeChallengeMethod ?? undefined,
      };
    },

    async saveAuthorizationCode() {
      throw new Error("Codes are issued by the consent page (server/oauth/authorize.ts), not by the library.");
    },

    /** Marks the code used; false when another request used it first. */
    async revokeAuthorizationCode(code: AuthorizationCode): Promise<boolean> {
      const rows = await db
        .update(oauthCodes)
        .set({ usedAt: new Date() })
        .where(and(eq(oauthCodes.id, code.authorizationCode), isNull(oauthCodes.usedAt)))
        .returning({ id: oauthCodes.id });
      if (rows.length === 1) return true;
      throw new OAuth2Server.InvalidGrantError("The authorization code was used by another request at the same moment; it can be used only once.");
    },

    async saveToken(token: Token, client: Client, user: User): Promise<Token> {
      const grant = user as GrantUser;
      if (!(await installActive(db, grant.installId))) throw new OAuth2Server.InvalidGrantError("Invalid grant: the app's install was revoked");
      const scopes = (token.scope ?? []) as string[];
      const base = { clientId: client.id, installId: grant.installId, familyId: grant.familyId, userId: grant.id, scopes };
      const rows: (typeof oauthTokens.$inferInsert)[] = [
        { ...base, id: newId("oauthToken"), kind: "access", tokenHash: hashToken(token.accessToken), expiresAt: token.accessTokenExpiresAt! },
      ];
      if (token.refreshToken) {
        rows.push({ ...base, id: newId("oauthToken"), kind: "refresh", tokenHash: hashToken(token.refreshToken), expiresAt: token.refreshTokenExpiresAt! });
      }
      await db.insert(oauthTokens).values(rows);
      return { ...token, client, user };
    },

    async getRefreshToken(refreshToken: string): Promise<RefreshToken | null> {
      const [row] = await db
        .select()
        .from(oauthTokens)
        .where(and(eq(oauthTokens.tokenHash, hashToken(refreshToken)), eq(oauthTokens.kind, "refresh")))
        .limit(1);
      if (!row || row.revokedAt) return null;
      if (row.rotatedAt) {
        // A retired refresh token came back: one of its two holders is a thief. End the family.
        await revokeFamily(db, row.familyId);
        throw new OAuth2Server.InvalidGrantError(
          "This refresh token was already used (each refresh replaces it); a reuse means it may have leaked, so every token of its grant, access and refresh, has been revoked. Send the user through authorization again.",
        );
      }
      if (!(await installActive(db, row.installId))) return null;
      const user: GrantUser = { id: row.userId, installId: row.installId, familyId: row.familyId };
      return { refreshToken, refreshTokenExpiresAt: row.expiresAt, scope: row.scopes, client: { id: row.clientId, grants }, user };
    },

    /** Rotation: retires the presented refresh token; false when a parallel refresh won. */
    async revokeToken(token: RefreshToken | Token): Promise<boolean> {
      const rows = await db
        .update(oauthTokens)
        .set({ rotatedAt: new Date() })
        .where(and(eq(oauthTokens.tokenHash, hashToken(token.refreshToken!)), isNull(oauthTokens.rotatedAt), isNull(oauthTokens.revokedAt)))
        .returning({ id: oauthTokens.id });
      return rows.length === 1;
    },

    // Required by the library's types; bearer tokens are checked by the REST wrapper instead.
    async getAccessToken() {
      return null as unknown as Token;
    },
    async verifyScope() {
      return false;
    },
  };
}
