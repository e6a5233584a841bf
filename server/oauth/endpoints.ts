import { forgetCredentials } from "@/server/auth/credential-cache";
import type { IncomingMessage } from "node:http";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import OAuth2Server from "@node-oauth/oauth2-server";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthTokens } from "@/db/schema";
import { hashToken } from "@/server/auth/tokens";
import { scopes } from "@/server/auth/scopes";
import { addressOf, type ProxyTrust } from "@/server/proxy-trust";
import type { ApiDeps } from "@/server/http/context";
import type { RateLimits } from "@/server/plans";
import { logger } from "@/server/observability/logger";
import { authenticateClient } from "./client-auth";
import { revokeFamily } from "./families";
import { accessTokenLifetime, refreshTokenLifetime } from "./lifetimes";
import { CodeGrant } from "./code-grant";
import { grantTypes, oauthModel } from "./model";
import { RefreshGrant } from "./refresh-grant";

/** Every answer of the token endpoints: never cached (RFC 6749 §5.1). */
const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" };
const basicChallenge = { "WWW-Authenticate": 'Basic realm="innkeep"' };
const maxBody = 64 * 1024;

type OAuthErrorBody = { error: string; error_description: string };
const oauthError = (error: string, description: string): OAuthErrorBody => ({ error, error_description: description });

/**
 * Reads an `application/x-www-form-urlencoded` body. RFC 6749 §3.2: parameters must not repeat,
 * so a repeated one is an `invalid_request`, as is any other content type.
 */
async function readForm(c: Context): Promise<{ form: Record<string, string> } | { error: OAuthErrorBody }> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    return { error: oauthError("invalid_request", "The body must be application/x-www-form-urlencoded.") };
  }
  const text = await c.req.text();
  if (text.length > maxBody) return { error: oauthError("invalid_request", "The body is too large.") };
  const form: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    if (key in form) return { error: oauthError("invalid_request", `Parameter '${key}' is repeated.`) };
    form[key] = value;
  }
  return { form };
}

/** The issuer identifier: this server's origin, as the client reached it. */
function issuerOf(c: Context, trustProxy: ProxyTrust): string {
  const url = new URL(c.req.url);
  const proto = trustProxy ? (c.req.header("x-forwarded-proto")?.split(",")[0].trim() ?? url.protocol.replace(":", "")) : url.protocol.replace(":", "");
  const host = (trustProxy ? c.req.header("x-forwarded-host") : undefined) ?? c.req.header("host") ?? url.host;
  return `${proto}://${host}`;
}

/** RFC 8414 metadata, so standard clients discover the endpoints. */
function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    response_types_supported: ["code"],
    grant_types_supported: grantTypes,
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
    scopes_supported: [...scopes],
    service_documentation: `${issuer}/docs`,
  };
}

/** Client credentials from HTTP Basic (form-urlencoded inside, RFC 6749 §2.3.1) or the body. */
function clientCredentials(c: Context, form: Record<string, string>): { id?: string; secret?: string; basic: boolean } {
  const header = c.req.header("authorization");
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (match) {
    const decoded = Buffer.from(match[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      const unescape = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
      try {
        return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)), basic: true };
      } catch {
        return { basic: true };
      }
    }
    return { basic: true };
  }
  return { id: form.client_id, secret: form.client_secret, basic: false };
}

/**
 * Limits of `/oauth/token` and `/oauth/revoke`. Every request counts against the client it names
 * (an integrator refreshing tokens for many hotels makes many, all from one address); an address
 * is held back only by its failed requests (wrong secrets, codes or tokens: what guessing looks
 * like), so a busy integrator's server is never throttled for its address alone.
 */
export const oauthLimits = {
  failuresByAddress: { perSecond: 5, perMinute: 30, perDay: 1_000 },
  client: { perSecond: 25, perMinute: 1_200, perDay: 200_000 },
} as const satisfies Record<string, RateLimits>;

type OAuthEnv = { Bindings: { incoming?: IncomingMessage } };
type OAuthDeps = Pick<ApiDeps, "db" | "trustProxy" | "limiter" | "oauthLimits">;

const tooMany = (c: Context, retryAfter: number) =>
  c.json(oauthError("too_many_requests", `Too many requests; retry after ${retryAfter} seconds.`), 429, { ...noStore, "Retry-After": String(retryAfter) });

