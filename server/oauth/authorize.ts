import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { audit } from "@/server/audit/audit";
import type { Db } from "@/db/client";
import { oauthCodes, oauthInstalls, properties } from "@/db/schema";
import { parseScopes, type Scope } from "@/server/auth/scopes";
import { hashToken, newSecret } from "@/server/auth/tokens";
import { newId } from "@/server/ids";
import { findClient, type OAuthClientRow } from "./client-auth";
import { malformedAuthorizeRequest, once, type AuthorizeParams } from "./authorize-shape";
import { codeLifetime, tokenPrefixes } from "./lifetimes";

export type { AuthorizeParams } from "./authorize-shape";

/** A request the consent page may show: every parameter checked. */
export type AuthorizationRequest = {
  client: OAuthClientRow;
  redirectUri: string;
  scopes: Scope[];
  state?: string;
  codeChallenge?: string;
};

/**
 * What to do with an authorization request (RFC 6749 §4.1.2.1): show an error page when the
 * client or redirect URI cannot be trusted (never redirect to an unverified address), redirect
 * with `error` for everything else that is wrong, else show the consent page.
 */
export type AuthorizeDecision =
  | { kind: "error_page"; status: 400 | 404; title: string; message: string }
  | { kind: "redirect"; location: string }
  | { kind: "consent"; request: AuthorizationRequest };


/** `redirect_uri` with the query parameters added, keeping any it already had. */
function redirectWith(redirectUri: string, values: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(values)) if (value !== undefined) url.searchParams.set(key, value);
  return url.toString();
}

/** The words for a client_id no app has (the consent page's not-found page shows them too). */
export const unknownApp = { title: "Unknown app", message: "No app with this client_id is registered on Innkeep. For your safety you were not sent anywhere." };

/** Validates an authorization request; no side effects. */
export async function checkAuthorizationRequest({ db, params }: { db: Db; params: AuthorizeParams }): Promise<AuthorizeDecision> {
  const malformed = malformedAuthorizeRequest(params);
  if (malformed) return { kind: "error_page", status: 400, ...malformed };
  const clientId = once(params, "client_id")!;
  const redirectUri = once(params, "redirect_uri");
  const client = await findClient(db, clientId);
  if (!client) return { kind: "error_page", status: 404, ...unknownApp };
  // Exact string match only: no prefix, no trailing-slash, port or case leniency.
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return {
      kind: "error_page",
      status: 400,
      title: "Redirect address not registered",
      message: `The app "${client.name}" asked to send you back to an address it has not registered. For your safety you were not sent anywhere.`,
    };
  }
  const state = once(params, "state");
  const fail = (error: string, description: string): AuthorizeDecision => ({
    kind: "redirect",
    location: redirectWith(redirectUri, { error, error_description: description, state: state ?? undefined }),
  });
  for (const name of ["response_type", "scope", "state", "code_challenge", "code_challenge_method"]) {
    if (once(params, name) === null) return fail("invalid_request", `Parameter '${name}' is repeated.`);
  }
  const responseType = once(params, "response_type");
  if (!responseType) return fail("invalid_request", "Missing parameter: response_type.");
  if (responseType !== "code") return fail("unsupported_response_type", "Only response_type=code is supported.");

  const challenge = once(params, "code_challenge") ?? undefined;
  const method = once(params, "code_challenge_method") ?? undefined;
  if (method !== undefined && method !== "S256") return fail("invalid_request", "code_challenge_method must be S256; 'plain' is not accepted.");
  if (challenge !== undefined && method === undefined) return fail("invalid_request", "code_challenge_method=S256 is required with a code_challenge.");
  if (method !== undefined && challenge === undefined) return fail("invalid_request", "code_challenge is missing.");
  if (challenge !== undefined && !/^[A-Za-z0-9_-]{43}$/.test(challenge)) return fail("invalid_request", "code_challenge is not a base64url SHA-256 digest.");
  if (client.public && !challenge) return fail("invalid_request", "Public clients must use PKCE (code_challenge with S256).");

  const scopeText = once(params, "scope");
  if (!scopeText) return fail("invalid_scope", "Missing parameter: scope.");
  const { valid, unknown } = parseScopes(scopeText);
  if (unknown.length) return fail("invalid_scope", `Unknown scope: ${unknown.join(", ")}.`);
  const notAllowed = valid.filter((s) => !client.scopes.includes(s));
  if (notAllowed.length) return fail("invalid_scope", `The app is not registered for: ${notAllowed.join(", ")}.`);
  if (!valid.length) return fail("invalid_scope", "No scope was requested.");

  return { kind: "consent", request: { client, redirectUri, scopes: valid, state: state ?? undefined, codeChallenge: challenge } };
}

