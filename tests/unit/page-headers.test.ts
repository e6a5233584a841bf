import { describe, expect, it } from "vitest";
import { consentFormTargets, contentSecurityPolicy, takesCards } from "@/server/http/page-headers";

// The consent page's Approve posts to /oauth/authorize/decision, which answers 303 to the client's
// redirect_uri; Chromium holds that redirect to the page's form-action, so the policy of that one
// page names the redirect's origin, and no other page's does.
const formAction = (policy: string) => policy.split("; ").find((d) => d.startsWith("form-action"));

describe("form-action", () => {
  it("is this origin only on every page but the consent page", () => {
    expect(formAction(contentSecurityPolicy({ nonce: "n", https: false, dev: false }))).toBe("form-action 'self'");
    expect(consentFormTargets("/reservations", "http://127.0.0.1:4000/callback")).toEqual([]);
    expect(consentFormTargets("/oauth/authorize/decision", "https://app.example.com/cb")).toEqual([]);
  });

  it("adds the origin of the consent page's redirect_uri, or an app's own scheme", () => {
    expect(consentFormTargets("/oauth/authorize", "http://127.0.0.1:4000/callback?x=1")).toEqual(["http://127.0.0.1:4000"]);
    expect(consentFormTargets("/oauth/authorize", "https://app.example.com/oauth/cb")).toEqual(["https://app.example.com"]);
    expect(consentFormTargets("/oauth/authorize", "com.example.pms:/callback")).toEqual(["com.example.pms:"]);
    const policy = contentSecurityPolicy({ nonce: "n", https: true, dev: false, formTargets: ["https://app.example.com"] });
    expect(formAction(policy)).toBeUndefined();
  });

  it("adds nothing for a missing or malformed redirect_uri, so nothing can be smuggled into the policy", () => {
    expect(consentFormTargets("/oauth/authorize", null)).toEqual([]);
    expect(consentFormTargets("/oauth/authorize", "not a url; script-src *")).toEqual([]);
    expect(consentFormTargets("/oauth/authorize", "javascript:alert(1)")).toEqual([]);
    expect(consentFormTargets("/oauth/authorize", "data:text/html,hi")).toEqual([]);
  });
});

// Stripe.js (the dashboard's card form and its 3-D Secure step) needs Stripe's script, its API and
// its frames; pages that take no card keep the policy without them.
const directive = (policy: string, name: string) => policy.split("; ").find((d) => d.startsWith(`${name} `));

describe("Stripe", () => {
  it("is allowed its script, API and frames on the dashboard's pages only", () => {
    const withStripe = contentSecurityPolicy({ nonce: "n", https: true, dev: false, stripe: true });
    expect(directive(withStripe, "script-src")).toBe("script-src 'self' 'nonce-n' 'strict-dynamic' https://js.stripe.com https://*.js.stripe.com");
    expect(directive(withStripe, "connect-src")).toBe("connect-src 'self' https://api.stripe.com");
    expect(directive(withStripe, "frame-src")).toBe("frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com");
    expect(directive(withStripe, "frame-ancestors")).toBe("frame-ancestors 'none'");
    const without = contentSecurityPolicy({ nonce: "n", https: true, dev: false });
    expect(without).not.toContain("stripe");
    expect(directive(without, "frame-src")).toBeUndefined();
  });

  it("takes cards on the dashboard (any of its pages may lead to a folio without a new document), not on sign-in, consent, the reference or the booking pages", () => {
    for (const path of ["/", "/reservations", "/reservations/res_1", "/receivables", "/settings", "/calendar"]) expect(takesCards(path)).toBe(true);
    for (const path of ["/signin", "/oauth/authorize", "/docs", "/docs/clients/node", "/book/harbor", "/api/trpc/x", "/v1/payments"]) expect(takesCards(path)).toBe(false);
  });
});
