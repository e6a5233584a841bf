import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "./test";
import * as oauth from "oauth4webapi";
import { admin, cli, createStaff, expectNoHorizontalScroll, snap } from "./helpers";

// Issue #8 end to end: a standard client library (oauth4webapi, with RFC 8414 discovery) drives
// the authorization code flow against the production server, and a person clicks the consent
// page in Chromium.

const insecure = { [oauth.allowInsecureRequests]: true };
let redirectServer: Server;
let redirectUri: string;
let as: oauth.AuthorizationServer;
let client: oauth.Client;
let clientAuth: oauth.ClientAuth;
let baseURL: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ }, info) => {
  baseURL = info.project.use.baseURL!;
  // The app's redirect endpoint: a tiny server that just says the browser arrived.
  redirectServer = createServer((_, res) => res.writeHead(200, { "content-type": "text/plain" }).end("Back at the app"));
  await new Promise<void>((resolve) => redirectServer.listen(0, "127.0.0.1", resolve));
  redirectUri = `http://127.0.0.1:${(redirectServer.address() as AddressInfo).port}/callback`;
  const created = cli<{ client_id: string; client_secret: string }>(
    "oauth-clients", "create", "--name", `Channel Sync ${Date.now().toString(36)}`, "--redirect-uri", redirectUri, "--scopes", "reservations:read rooms:read",
  );
  const issuer = new URL(baseURL);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }));
  client = { client_id: created.client_id };
  clientAuth = oauth.ClientSecretBasic(created.client_secret);
});
test.afterAll(() => new Promise<void>((resolve) => redirectServer.close(() => resolve())));

/** An authorization URL with PKCE (S256) and state, built from the discovered metadata. */
async function authorizationUrl() {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirectUri);
  url.searchParams.set("scope", "reservations:read rooms:read");
  url.searchParams.set("state", state);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  return { url: url.toString(), verifier, state };
}

async function signInHere(page: Page, credentials: { email: string; password: string }) {
  await page.getByLabel("E-mail").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Approves the consent page with only the live property checked, and exchanges the code. */
async function approveAndExchange(page: Page, start: { url: string; verifier: string; state: string }, shots = false) {
  await expect(page.getByRole("heading", { name: /Connect .*Channel Sync/ })).toBeVisible();
  await expect(page.getByText("Read reservations, guests and folios")).toBeVisible();
  await expect(page.getByText("Read room types, inventory and availability")).toBeVisible();
  const sandbox = page.getByRole("checkbox", { name: /Sandbox Harbor Hotel/ });
  await expect(sandbox).toBeChecked();
  await sandbox.uncheck();
  if (shots) {
    await snap(page, "oauth-consent");
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await snap(page, "oauth-consent");
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.getByRole("button", { name: "Approve" }).click();
  await page.waitForURL((url) => url.toString().startsWith(redirectUri));
  const params = oauth.validateAuthResponse(as, client, new URL(page.url()), start.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, start.verifier, insecure);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

const apiGet = (token: string, path: string, sandbox = false) =>
  fetch(`${baseURL}${path}`, { headers: { authorization: `Bearer ${token}`, ...(sandbox ? { "service-environment": "sandbox" } : {}) } });

test("an owner installs the app; it calls the API within the grant, refreshes, and revocation stops it", async ({ page }) => {
  const start = await authorizationUrl();
  // Signed out: off to sign in, and back to the very same consent URL.
  await page.goto(start.url);
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  await signInHere(page, admin);
  await expect(page).toHaveURL(/\/oauth\/authorize\?/);
  const tokens = await approveAndExchange(page, start, true);
  expect(tokens.access_token).toMatch(/^hat_/);
  expect(tokens.expires_in).toBe(3600);
  expect(tokens.scope).toBe("reservations:read rooms:read");

  // Inside the grant: the live property only; the unchecked sandbox property is invisible.
  const live = await (await apiGet(tokens.access_token, "/v1/properties")).json();
  expect(live.data.length).toBeGreaterThan(0);
  const sandbox = await (await apiGet(tokens.access_token, "/v1/properties", true)).json();
  expect(sandbox.data).toEqual([]);
  expect((await apiGet(tokens.access_token, "/v1/payments")).status).toBe(403);

  // Refresh rotates; the new access token works.
  const refreshed = await oauth.processRefreshTokenResponse(as, client, await oauth.refreshTokenGrantRequest(as, client, clientAuth, tokens.refresh_token!, insecure));
  expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
  expect((await apiGet(refreshed.access_token, "/v1/reservations")).status).toBe(200);

  // RFC 7009: revoking the refresh token ends its family, access tokens included.
  // Another worker of the cluster may have the token cached: NOTIFY clears it, and at worst its
  // one-second TTL does (server/auth/credential-cache.ts), which a loaded machine can need.
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, clientAuth, refreshed.refresh_token!, insecure));
  await expect.poll(async () => (await apiGet(refreshed.access_token, "/v1/properties")).status, { timeout: 2_000, intervals: [100] }).toBe(401);

  // A new consent, then the owner revokes the install in the dashboard: it stops at once.
  const again = await authorizationUrl();
  await page.goto(again.url);
  const second = await approveAndExchange(page, again);
  expect((await apiGet(second.access_token, "/v1/properties")).status).toBe(200);
  await page.goto("/developers/installs");
  await expect(page.getByRole("heading", { level: 1, name: "Installed apps" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Revoke Channel Sync/ }).filter({ visible: true }).first()).toBeVisible();
  await snap(page, "oauth-installs");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("button", { name: /^Revoke Channel Sync/ }).filter({ visible: true }).first()).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "oauth-installs");
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole("button", { name: /^Revoke Channel Sync/ }).first().click();
  await page.getByRole("button", { name: "Revoke app" }).click();
  await expect(page.getByText("App revoked")).toBeVisible();
  await expect.poll(async () => (await apiGet(second.access_token, "/v1/properties")).status, { timeout: 2_000, intervals: [100] }).toBe(401);
});

