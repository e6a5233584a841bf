import { and, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthCodes, oauthInstalls, oauthTokens } from "@/db/schema";
import { hashToken } from "@/server/auth/tokens";
import { revokeInstall } from "@/server/oauth/installs";
import type { StaffSession } from "@/server/next-auth/session";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { insertProperty } from "../support/hotel";
import {
  authorizeCode,
  exchangeCode,
  expectOAuthError,
  pkce,
  redirectUri,
  refresh,
  registerClient,
  staffSession,
  tokenRequest,
  type TestClient,
} from "../support/oauth";

// Contract §4, the token side: codes, refresh rotation, client authentication, revocation and
// the access tokens the REST wrapper accepts. Every refusal is its own test.

let h: Harness;
let owner: StaffSession;
let confidential: TestClient;
let publicClient: TestClient;
let propertyId: string;

beforeAll(async () => {
  h = await startHarness();
  owner = await staffSession(h, "owner");
  confidential = await registerClient(h);
  publicClient = await registerClient(h, { public: true });
  propertyId = (await insertProperty(h, h.main.account.id, { name: "Granted Inn" })).id;
}, 120_000);
afterAll(async () => h?.close());

/** A fresh code for the confidential client (optionally with a PKCE challenge). */
const codeFor = (client = confidential, extra: { challenge?: string; scope?: string } = {}) =>
  authorizeCode(h, { client, session: owner, propertyIds: [propertyId], ...extra });

/** A full token answer for the confidential client. */
async function tokens(scope?: string) {
  const res = await exchangeCode(h, confidential, await codeFor(confidential, { scope }));
  expect(res.status, res.text).toBe(200);
  return res.json as { access_token: string; refresh_token: string; expires_in: number; token_type: string; scope: string };
}

const api = (token: string, path = "/v1/properties") => h.get(path, { token });

