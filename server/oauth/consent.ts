import type { Db } from "@/db/client";
import { can } from "@/lib/access";
import type { Session as StaffSession } from "next-auth";
import { approveAuthorization, checkAuthorizationRequest, denyAuthorization, type AuthorizationRequest, type AuthorizeParams } from "./authorize";
import { consentToken, requestKey, verifyConsentToken } from "./csrf";

/** The parameters of `/oauth/authorize` the consent form carries back in hidden fields. */
export const authorizeParamNames = ["response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method"] as const;

/** What the consent endpoints answer: a redirect (to the app or to sign-in) or a page of ours. */
export type ConsentOutcome =
  | { kind: "redirect"; location: string }
  | { kind: "page"; status: number; title: string; message: string };

/** Only owners and managers may install apps (contract §9: OAuth apps are a developer area). */
export const mayInstallApps = (role: StaffSession["user"]["role"]) => can(role, "developers");

const keyOf = (request: AuthorizationRequest) =>
  requestKey({ clientId: request.client.id, redirectUri: request.redirectUri, scopes: request.scopes, state: request.state, codeChallenge: request.codeChallenge });

/** The CSRF token the consent form of this user and request carries. */
export const formToken = (userId: string, request: AuthorizationRequest) => consentToken(userId, keyOf(request));

const signInAgain = (form: URLSearchParams): ConsentOutcome => {
  const query = new URLSearchParams();
  for (const name of authorizeParamNames) {
    const value = form.get(name);
    if (value !== null) query.set(name, value);
  }
  return { kind: "redirect", location: `/signin?callbackUrl=${encodeURIComponent(`/oauth/authorize?${query}`)}` };
};

/**
 * The consent form's POST: checks the authorization request again (nothing in hidden fields is
 * trusted), the CSRF token, the staff member's role and the chosen properties, then approves
 * (install + code) or denies, and says where the browser goes next.
 */
export async function decideConsent({ db, session, form }: { db: Db; session: StaffSession | null; form: URLSearchParams }): Promise<ConsentOutcome> {
  const params: AuthorizeParams = {};
  for (const name of authorizeParamNames) {
    const values = form.getAll(name);
    params[name] = values.length > 1 ? values : (values[0] ?? undefined);
  }
  const check = await checkAuthorizationRequest({ db, params });
  if (check.kind === "error_page") return { kind: "page", status: check.status, title: check.title, message: check.message };
  if (check.kind === "redirect") return check;
  if (!session) return signInAgain(form);
  const { user } = session;
  if (!verifyConsentToken(form.get("csrf_token"), user.id, keyOf(check.request))) {
    return {
      kind: "page",
      status: 403,
      title: "This form could not be verified",
      message: "The consent form expired or did not come from this page. Go back to the app and start the connection again.",
    };
  }
  if (!mayInstallApps(user.role)) {
    return { kind: "page", status: 403, title: "You cannot install apps", message: "Only an owner or a manager of this account can connect apps. Ask one of them to approve it." };
  }
  const decision = form.get("decision");
  if (decision === "deny") return { kind: "redirect", location: denyAuthorization(check.request) };
  if (decision !== "approve") return { kind: "page", status: 400, title: "No decision", message: "Choose Approve or Deny." };
  const propertyIds = form.getAll("property_id");
  let approved;
  try {
    approved = await approveAuthorization({ db, request: check.request, user: { id: user.id, accountId: user.accountId, email: user.email }, propertyIds });
  } catch (error) {
    if (error instanceof Error && /at least one/.test(error.message)) {
      return { kind: "page", status: 422, title: "Choose a property", message: "Grant the app at least one of your properties, or deny the request." };
    }
    throw error;
  }
  return { kind: "redirect", location: approved.location };
}