/** `/oauth/token`, `/oauth/revoke` and the RFC 8414 document, beside `/v1` on the fast path. */
export function createOAuthEndpoints(deps: OAuthDeps) {
  const app = new Hono<OAuthEnv>();
  const limits = deps.oauthLimits ?? oauthLimits;
  const server = new OAuth2Server({
    model: oauthModel(deps.db),
    accessTokenLifetime,
    refreshTokenLifetime,
    // Public clients authenticate by PKCE (codes) or not at all (refresh): the model decides
    // per client, and refuses a confidential client that sent no secret.
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    alwaysIssueNewRefreshToken: true,
    extendedGrantTypes: { authorization_code: CodeGrant as never, refresh_token: RefreshGrant as never },
    allowEmptyState: true,
  });

  /** Refuses an address whose failures are spent; counts this request's failure, if it fails. */
  const guardAddress: MiddlewareHandler<OAuthEnv> = async (c, next) => {
    const key = `oauth-failures:${addressOf(c.env?.incoming, deps.trustProxy) ?? "unknown"}`;
    const usage = await deps.limiter.peek(key, limits.failuresByAddress);
    const now = Date.now();
    const waits = Object.values(usage)
      .filter((window) => window.limit !== null && window.used >= window.limit)
      .map((window) => Math.max(1, Math.ceil(((window.resetsAt?.getTime() ?? now + 1_000) - now) / 1_000)));
    if (waits.length) return tooMany(c, Math.max(...waits));
    await next();
    if (c.res.status >= 400 && c.res.status < 500 && c.res.status !== 429) await deps.limiter.consume(key, limits.failuresByAddress);
  };
  /** Counts the request against the client it names; the 429 to answer once that is spent. */
  const refusedForClient = async (c: Context, id: string | undefined): Promise<Response | undefined> => {
    if (!id) return undefined;
    const state = await deps.limiter.consume(`oauth-client:${id}`, limits.client);
    return state.retryAfter === undefined ? undefined : tooMany(c, state.retryAfter);
  };
  app.use("/oauth/token", guardAddress);
  app.use("/oauth/revoke", guardAddress);

  app.get("/.well-known/oauth-authorization-server", (c) => c.json(authorizationServerMetadata(issuerOf(c, deps.trustProxy)), 200, { "Cache-Control": "public, max-age=300" }));

  app.post("/oauth/token", async (c) => {
    const read = await readForm(c);
    if ("error" in read) return c.json(read.error, 400, noStore);
    // RFC 6749 §5.2: a grant type this server does not support is `unsupported_grant_type`,
    // whoever asks (the library would call a known but unsupported one `unauthorized_client`).
    const grantType = read.form.grant_type;
    if (grantType && !grantTypes.includes(grantType)) {
      return c.json(oauthError("unsupported_grant_type", `The grant type '${grantType.slice(0, 64)}' is not supported: use ${grantTypes.join(" or ")}.`), 400, noStore);
    }
    const credentials = clientCredentials(c, read.form);
    const limited = await refusedForClient(c, credentials.id);
    if (limited) return limited;
    if (credentials.basic && !credentials.id) {
      return c.json(oauthError("invalid_client", "The Basic credentials could not be read."), 401, { ...noStore, ...basicChallenge });
    }
    // The library reads Basic itself; hand it decoded credentials in the body instead, once.
    const body = { ...read.form };
    if (credentials.basic) {
      body.client_id = credentials.id!;
      if (credentials.secret) body.client_secret = credentials.secret;
    }
    const headers: Record<string, string> = Object.fromEntries(c.req.raw.headers);
    delete headers.authorization;
    const request = new OAuth2Server.Request({ method: "POST", headers, query: {}, body });
    const response = new OAuth2Server.Response({ headers: {} });
    try {
      await server.token(request, response);
      const answer = response.body as Record<string, unknown>;
      // The lifetime as configured: the library derives it from the clock and may say 3599.
      answer.expires_in = accessTokenLifetime;
      return c.json(answer, 200, noStore);
    } catch (error) {
      const e = error as InstanceType<typeof OAuth2Server.OAuthError>;
      if (!(e instanceof OAuth2Server.OAuthError) || e.name === "server_error") {
        logger.error({ err: (e as { inner?: unknown }).inner ?? e }, "oauth token endpoint failed");
        return c.json(oauthError("server_error", "The token could not be issued. Try again."), 500, noStore);
      }
      // RFC 6749 §5.2: 401 with a challenge when the client tried HTTP Basic; 400 otherwise.
      const challenge = e.name === "invalid_client" && credentials.basic;
      return c.json(oauthError(e.name, e.message), challenge ? 401 : 400, challenge ? { ...noStore, ...basicChallenge } : noStore);
    }
  });

  app.post("/oauth/revoke", async (c) => {
    const read = await readForm(c);
    if ("error" in read) return c.json(read.error, 400, noStore);
    const credentials = clientCredentials(c, read.form);
    const limited = await refusedForClient(c, credentials.id);
    if (limited) return limited;
    const client = credentials.id ? await authenticateClient(deps.db, credentials.id, credentials.secret || undefined) : undefined;
    if (!client) {
      const answer = oauthError("invalid_client", "Client authentication failed.");
      return credentials.basic ? c.json(answer, 401, { ...noStore, ...basicChallenge }) : c.json(answer, 400, noStore);
    }
    const token = read.form.token;
    if (!token) return c.json(oauthError("invalid_request", "Missing parameter: `token`."), 400, noStore);
    await revokeToken(deps.db, client.id, token);
    // RFC 7009 §2.2: unknown, already revoked and other clients' tokens all answer 200.
    return c.body(null, 200, noStore);
  });

  return app;
}

/**
 * RFC 7009 revocation of the client's own token. A refresh token takes its whole family with
 * it (§2.1: access tokens of the same grant should go too); an access token goes alone.
 */
export async function revokeToken(db: Db, clientId: string, token: string): Promise<void> {
  const [row] = await db
    .select({ id: oauthTokens.id, kind: oauthTokens.kind, familyId: oauthTokens.familyId })
    .from(oauthTokens)
    .where(and(eq(oauthTokens.tokenHash, hashToken(token)), eq(oauthTokens.clientId, clientId)))
    .limit(1);
  if (!row) return;
  if (row.kind === "refresh") await revokeFamily(db, row.familyId);
  else {
    await db.update(oauthTokens).set({ revokedAt: new Date() }).where(and(eq(oauthTokens.id, row.id), isNull(oauthTokens.revokedAt)));
    await forgetCredentials(db);
  }
}
