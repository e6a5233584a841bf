import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, oauthCodes, oauthInstalls } from "@/db/schema";
import { checkAuthorizationRequest } from "@/server/oauth/authorize";
import { decideConsent, formToken } from "@/server/oauth/consent";
import type { StaffSession } from "@/server/next-auth/session";
// @ts-expect-error: next.config.mjs is plain JavaScript; its shape is checked below.
import nextConfigModule from "@/next.config.mjs";
import { startHarness, type Harness } from "../support/harness";
import { insertProperty } from "../support/hotel";
import { authorizeQuery, consentForm, pkce, registerClient, staffSession, type AuthorizeOptions, type TestClient } from "../support/oauth";

// Contract §4, the browser side: which authorization requests reach the consent page, which are
// an error page (never a redirect), which go back to the app with `error`, and what the
// consent form's POST accepts. Every refusal is its own test and changes nothing.

let h: Harness;
let owner: StaffSession;
let client: TestClient;
let publicClient: TestClient;
let propertyId: string;

beforeAll(async () => {
  h = await startHarness();
  owner = await staffSession(h, "owner");
  client = await registerClient(h, { redirectUris: ["https://app.example.com/callback", "http://127.0.0.1:8123/cb"] });
  publicClient = await registerClient(h, { public: true });
  propertyId = (await insertProperty(h, h.main.account.id)).id;
}, 120_000);
afterAll(async () => h?.close());

const options = (extra: Partial<AuthorizeOptions> = {}): AuthorizeOptions => ({ client, session: owner, propertyIds: [propertyId], ...extra });
const check = (query: Record<string, string | string[]>) => checkAuthorizationRequest({ db: h.db, params: query });

/** The redirect's query, after checking it goes to the registered URI. */
async function redirectError(query: Record<string, string | string[]>) {
  const decision = await check(query);
  expect(decision.kind, JSON.stringify(decision)).toBe("redirect");
  const url = new URL((decision as { location: string }).location);
  expect(`${url.origin}${url.pathname}`).toBe("https://app.example.com/callback");
  return url.searchParams;
}

/** Rows the consent endpoint writes: none may appear after a refusal. */
const counts = async () => ({
  installs: (await h.db.select().from(oauthInstalls)).length,
  codes: (await h.db.select().from(oauthCodes)).length,
  audit: (await h.db.select().from(auditLog)).length,
});