describe("authorization code grant", { timeout: 30_000 }, () => {
  it("exchanges a code for the contract's token answer, never cached, tokens stored hashed", async () => {
    const code = await codeFor();
    expect(code).toMatch(/^hac_[0-9A-Za-z]{32}$/);
    const res = await exchangeCode(h, confidential, code);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(Object.keys(res.json).sort()).toEqual(["access_token", "expires_in", "refresh_token", "scope", "token_type"]);
    expect(res.json).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "reservations:read rooms:read" });
    expect(res.json.access_token).toMatch(/^hat_[0-9A-Za-z]{32}$/);
    expect(res.json.refresh_token).toMatch(/^hrt_[0-9A-Za-z]{32}$/);
    // Only hashes are stored: no column holds the token or the code itself.
    const stored = await h.db.select().from(oauthTokens);
    expect(stored.some((t) => t.tokenHash === hashToken(res.json.access_token))).toBe(true);
    expect(JSON.stringify(stored)).not.toContain(res.json.access_token);
    expect(JSON.stringify(stored)).not.toContain(res.json.refresh_token);
    expect(JSON.stringify(await h.db.select().from(oauthCodes))).not.toContain(code);
    const props = await api(res.json.access_token);
    expect(props.status, props.text).toBe(200);
    expect(props.json.data.map((p: { id: string }) => p.id)).toEqual([propertyId]);
  });

  it("accepts client credentials by HTTP Basic (client_secret_basic)", async () => {
    const code = await codeFor();
    const res = await tokenRequest(h, { grant_type: "authorization_code", code, redirect_uri: redirectUri }, { basic: [confidential.id, confidential.secret!] });
    expect(res.status, res.text).toBe(200);
    expect(res.json.access_token).toMatch(/^hat_/);
  });

  it("lets a public client exchange with PKCE and refresh without a secret", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, { challenge });
    const res = await exchangeCode(h, publicClient, code, { code_verifier: verifier });
    expect(res.status, res.text).toBe(200);
    const next = await refresh(h, publicClient, res.json.refresh_token);
    expect(next.status, next.text).toBe(200);
    expect((await api(next.json.access_token)).status).toBe(200);
  });

  it("refuses a second use of a code and revokes every token issued from it", async () => {
    const code = await codeFor();
    const first = await exchangeCode(h, confidential, code);
    expect(first.status).toBe(200);
    expect((await api(first.json.access_token)).status).toBe(200);
    const again = await exchangeCode(h, confidential, code);
    expectOAuthError(again, 400, "invalid_grant");
    // Not "invalid": the code was real and used; the description says so and what followed.
    expect(again.json.error_description).toBe(
      "The authorization code was already used; every token issued from it has been revoked. Send the user through authorization again.",
    );
    expectError(await api(first.json.access_token), 401, "invalid_token");
    expectOAuthError(await refresh(h, confidential, first.json.refresh_token), 400, "invalid_grant");
  });

  // Issue 40, point 4: a failed exchange uses the code up (against guessing), but issued nothing;
  // presenting the code again must not claim that tokens were revoked.
  it.each([
    ["a wrong code_verifier", { code_verifier: "w".repeat(43) }],
    ["a wrong redirect_uri", { redirect_uri: "https://app.example.com/elsewhere" }],
  ])("after an exchange refused for %s, the code's reuse says no token was issued", async (_, wrong) => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(confidential, { challenge });
    expectOAuthError(await exchangeCode(h, confidential, code, { code_verifier: verifier, ...wrong }), 400, "invalid_grant");
    const again = await exchangeCode(h, confidential, code, { code_verifier: verifier });
    expectOAuthError(again, 400, "invalid_grant");
    expect(again.json.error_description).toContain("no token was issued");
    expect(again.json.error_description).not.toContain("revoked");
  });

  it("refuses an expired code (10 minutes)", async () => {
    const code = await codeFor();
    await h.db.update(oauthCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthCodes.codeHash, hashToken(code)));
    expectOAuthError(await exchangeCode(h, confidential, code), 400, "invalid_grant");
  });

  it("refuses a code presented by another client", async () => {
    const other = await registerClient(h);
    const code = await codeFor();
    expectOAuthError(await exchangeCode(h, other, code), 400, "invalid_grant");
  });

  it("refuses a redirect_uri that differs from the authorization request's", async () => {
    for (const uri of [`${redirectUri}/`, "https://app.example.com/callback2", "https://APP.example.com/callback"]) {
      const res = await exchangeCode(h, confidential, await codeFor(), { redirect_uri: uri });
      expectOAuthError(res, 400, "invalid_grant");
      // RFC 6749 §5.2: invalid_grant, "does not match the redirection URI used in the authorization request".
      expect(res.json.error_description).toBe("`redirect_uri` differs from the one the authorization request used; send exactly the same value (RFC 6749 §4.1.3).");
    }
  });

  it("refuses a PKCE downgrade: a code issued with a challenge exchanged without a verifier", async () => {
    const { challenge } = pkce();
    expectOAuthError(await exchangeCode(h, confidential, await codeFor(confidential, { challenge })), 400, "invalid_grant");
  });

  it("refuses a wrong code_verifier", async () => {
    const { challenge } = pkce();
    const wrong = pkce().verifier;
    expectOAuthError(await exchangeCode(h, confidential, await codeFor(confidential, { challenge }), { code_verifier: wrong }), 400, "invalid_grant");
  });

  it("refuses a malformed code_verifier", async () => {
    const { challenge } = pkce();
    expectOAuthError(await exchangeCode(h, confidential, await codeFor(confidential, { challenge }), { code_verifier: "short" }), 400, "invalid_grant");
  });

  it("refuses a code_verifier for a code issued without a challenge", async () => {
    expectOAuthError(await exchangeCode(h, confidential, await codeFor(), { code_verifier: pkce().verifier }), 400, "invalid_grant");
  });

  it("refuses a public client without its verifier", async () => {
    const { challenge } = pkce();
    const code = await codeFor(publicClient, { challenge });
    expectOAuthError(await exchangeCode(h, publicClient, code), 400, "invalid_grant");
  });

  it("refuses a public client that sends a secret it cannot have", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(publicClient, { challenge });
    expectOAuthError(await exchangeCode(h, publicClient, code, { code_verifier: verifier, client_secret: "appsec_guess" }), 400, "invalid_client");
  });

  it("refuses a wrong client secret in the body with 400 invalid_client", async () => {
    const res = await exchangeCode(h, confidential, await codeFor(), { client_secret: "appsec_wrong" });
    expectOAuthError(res, 400, "invalid_client");
    expect(res.headers.get("www-authenticate")).toBeNull();
  });

  it("refuses a wrong client secret by Basic with 401 and a Basic challenge", async () => {
    const code = await codeFor();
    const res = await tokenRequest(h, { grant_type: "authorization_code", code, redirect_uri: redirectUri }, { basic: [confidential.id, "appsec_wrong"] });
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("refuses a confidential client that sends only a verifier and no secret", async () => {
    const { verifier, challenge } = pkce();
    const code = await codeFor(confidential, { challenge });
    expectOAuthError(await exchangeCode(h, confidential, code, { client_secret: undefined, code_verifier: verifier }), 400, "invalid_client");
  });

  it("refuses an unknown client", async () => {
    expectOAuthError(await tokenRequest(h, { grant_type: "authorization_code", code: "hac_x", redirect_uri: redirectUri, client_id: "app_nobody", client_secret: "x" }), 400, "invalid_client");
  });

  it("answers unsupported_grant_type and invalid_request as RFC 6749 §5.2 says", async () => {
    const creds = { client_id: confidential.id, client_secret: confidential.secret };
    // §5.2: unsupported_grant_type is a grant type the server does not support at all; the server
    // supports only authorization_code and refresh_token, so `password` and `client_credentials`
    // are that too (unauthorized_client would mean "supported, but not for this client").
    for (const grantType of ["urn:example:magic", "client_credentials", "password", "implicit"]) {
      const res = await tokenRequest(h, { grant_type: grantType, username: "a", password: "b", ...creds });
      expectOAuthError(res, 400, "unsupported_grant_type");
      expect(res.json.error_description).toBe(`The grant type '${grantType}' is not supported: use authorization_code or refresh_token.`);
    }
    // Without credentials at all, the grant type is still what is wrong.
    expectOAuthError(await tokenRequest(h, { grant_type: "password" }), 400, "unsupported_grant_type");
    expectOAuthError(await tokenRequest(h, { ...creds }), 400, "invalid_request");
    expectOAuthError(await tokenRequest(h, { grant_type: "authorization_code", redirect_uri: redirectUri, ...creds }), 400, "invalid_request");
    const json = await fetch(`${h.baseUrl}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grant_type: "authorization_code" }) });
    expectOAuthError({ status: json.status, headers: json.headers, json: await json.json(), text: "" }, 400, "invalid_request");
    const repeated = await fetch(`${h.baseUrl}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `grant_type=refresh_token&grant_type=authorization_code&client_id=${confidential.id}`,
    });
    expectOAuthError({ status: repeated.status, headers: repeated.headers, json: await repeated.json(), text: "" }, 400, "invalid_request");
  });
});