/** The account's properties, both data sets, for the consent page's checkboxes. */
export async function grantableProperties({ db, accountId }: { db: Db; accountId: string }) {
  return db
    .select({ id: properties.id, name: properties.name, livemode: properties.livemode })
    .from(properties)
    .where(eq(properties.accountId, accountId))
    .orderBy(asc(properties.livemode), asc(properties.name));
}

/**
 * Approval: records the install (a new consent replaces the grant of an existing one) and issues
 * a single-use code bound to client, redirect URI and PKCE challenge. Returns where to send the
 * browser. Property ids must be the account's own; anything else is refused.
 */
export async function approveAuthorization({
  db,
  request,
  user,
  propertyIds,
}: {
  db: Db;
  request: AuthorizationRequest;
  user: { id: string; accountId: string; email: string };
  propertyIds: string[];
}): Promise<{ location: string; installId: string; before: typeof oauthInstalls.$inferSelect | null; after: typeof oauthInstalls.$inferSelect }> {
  const chosen = [...new Set(propertyIds)];
  const owned = chosen.length
    ? await db
        .select({ id: properties.id })
        .from(properties)
        .where(and(eq(properties.accountId, user.accountId), inArray(properties.id, chosen)))
    : [];
  if (!chosen.length || owned.length !== chosen.length) throw new Error("Choose at least one of your own properties.");
  const code = newSecret(tokenPrefixes.code);
  return db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(oauthInstalls)
      .where(and(eq(oauthInstalls.accountId, user.accountId), eq(oauthInstalls.clientId, request.client.id), isNull(oauthInstalls.revokedAt)))
      .for("update");
    const grant = { scopes: request.scopes, propertyIds: chosen, installedBy: user.id, updatedAt: new Date() };
    const [install] = existing
      ? await tx.update(oauthInstalls).set(grant).where(eq(oauthInstalls.id, existing.id)).returning()
      : await tx.insert(oauthInstalls).values({ id: newId("oauthInstall"), accountId: user.accountId, clientId: request.client.id, ...grant }).returning();
    await tx.insert(oauthCodes).values({
      id: newId("oauthCode"),
      codeHash: hashToken(code),
      clientId: request.client.id,
      installId: install.id,
      userId: user.id,
      redirectUri: request.redirectUri,
      scopes: request.scopes,
      codeChallenge: request.codeChallenge ?? null,
      codeChallengeMethod: request.codeChallenge ? "S256" : null,
      expiresAt: new Date(Date.now() + codeLifetime * 1000),
    });
    // On the trail of the staff member who consented, in the grant's own transaction (installs are account-wide: the live trail).
    const summary = (row: typeof install) => ({ app_id: row.clientId, scopes: row.scopes, property_ids: row.propertyIds });
    await audit(
      tx,
      { tenant: { accountId: user.accountId, livemode: true, propertyIds: null }, actor: { id: user.id, email: user.email } },
      {
        action: existing ? "oauth_install.updated" : "oauth_install.installed",
        objectType: "oauth_install",
        objectId: install.id,
        ...(existing && { before: summary(existing) }),
        after: summary(install),
      },
    );
    return { location: redirectWith(request.redirectUri, { code, state: request.state }), installId: install.id, before: existing ?? null, after: install };
  });
}

/** Denial: back to the app with `access_denied` and its state. */
export const denyAuthorization = (request: AuthorizationRequest) =>
  redirectWith(request.redirectUri, { error: "access_denied", error_description: "The user denied the request.", state: request.state });
