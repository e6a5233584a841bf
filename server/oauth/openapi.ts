import { scopes } from "@/server/auth/scopes";
import { grantTypes } from "./model";

/**
 * The OAuth endpoints in the OpenAPI document: `/oauth/authorize` (the consent page),
 * `/oauth/token`, `/oauth/revoke` (form-encoded, RFC 6749 §5.2 errors) and the RFC 8414 metadata.
 * They live at the server's origin, not under `/v1`: each path item says so with its own
 * `servers`, and tools that walk the `/v1` operations skip path items that have one
 * (`isOriginPath` of server/http/openapi-origin.ts). Written by hand, as these endpoints are served by `endpoints.ts` and the
 * consent page, not by `defineOperation`; `tests/integration/openapi-oauth.test.ts` drives each
 * answer declared here.
 */

type Json = Record<string, unknown>;

const errorCodes = {
  token: ["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"],
  revoke: ["invalid_request", "invalid_client"],
};

const oauthError = (codes: string[], example: string, description: string) => ({
  type: "object",
  title: "OAuthError",
  description: "RFC 6749 §5.2: branch on `error`; `error_description` is a sentence for the developer.",
  properties: { error: { type: "string", enum: codes }, error_description: { type: "string" } },
  required: ["error", "error_description"],
  example: { error: example, error_description: description },
});

const noStore = {
  "Cache-Control": { description: "`no-store`: token answers are never cached (RFC 6749 §5.1).", schema: { type: "string", enum: ["no-store"] } },
  Pragma: { description: "`no-cache`.", schema: { type: "string", enum: ["no-cache"] } },
};
const basicChallenge = { description: "`Basic realm=\"innkeep\"`, when the client authenticated with HTTP Basic.", schema: { type: "string" } };
const retryAfter = { description: "Whole seconds to wait before retrying.", required: true, schema: { type: "integer", minimum: 1 } };

const errorAnswer = (codes: string[], example: string, description: string, text: string, headers: Json = {}) => ({
  description: text,
  headers: { ...noStore, ...headers },
  content: { "application/json": { schema: oauthError(codes, example, description), example: { error: example, error_description: description } } },
});

const tooMany = errorAnswer(["too_many_requests"], "too_many_requests", "Too many requests; retry after 3 seconds.", "Too many requests: this client's requests, or this address's failed ones.", { "Retry-After": retryAfter });
const serverError = errorAnswer(["server_error"], "server_error", "The token could not be issued. Try again.", "The token could not be issued (retry).");

const clientCredentials = {
  client_id: { type: "string", description: "The app's client id (`app_…`), unless sent by HTTP Basic." },
  client_secret: { type: "string", description: "A confidential client's secret, unless sent by HTTP Basic. Public clients send none (they prove the code with PKCE)." },
};

const tokenForm = {
  oneOf: [
    {
      type: "object",
      title: "AuthorizationCodeGrant",
      properties: {
        grant_type: { type: "string", enum: ["authorization_code"] },
        code: { type: "string", description: "The code the consent page redirected back with (usable once, within 10 minutes)." },
        redirect_uri: { type: "string", description: "Exactly the `redirect_uri` of the authorization request." },
        code_verifier: { type: "string", minLength: 43, maxLength: 128, description: "The PKCE verifier whose S256 challenge the authorization request carried." },
        ...clientCredentials,
      },
      required: ["grant_type", "code", "redirect_uri"],
    },
    {
      type: "object",
      title: "RefreshTokenGrant",
      properties: {
        grant_type: { type: "string", enum: ["refresh_token"] },
        refresh_token: { type: "string", description: "The latest refresh token (`hrt_…`); each use returns a new one and retires this one." },
        scope: { type: "string", description: "Space-separated scopes, at most those granted; absent: all of them." },
        ...clientCredentials,
      },
      required: ["grant_type", "refresh_token"],
    },
  ],
};