describe("refresh tokens", { timeout: 30_000 }, () => {
  it("rotate: each refresh returns a new pair and retires the old refresh token", async () => {
    const first = await tokens();
    const second = await refresh(h, confidential, first.refresh_token);
    expect(second.status, second.text).toBe(200);
    expect(second.headers.get("cache-control")).toBe("no-store");
    expect(second.json).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "reservations:read rooms:read" });
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect((await api(second.json.access_token)).status).toBe(200);
  });

  it("presenting a retired refresh token revokes the whole family, access tokens included", async () => {
    const first = await tokens();
    const second = (await refresh(h, confidential, first.refresh_token)).json;
    const reused = await refresh(h, confidential, first.refresh_token);
    expectOAuthError(reused, 400, "invalid_grant");
    // Issue 40, point 4: the refusal says what followed, not only "invalid": the whole family went.
    expect(reused.json.error_description).toMatch(/already used.*every token of its grant.*revoked/);
    expectOAuthError(await refresh(h, confidential, second.refresh_token), 400, "invalid_grant");
    expectError(await api(second.access_token), 401, "invalid_token");
    expectError(await api(first.access_token), 401, "invalid_token");
  });

  it("may narrow the scope", async () => {
    const first = await tokens();
    const narrowed = await refresh(h, confidential, first.refresh_token, { scope: "rooms:read" });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.json.scope).toBe("rooms:read");
    expect((await api(narrowed.json.access_token)).status).toBe(200);
    expectError(await api(narrowed.json.access_token, "/v1/reservations"), 403, "insufficient_scope");
  });

  it("refuses to widen the scope, and the refresh token stays usable", async () => {
    const first = await tokens();
    expectOAuthError(await refresh(h, confidential, first.refresh_token, { scope: "reservations:read rooms:read payments:write" }), 400, "invalid_scope");
    expectOAuthError(await refresh(h, confidential, first.refresh_token, { scope: "everything" }), 400, "invalid_scope");
    expect((await refresh(h, confidential, first.refresh_token)).status).toBe(200);
  });

  it("refuses an expired refresh token (90 days)", async () => {
    const first = await tokens();
    const [row] = await h.db.select().from(oauthTokens).where(eq(oauthTokens.tokenHash, hashToken(first.refresh_token)));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThanOrEqual(90 * 86_400_000 - 5000);
    await h.db.update(oauthTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthTokens.id, row.id));
    expectOAuthError(await refresh(h, confidential, first.refresh_token), 400, "invalid_grant");
  });

  it("refuses a refresh token presented by another client", async () => {
    const other = await registerClient(h);
    const first = await tokens();
    expectOAuthError(await refresh(h, other, first.refresh_token), 400, "invalid_grant");
  });

  it("refuses a refresh without the confidential client's secret", async () => {
    const first = await tokens();
    expectOAuthError(await refresh(h, confidential, first.refresh_token, { client_secret: undefined }), 400, "invalid_client");
  });
});

