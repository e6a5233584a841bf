import { describe, expect, it } from "vitest";
import { malformedAuthorizeRequest, type AuthorizeParams } from "@/server/oauth/authorize-shape";

// RFC 6749 §4.1.2.1: a request that names no app, or no address to send the person back to, is
// shown an error and never redirected; proxy.ts answers it with a 400 page before the consent page.
describe("an authorization request too malformed to name an app or an address", () => {
  const good = { client_id: "app_1a2B3c", redirect_uri: "https://app.example.com/callback", response_type: "code" };

  it("is none of the following when it names both (the rest is the consent page's to check)", () => {
    expect(malformedAuthorizeRequest(good)).toBeNull();
    expect(malformedAuthorizeRequest({ ...good, response_type: "token", scope: undefined })).toBeNull();
    expect(malformedAuthorizeRequest({ ...good, redirect_uri: "com.example.app:/oauth" })).toBeNull();
  });

  const cases: [string, AuthorizeParams, string][] = [
    ["no client_id", { ...good, client_id: undefined }, "Unknown app"],
    ["an empty client_id", { ...good, client_id: "" }, "Unknown app"],
    ["a repeated client_id", { ...good, client_id: ["a", "b"] }, "Unknown app"],
    ["no redirect_uri", { ...good, redirect_uri: undefined }, "Redirect address not valid"],
    ["an empty redirect_uri", { ...good, redirect_uri: "" }, "Redirect address not valid"],
    ["a relative redirect_uri", { ...good, redirect_uri: "/callback" }, "Redirect address not valid"],
    ["a redirect_uri that is no URI", { ...good, redirect_uri: "app.example.com callback" }, "Redirect address not valid"],
    ["a repeated redirect_uri", { ...good, redirect_uri: ["https://a.example/cb", "https://b.example/cb"] }, "Redirect address not valid"],
  ];
  for (const [what, params, title] of cases) {
    it(`is ${what}`, () => {
      expect(malformedAuthorizeRequest(params)?.title).toBe(title);
    });
  }
});