test("a front_desk user sees a refusal instead of the consent form", async ({ page }) => {
  const start = await authorizationUrl();
  await page.goto("/signin");
  await signInHere(page, createStaff("front_desk"));
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible();
  await page.goto(start.url);
  await expect(page.getByRole("heading", { name: "You cannot connect apps" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await snap(page, "oauth-refusal");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await snap(page, "oauth-refusal");
});

test("an authorization request naming no app, an unknown app or no address to return to is an error page (400 or 404), never a redirect", async ({ page, request }) => {
  for (const [query, heading] of [
    ["client_id=&redirect_uri=&response_type=code&scope=&state=", "Unknown app"],
    [`response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}`, "Unknown app"],
    [`client_id=${client.client_id}&redirect_uri=callback&response_type=code`, "Redirect address not valid"],
    [`client_id=${client.client_id}&response_type=code&scope=rooms%3Aread`, "Redirect address not valid"],
  ]) {
    const answer = await request.get(`/oauth/authorize?${query}`, { maxRedirects: 0 });
    expect(answer.status(), query).toBe(400);
    expect(answer.headers()["content-type"]).toContain("text/html");
    expect(answer.headers()["location"]).toBeUndefined();
    expect(answer.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(await answer.text()).toContain(heading);
  }
  // An app nobody registered: 404, the same kind of page.
  const unknown = await request.get(`/oauth/authorize?client_id=app_nobody&redirect_uri=${encodeURIComponent(redirectUri)}&response_type=code&code_challenge_method=plain`, { maxRedirects: 0 });
  expect(unknown.status()).toBe(404);
  expect(unknown.headers()["location"]).toBeUndefined();
  expect(await unknown.text()).toContain("No app with this client_id is registered");
  // What the person sees: the reason in words, nothing to click that leaves the hotel's site.
  await page.goto(`/oauth/authorize?client_id=${client.client_id}&redirect_uri=callback&response_type=code`);
  await expect(page.getByRole("heading", { level: 1, name: "Redirect address not valid" })).toBeVisible();
  await expect(page.getByText("For your safety you were not sent anywhere.")).toBeVisible();
});

test("the consent page refuses to be framed by another origin", async ({ page }) => {
  const start = await authorizationUrl();
  await page.goto("/signin");
  await signInHere(page, admin);
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible();
  const direct = await page.request.get(start.url);
  expect(direct.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(direct.headers()["x-frame-options"]).toBe("DENY");
  // A page of the app's origin tries to frame it: the frame never shows the form.
  await page.goto(redirectUri);
  // setContent waits for the load event, which waits for the frame's own load (or its refusal).
  await page.setContent(`<iframe id="f" src="${start.url}" width="600" height="600"></iframe>`, { waitUntil: "load" });
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const approve = frame ? await frame.getByRole("button", { name: "Approve" }).count().catch(() => 0) : 0;
  expect(approve).toBe(0);
});

test("OAuth apps page: register an app and see its secret once", async ({ page }) => {
  await page.goto("/signin");
  await signInHere(page, admin);
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible();
  await page.goto("/developers/apps");
  await expect(page.getByRole("heading", { level: 1, name: "OAuth apps" })).toBeVisible();
  await page.getByRole("button", { name: "Register app" }).first().click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Name").fill(`Rate Robot ${Date.now().toString(36)}`);
  await dialog.getByLabel("Redirect URIs").fill("https://rates.example.com/oauth/callback");
  await dialog.getByRole("button", { name: "Register app" }).click();
  await expect(page.getByTestId("client-secret")).toContainText("appsec_");
  await snap(page, "oauth-apps-secret");
  // Shown once: neither Escape nor a click outside loses it; Copy puts it on the clipboard.
  await page.keyboard.press("Escape");
  await page.mouse.click(5, 5);
  await expect(page.getByTestId("client-secret")).toBeVisible();
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.getByRole("button", { name: "Copy client_secret" }).click();
  const secret = (await page.getByTestId("client-secret").textContent())!.trim();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await page.getByRole("button", { name: "I have stored the secret" }).click();
  await expect(page.getByTestId("client-secret")).toHaveCount(0);
  await snap(page, "oauth-apps");
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText(/Rate Robot/).filter({ visible: true }).first()).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "oauth-apps");
});