describe("access tokens on /v1", { timeout: 30_000 }, () => {
  it("answer 401 token_expired after their hour", async () => {
    const t = await tokens();
    const [row] = await h.db.select().from(oauthTokens).where(eq(oauthTokens.tokenHash, hashToken(t.access_token)));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeGreaterThan(3_590_000);
    await h.db.update(oauthTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(oauthTokens.id, row.id));
    const res = await api(t.access_token);
    expectError(res, 401, "token_expired");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("carry exactly the granted scopes, as a key's", async () => {
    const t = await tokens("reservations:read");
    expect((await api(t.access_token, "/v1/reservations")).status).toBe(200);
    expectError(await api(t.access_token, "/v1/properties"), 403, "insufficient_scope");
    const write = await h.post("/v1/guests", { first_name: "A", last_name: "B", email: "a@b.example" }, { token: t.access_token });
    expectError(write, 403, "insufficient_scope");
  });

  it("an unknown hat_ token answers like any unknown credential", async () => {
    expectError(await api("hat_0000000000000000000000000000000"), 401, "invalid_token");
  });

  it("stop at once when the install is revoked from the dashboard, refresh tokens too", async () => {
    const t = await tokens();
    const [install] = await h.db.select().from(oauthInstalls).where(and(eq(oauthInstalls.clientId, confidential.id), isNull(oauthInstalls.revokedAt)));
    await revokeInstall({ db: h.db, tenant: { accountId: h.main.account.id, livemode: true, propertyIds: null }, actor: null, id: install.id, userId: owner.user.id });
    expectError(await api(t.access_token), 401, "invalid_token");
    expectOAuthError(await refresh(h, confidential, t.refresh_token), 400, "invalid_grant");
    // A new consent makes a new install; its tokens work.
    expect((await api((await tokens()).access_token)).status).toBe(200);
  });

  it("spend the installing account's rate limits, like its API keys", async () => {
    const limited = await h.newAccount("Limited Hotels", "scale", { perSecond: 100, perMinute: 3, perDay: 1000 });
    const client = await registerClient(h, { accountId: limited.account.id });
    const session = await staffSession(h, "owner", limited.account.id);
    const property = await insertProperty(h, limited.account.id);
    const code = await authorizeCode(h, { client, session, propertyIds: [property.id] });
    const t = (await exchangeCode(h, client, code)).json;
    expect((await api(limited.token)).status).toBe(200);
    expect((await api(limited.token)).status).toBe(200);
    const last = await api(t.access_token);
    expect(last.status).toBe(200);
    expect(last.headers.get("x-ratelimit-remaining")).toBe("0");
    expectError(await api(t.access_token), 429, "too_many_requests");
    expectError(await api(limited.token), 429, "too_many_requests");
  });

  it("record when the install was last used", async () => {
    const t = await tokens();
    const [install] = await h.db.select().from(oauthInstalls).where(and(eq(oauthInstalls.clientId, confidential.id), isNull(oauthInstalls.revokedAt)));
    await h.db.update(oauthInstalls).set({ lastUsedAt: null }).where(eq(oauthInstalls.id, install.id));
    await api(t.access_token);
    const [after] = await h.db.select().from(oauthInstalls).where(eq(oauthInstalls.id, install.id));
    expect(after.lastUsedAt).toBeInstanceOf(Date);
  });
});

describe("revocation (RFC 7009)", { timeout: 30_000 }, () => {
  const revoke = (token: string, client = confidential, basic = false) =>
    basic
      ? tokenRequest(h, { token }, { path: "/oauth/revoke", basic: [client.id, client.secret!] })
      : tokenRequest(h, { token, client_id: client.id, client_secret: client.secret }, { path: "/oauth/revoke" });

  it("revokes an access token alone", async () => {
    const t = await tokens();
    const res = await revoke(t.access_token);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expectError(await api(t.access_token), 401, "invalid_token");
    expect((await refresh(h, confidential, t.refresh_token)).status).toBe(200);
  });

  it("revokes a refresh token with its whole family", async () => {
    const t = await tokens();
    expect((await revoke(t.refresh_token, confidential, true)).status).toBe(200);
    expectOAuthError(await refresh(h, confidential, t.refresh_token), 400, "invalid_grant");
    expectError(await api(t.access_token), 401, "invalid_token");
  });

  it("answers 200 for an unknown token", async () => {
    expect((await revoke("hat_unknown")).status).toBe(200);
  });

  it("does not revoke another client's token, yet answers 200", async () => {
    const other = await registerClient(h);
    const t = await tokens();
    expect((await revoke(t.access_token, other)).status).toBe(200);
    expect((await api(t.access_token)).status).toBe(200);
  });

  it("refuses an unauthenticated client", async () => {
    const t = await tokens();
    expectOAuthError(await revoke(t.access_token, { ...confidential, secret: "appsec_wrong" }), 400, "invalid_client");
    const basic = await revoke(t.access_token, { ...confidential, secret: "appsec_wrong" }, true);
    expectOAuthError(basic, 401, "invalid_client");
    expect(basic.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect((await api(t.access_token)).status).toBe(200);
  });

  it("refuses a client_id the database could not hold (NUL) as an unknown client, in the form or in Basic", async () => {
    const t = await tokens();
    expectOAuthError(await tokenRequest(h, { token: t.access_token, client_id: `${confidential.id}\u0000`, client_secret: confidential.secret }, { path: "/oauth/revoke" }), 400, "invalid_client");
    expectOAuthError(await tokenRequest(h, { token: t.access_token }, { path: "/oauth/revoke", basic: [`${confidential.id}\u0000`, confidential.secret!] }), 401, "invalid_client");
    expect((await api(t.access_token)).status).toBe(200);
  });

  it("refuses a request without a token", async () => {
    expectOAuthError(await tokenRequest(h, { client_id: confidential.id, client_secret: confidential.secret }, { path: "/oauth/revoke" }), 400, "invalid_request");
  });
});

describe("discovery (RFC 8414)", () => {
  it("publishes the endpoints, S256 only, and the client authentication methods", async () => {
    const res = await fetch(`${h.baseUrl}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc).toMatchObject({
      issuer: h.baseUrl,
      authorization_endpoint: `${h.baseUrl}/oauth/authorize`,
      token_endpoint: `${h.baseUrl}/oauth/token`,
      revocation_endpoint: `${h.baseUrl}/oauth/revoke`,
      response_types_supported: ["code"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(doc.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(["client_secret_basic", "client_secret_post", "none"]));
  });
});