describe("authorization request", { timeout: 30_000 }, () => {
  it("reaches the consent page with the scopes asked for", async () => {
    const decision = await check(authorizeQuery({ client, scope: "reservations:read+rooms:read" }));
    expect(decision.kind).toBe("consent");
    expect(decision.kind === "consent" && decision.request.scopes).toEqual(["reservations:read", "rooms:read"]);
  });

  it("an unknown client_id is an error page, never a redirect", async () => {
    const decision = await check({ ...authorizeQuery({ client }), client_id: "app_unknown" });
    expect(decision).toMatchObject({ kind: "error_page", title: "Unknown app" });
    expect((await check({ ...authorizeQuery({ client }), client_id: "" })).kind).toBe("error_page");
  });

  it("a client_id the database could not hold (NUL, an unpaired surrogate) is the same unknown app, not a failed query", async () => {
    for (const clientId of [`${client.id}\u0000`, "app_\ud800"]) {
      expect(await check({ ...authorizeQuery({ client }), client_id: clientId })).toMatchObject({ kind: "error_page", status: 404, title: "Unknown app" });
    }
  });

  for (const [what, uri] of [
    ["a prefix of it", "https://app.example.com/call"],
    ["a longer path", "https://app.example.com/callback/more"],
    ["a trailing slash", "https://app.example.com/callback/"],
    ["another port", "https://app.example.com:8443/callback"],
    ["another case", "https://app.example.com/Callback"],
    ["another host case", "https://APP.example.com/callback"],
    ["an added query", "https://app.example.com/callback?x=1"],
    ["another scheme", "http://app.example.com/callback"],
    ["a loopback on another port", "http://127.0.0.1:8124/cb"],
  ]) {
    it(`a redirect_uri that is not an exact registered match (${what}) is an error page`, async () => {
      const decision = await check({ ...authorizeQuery({ client }), redirect_uri: uri });
      expect(decision).toMatchObject({ kind: "error_page", title: "Redirect address not registered" });
    });
  }

  it("a missing redirect_uri is an error page", async () => {
    const query = authorizeQuery({ client });
    delete query.redirect_uri;
    expect((await check(query)).kind).toBe("error_page");
  });

  it("another response_type goes back with unsupported_response_type and the state", async () => {
    const params = await redirectError({ ...authorizeQuery({ client, state: "s-1" }), response_type: "token" });
    expect(params.get("error")).toBe("unsupported_response_type");
    expect(params.get("state")).toBe("s-1");
  });

  it("a missing response_type goes back with invalid_request", async () => {
    const query = authorizeQuery({ client });
    delete query.response_type;
    expect((await redirectError(query)).get("error")).toBe("invalid_request");
  });

  it("an unknown scope goes back with invalid_scope", async () => {
    const params = await redirectError(authorizeQuery({ client, scope: "reservations:read admin" }));
    expect(params.get("error")).toBe("invalid_scope");
    expect(params.get("state")).toBe("xyz-state");
  });

  it("a scope the app was not registered for goes back with invalid_scope", async () => {
    const narrow = await registerClient(h, { scopes: ["rooms:read"] });
    const decision = await check(authorizeQuery({ client: narrow, scope: "rooms:read payments:write" }));
    expect(decision.kind).toBe("redirect");
    expect(new URL((decision as { location: string }).location).searchParams.get("error")).toBe("invalid_scope");
  });

  it("a missing scope goes back with invalid_scope", async () => {
    const query = authorizeQuery({ client });
    delete query.scope;
    expect((await redirectError(query)).get("error")).toBe("invalid_scope");
  });

  it("code_challenge_method=plain goes back with invalid_request", async () => {
    const { verifier } = pkce();
    const params = await redirectError({ ...authorizeQuery({ client }), code_challenge: verifier, code_challenge_method: "plain" });
    expect(params.get("error")).toBe("invalid_request");
    expect(params.get("error_description")).toMatch(/S256/);
  });

  it("a code_challenge without a method (RFC 7636 would mean plain) goes back with invalid_request", async () => {
    const params = await redirectError({ ...authorizeQuery({ client }), code_challenge: pkce().challenge });
    expect(params.get("error")).toBe("invalid_request");
  });

  it("a public client without PKCE goes back with invalid_request", async () => {
    const decision = await check(authorizeQuery({ client: publicClient }));
    expect(decision.kind).toBe("redirect");
    expect(new URL((decision as { location: string }).location).searchParams.get("error")).toBe("invalid_request");
    expect((await check(authorizeQuery({ client: publicClient, challenge: pkce().challenge }))).kind).toBe("consent");
  });

  it("a repeated parameter goes back with invalid_request", async () => {
    const params = await redirectError({ ...authorizeQuery({ client }), scope: ["rooms:read", "payments:write"] });
    expect(params.get("error")).toBe("invalid_request");
  });
});