const tokens = {
  type: "object",
  title: "OAuthTokens",
  properties: {
    access_token: { type: "string", description: "A bearer token for `/v1` (`hat_…`)." },
    token_type: { type: "string", enum: ["Bearer"] },
    expires_in: { type: "integer", description: "Seconds the access token lasts." },
    refresh_token: { type: "string", description: "Exchanges for a new pair (`hrt_…`); rotates on every use." },
    scope: { type: "string", description: "The granted scopes, space-separated." },
  },
  required: ["access_token", "token_type", "expires_in", "refresh_token", "scope"],
};
const tokensExample = { access_token: "hat_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P", token_type: "Bearer", expires_in: 3600, refresh_token: "hrt_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P", scope: "reservations:read reservations:write" };

const authorizeQuery = [
  ["response_type", true, { type: "string", enum: ["code"] }, "Always `code`."],
  ["client_id", true, { type: "string" }, "The app's client id."],
  ["redirect_uri", true, { type: "string", format: "uri" }, "One of the app's registered redirect URIs, exactly."],
  ["scope", true, { type: "string" }, `Space-separated scopes: ${scopes.map((s) => `\`${s}\``).join(", ")}.`],
  ["state", false, { type: "string" }, "Returned unchanged with the code: check it against the session that started the flow."],
  ["code_challenge", false, { type: "string", minLength: 43, maxLength: 128 }, "PKCE (RFC 7636): the S256 challenge; required of public clients."],
  ["code_challenge_method", false, { type: "string", enum: ["S256"] }, "Only `S256`."],
].map(([name, required, schema, description]) => ({ name, in: "query", required, schema, description }));

const formBody = (schema: Json, example: Record<string, string>) => ({
  required: true,
  content: { "application/x-www-form-urlencoded": { schema, example } },
});

/** The four OAuth path items, each at the server's origin. */
/** An HTML page for a person's browser, not for a program: its example is the page's outline. */
const html = (title: string, message: string) => ({
  "text/html": {
    schema: { type: "string", description: "An HTML page for the person at the browser; a program follows the redirects instead." },
    example: `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${message}</p>…</main></body></html>`,
  },
});

function oauthPaths(): Record<string, Json> {
  const atOrigin = { servers: [{ url: "/", description: "The server's origin (not under /v1)." }] };
  return {
    "/oauth/authorize": {
      ...atOrigin,
      get: {
        operationId: "oauthAuthorize",
        summary: "Ask a staff member to connect an app (consent page)",
        description:
          "Opened in the staff member's browser. Signed out, it sends them to sign in first; then it shows the app, the scopes and the properties to grant. Their decision redirects to `redirect_uri` with `code` and `state`, or with `error` (`access_denied`, `invalid_scope`, `invalid_request`) and `state`. An unknown client or a `redirect_uri` that is not registered shows an error page instead of redirecting.",
        tags: ["OAuth"],
        security: [],
        parameters: authorizeQuery,
        responses: {
          "200": { description: "The consent page (or an error page for a `redirect_uri` the app has not registered).", content: html("Connect Channel Manager", "Channel Manager asks to read and change reservations. Choose the properties it may use.") },
          "400": { description: "An error page, shown instead of any redirect: the request names no `client_id`, or no `redirect_uri` that is an absolute URI.", content: html("Unknown app", "The link that sent you here names no app (client_id is missing or repeated).") },
          "404": { description: "An error page, shown instead of any redirect: no app with this `client_id` is registered.", content: html("Unknown app", "No app with this client_id is registered on Innkeep. For your safety you were not sent anywhere.") },
          "307": {
            description: "To sign in first, or back to `redirect_uri` with `code` and `state` (or `error` and `state`).",
            headers: { Location: { description: "Where the browser goes next.", required: true, schema: { type: "string" } } },
          },
        },
      },
    },
    "/oauth/token": {
      ...atOrigin,
      post: {
        operationId: "oauthToken",
        summary: "Exchange a code or a refresh token for tokens",
        description:
          "Form-encoded (RFC 6749 §4.1.3, §6). Client credentials by HTTP Basic or in the form (`client_id`, `client_secret`); public clients send `client_id` and prove the code with `code_verifier`. A reused code is refused, and every token issued from it is revoked.",
        tags: ["OAuth"],
        security: [],
        requestBody: formBody(tokenForm, { grant_type: "authorization_code", code: "hac_1a2B3c4D5e6F7g8H9i0J1k2L", redirect_uri: "https://app.example.com/callback", code_verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", client_id: "app_1a2B3c4D5e6F7g8H9i0J1k2L" }),
        responses: {
          "200": { description: "The tokens.", headers: noStore, content: { "application/json": { schema: tokens, example: tokensExample } } },
          "400": errorAnswer(errorCodes.token, "invalid_grant", "The authorization code was already used; the tokens issued from it are revoked.", "Refused (RFC 6749 §5.2): the form, the grant, the client or the scope."),
          "401": errorAnswer(["invalid_client"], "invalid_client", "Client authentication failed.", "Client authentication by HTTP Basic failed.", { "WWW-Authenticate": basicChallenge }),
          "429": tooMany,
          "500": serverError,
        },
      },
    },
    "/oauth/revoke": {
      ...atOrigin,
      post: {
        operationId: "oauthRevoke",
        summary: "Revoke an access or refresh token",
        description:
          "RFC 7009. A refresh token takes every token of its grant with it; an access token goes alone. Unknown, already revoked and other clients' tokens also answer 200, so the answer says nothing about a token.",
        tags: ["OAuth"],
        security: [],
        requestBody: formBody(
          { type: "object", title: "OAuthRevocation", properties: { token: { type: "string" }, token_type_hint: { type: "string", enum: ["access_token", "refresh_token"] }, ...clientCredentials }, required: ["token"] },
          { token: "hrt_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P", client_id: "app_1a2B3c4D5e6F7g8H9i0J1k2L" },
        ),
        responses: {
          "200": { description: "Revoked (or nothing to revoke).", headers: noStore },
          "400": errorAnswer(errorCodes.revoke, "invalid_request", "Missing parameter: `token`.", "Refused: the form or the client."),
          "401": errorAnswer(["invalid_client"], "invalid_client", "Client authentication failed.", "Client authentication by HTTP Basic failed.", { "WWW-Authenticate": basicChallenge }),
          "429": tooMany,
        },
      },
    },
    "/.well-known/oauth-authorization-server": {
      ...atOrigin,
      get: {
        operationId: "getAuthorizationServerMetadata",
        summary: "OAuth authorization server metadata (RFC 8414)",
        description: "What standard OAuth clients discover: the endpoints, grant types, PKCE method and scopes. The issuer is the origin the request reached.",
        tags: ["OAuth"],
        security: [],
        responses: {
          "200": {
            description: "The metadata.",
            headers: { "Cache-Control": { description: "`public, max-age=300`.", schema: { type: "string" } } },
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  title: "AuthorizationServerMetadata",
                  properties: {
                    issuer: { type: "string" },
                    authorization_endpoint: { type: "string" },
                    token_endpoint: { type: "string" },
                    revocation_endpoint: { type: "string" },
                    response_types_supported: { type: "array", items: { type: "string", enum: ["code"] } },
                    grant_types_supported: { type: "array", items: { type: "string", enum: grantTypes } },
                    code_challenge_methods_supported: { type: "array", items: { type: "string", enum: ["S256"] } },
                    token_endpoint_auth_methods_supported: { type: "array", items: { type: "string" } },
                    revocation_endpoint_auth_methods_supported: { type: "array", items: { type: "string" } },
                    scopes_supported: { type: "array", items: { type: "string", enum: [...scopes] } },
                    service_documentation: { type: "string" },
                  },
                  required: ["issuer", "authorization_endpoint", "token_endpoint", "revocation_endpoint", "response_types_supported", "grant_types_supported", "code_challenge_methods_supported", "scopes_supported"],
                },
                example: {
                  issuer: "https://innkeep.example.com",
                  authorization_endpoint: "https://innkeep.example.com/oauth/authorize",
                  token_endpoint: "https://innkeep.example.com/oauth/token",
                  revocation_endpoint: "https://innkeep.example.com/oauth/revoke",
                  response_types_supported: ["code"],
                  grant_types_supported: grantTypes,
                  code_challenge_methods_supported: ["S256"],
                  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
                  revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
                  scopes_supported: [...scopes],
                  service_documentation: "https://innkeep.example.com/docs",
                },
              },
            },
          },
        },
      },
    },
  };
}

/** The document with the OAuth path items added after the `/v1` ones. */
export function withOAuthPaths<T extends { paths?: Record<string, unknown> }>(doc: T): T {
  return { ...doc, paths: { ...doc.paths, ...oauthPaths() } };
}
