import { createHash, randomBytes } from "node:crypto";
import { expect } from "vitest";
import { createOAuthClient } from "@/server/oauth/clients";
import { scopes as allScopes, type Scope } from "@/server/auth/scopes";
import { createUser, type StaffRole } from "@/server/auth/users";
import { checkAuthorizationRequest } from "@/server/oauth/authorize";
import { decideConsent, formToken } from "@/server/oauth/consent";
import type { StaffSession } from "@/server/next-auth/session";
import type { Harness } from "./harness";

export const redirectUri = "https://app.example.com/callback";

/** An app registered on `accountId` (default: the harness's main account). */
export async function registerClient(h: Harness, options: { public?: boolean; scopes?: Scope[]; redirectUris?: string[]; accountId?: string } = {}) {
  const created = await createOAuthClient({
    db: h.db,
    input: {
      accountId: options.accountId ?? h.main.account.id,
      name: options.public ? "Phone App" : "Channel Manager",
      redirectUris: options.redirectUris ?? [redirectUri],
      scopes: options.scopes ?? [...allScopes],
      public: options.public,
    },
  });
  return { id: created.client_id, secret: created.client_secret ?? undefined, public: created.public };
}
export type TestClient = Awaited<ReturnType<typeof registerClient>>;

/** A staff member and the next-auth session the consent endpoints would see for them. */
export async function staffSession(h: Harness, role: StaffRole, accountId = h.main.account.id): Promise<StaffSession> {
  const email = `${role}.${randomBytes(4).toString("hex")}@test.example`;
  const user = await createUser({ db: h.db, input: { accountId, email, password: "password-123", role } });
  return { user: { id: user.id, accountId, role, name: null, email }, expires: new Date(Date.now() + 3_600_000).toISOString() };
}

/** A PKCE pair (RFC 7636, S256). */
export function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export type AuthorizeOptions = {
  client: TestClient;
  session: StaffSession;
  propertyIds: string[];
  scope?: string;
  state?: string;
  challenge?: string;
  redirect?: string;
  extra?: Record<string, string>;
};

/** The query of an authorization request, as an app would build it. */
export function authorizeQuery(o: Omit<AuthorizeOptions, "session" | "propertyIds">): Record<string, string> {
  return {
    response_type: "code",
    client_id: o.client.id,
    redirect_uri: o.redirect ?? redirectUri,
    scope: o.scope ?? "reservations:read rooms:read",
    state: o.state ?? "xyz-state",
    ...(o.challenge ? { code_challenge: o.challenge, code_challenge_method: "S256" } : {}),
    ...o.extra,
  };
}

/**
 * The consent form as the page renders it for this user (hidden fields and CSRF token), with
 * the decision and properties filled in; `csrf` overrides the token (null: left out).
 */
export async function consentForm(h: Harness, o: AuthorizeOptions, decision: "approve" | "deny" = "approve", csrf?: string | null) {
  const query = authorizeQuery(o);
  const check = await checkAuthorizationRequest({ db: h.db, params: query });
  expect(check.kind, JSON.stringify(check)).toBe("consent");
  const form = new URLSearchParams(query);
  const token = csrf === undefined ? formToken(o.session.user.id, (check as { request: Parameters<typeof formToken>[1] }).request) : csrf;
  if (token !== null) form.set("csrf_token", token);
  form.set("decision", decision);
  for (const id of o.propertyIds) form.append("property_id", id);
  return form;
}

/** Approves on the consent endpoint and returns the code from the redirect. */
export async function authorizeCode(h: Harness, o: AuthorizeOptions): Promise<string> {
  const outcome = await decideConsent({ db: h.db, session: o.session, form: await consentForm(h, o) });
  expect(outcome.kind, JSON.stringify(outcome)).toBe("redirect");
  const location = new URL((outcome as { location: string }).location);
  expect(location.searchParams.get("state")).toBe(o.state ?? "xyz-state");
  return location.searchParams.get("code")!;
}

/** POST to a token endpoint, form-encoded, optionally with HTTP Basic client credentials. */
export async function tokenRequest(h: Harness, form: Record<string, string | undefined>, options: { basic?: [string, string]; path?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (options.basic) headers.authorization = `Basic ${Buffer.from(`${options.basic[0]}:${options.basic[1]}`).toString("base64")}`;
  const body = new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
  const res = await fetch(`${h.baseUrl}${options.path ?? "/oauth/token"}`, { method: "POST", headers, body });
  const text = await res.text();
  let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** Exchanges a code as a confidential client (secret in the body) or a public one (verifier only). */
export function exchangeCode(h: Harness, client: TestClient, code: string, extra: Record<string, string | undefined> = {}) {
  return tokenRequest(h, { grant_type: "authorization_code", code, redirect_uri: redirectUri, client_id: client.id, client_secret: client.secret, ...extra });
}

export function refresh(h: Harness, client: TestClient, refreshToken: string, extra: Record<string, string | undefined> = {}) {
  return tokenRequest(h, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: client.id, client_secret: client.secret, ...extra });
}

/** An RFC 6749 §5.2 error answer: status, `error`, a description, and never cached. */
export function expectOAuthError(res: { status: number; headers: Headers; json?: { error?: string; error_description?: string }; text: string }, status: number, error: string) {
  expect({ status: res.status, error: res.json?.error }, res.text).toEqual({ status, error });
  expect(typeof res.json?.error_description).toBe("string");
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("pragma")).toBe("no-cache");
}