describe("consent form POST", { timeout: 30_000 }, () => {
  it("approval installs the app and redirects with a code and the state", async () => {
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options({ state: "abc" })) });
    expect(outcome.kind).toBe("redirect");
    const url = new URL((outcome as { location: string }).location);
    expect(url.searchParams.get("code")).toMatch(/^hac_/);
    expect(url.searchParams.get("state")).toBe("abc");
    const after = await counts();
    expect(after.codes).toBe(before.codes + 1);
    const [entry] = (await h.db.select().from(auditLog)).slice(-1);
    expect(entry).toMatchObject({ actorId: owner.user.id, objectType: "oauth_install" });
  });

  it("denial goes back with access_denied and the state, and installs nothing", async () => {
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options({ state: "den" }), "deny") });
    const url = new URL((outcome as { location: string }).location);
    expect(url.searchParams.get("error")).toBe("access_denied");
    expect(url.searchParams.get("state")).toBe("den");
    expect(url.searchParams.get("code")).toBeNull();
    expect(await counts()).toEqual(before);
  });

  it("refuses the form without a CSRF token", async () => {
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options(), "approve", null) });
    expect(outcome).toMatchObject({ kind: "page", status: 403 });
    expect(await counts()).toEqual(before);
  });

  it("refuses a wrong CSRF token", async () => {
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options(), "approve", "lz0a1b2c.bm90LXRoZS1yaWdodC1tYWM") });
    expect(outcome).toMatchObject({ kind: "page", status: 403 });
    expect(await counts()).toEqual(before);
  });

  it("refuses another user's CSRF token", async () => {
    const other = await staffSession(h, "manager");
    const decision = await check(authorizeQuery({ client }));
    const stolen = formToken(other.user.id, (decision as { request: Parameters<typeof formToken>[1] }).request);
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options(), "approve", stolen) });
    expect(outcome).toMatchObject({ kind: "page", status: 403 });
    expect(await counts()).toEqual(before);
  });

  it("refuses a CSRF token issued for another request (scopes swapped in the hidden fields)", async () => {
    const form = await consentForm(h, options({ scope: "rooms:read" }));
    form.set("scope", "rooms:read payments:write");
    const before = await counts();
    expect(await decideConsent({ db: h.db, session: owner, form })).toMatchObject({ kind: "page", status: 403 });
    expect(await counts()).toEqual(before);
  });

  /** The token the consent page renders, as if the page had been opened `minutesAgo` minutes ago. */
  async function tokenFromPageOpened(minutesAgo: number) {
    const decision = await check(authorizeQuery({ client }));
    expect(decision.kind).toBe("consent");
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - minutesAgo * 60_000 });
    try {
      return formToken(owner.user.id, (decision as { request: Parameters<typeof formToken>[1] }).request);
    } finally {
      vi.useRealTimers();
    }
  }

  it("refuses an expired CSRF token (30 minutes), and accepts one from a page opened 29 minutes ago", async () => {
    const before = await counts();
    const old = await tokenFromPageOpened(31);
    expect(await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options(), "approve", old) })).toMatchObject({ kind: "page", status: 403 });
    expect(await counts()).toEqual(before);
    const recent = await tokenFromPageOpened(29);
    expect(await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options(), "approve", recent) })).toMatchObject({ kind: "redirect" });
  });

  for (const role of ["front_desk", "housekeeping"] as const) {
    it(`refuses a ${role} user approving, even with a valid form`, async () => {
      const staff = await staffSession(h, role);
      const before = await counts();
      const outcome = await decideConsent({ db: h.db, session: staff, form: await consentForm(h, options({ session: staff })) });
      expect(outcome).toMatchObject({ kind: "page", status: 403, title: "You cannot install apps" });
      expect(await counts()).toEqual(before);
    });
  }

  it("a manager may approve", async () => {
    const manager = await staffSession(h, "manager");
    const outcome = await decideConsent({ db: h.db, session: manager, form: await consentForm(h, options({ session: manager })) });
    expect(outcome.kind).toBe("redirect");
  });

  it("sends a signed-out user to sign in, coming back to the same consent URL", async () => {
    const form = await consentForm(h, options());
    const outcome = await decideConsent({ db: h.db, session: null, form });
    expect(outcome.kind).toBe("redirect");
    const location = new URL((outcome as { location: string }).location, "http://x");
    expect(location.pathname).toBe("/signin");
    const back = new URL(location.searchParams.get("callbackUrl")!, "http://x");
    expect(back.pathname).toBe("/oauth/authorize");
    expect(back.searchParams.get("client_id")).toBe(client.id);
    expect(back.searchParams.get("state")).toBe("xyz-state");
  });

  it("refuses properties of another account", async () => {
    const other = await h.newAccount("Other Hotels");
    const foreign = await insertProperty(h, other.account.id);
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options({ propertyIds: [propertyId, foreign.id] })) });
    expect(outcome).toMatchObject({ kind: "page", status: 422 });
    expect(await counts()).toEqual(before);
  });

  it("refuses an approval with no property", async () => {
    const before = await counts();
    const outcome = await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options({ propertyIds: [] })) });
    expect(outcome).toMatchObject({ kind: "page", status: 422 });
    expect(await counts()).toEqual(before);
  });

  it("re-checks the request: a tampered redirect_uri in the form is an error page", async () => {
    const form = await consentForm(h, options());
    form.set("redirect_uri", "https://evil.example/callback");
    const before = await counts();
    expect(await decideConsent({ db: h.db, session: owner, form })).toMatchObject({ kind: "page", status: 400 });
    expect(await counts()).toEqual(before);
  });

  it("a second consent replaces the install's grant instead of adding an install", async () => {
    const again = await registerClient(h);
    await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options({ client: again, scope: "rooms:read reservations:read" })) });
    await decideConsent({ db: h.db, session: owner, form: await consentForm(h, options({ client: again, scope: "rooms:read" })) });
    const installs = (await h.db.select().from(oauthInstalls)).filter((i) => i.clientId === again.id);
    expect(installs).toHaveLength(1);
    expect(installs[0].scopes).toEqual(["rooms:read"]);
  });
});

describe("consent page framing", () => {
  // The served headers of every page, the policy's frame-ancestors 'none' included, are checked in e2e/page-headers.spec.ts.
  it("is refused by X-Frame-Options DENY on every path", async () => {
    const nextConfig = nextConfigModule as { headers: () => Promise<{ source: string; headers: { key: string; value: string }[] }[]> };
    const rules = await nextConfig.headers();
    const rule = rules.find((r) => r.source === "/:path*");
    expect(rule?.headers).toEqual(expect.arrayContaining([{ key: "X-Frame-Options", value: "DENY" }]));
  });
});
