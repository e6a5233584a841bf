import OAuth2Server from "@node-oauth/oauth2-server";
// The library exports only the abstract grant type; the concrete one is refined here
// (a CommonJS file without types: its default import is its module.exports).
// @ts-expect-error: no type declarations for the library's internal files.
import AuthorizationCodeGrantTypeModule from "@node-oauth/oauth2-server/lib/grant-types/authorization-code-grant-type.js";

const AuthorizationCodeGrantType = AuthorizationCodeGrantTypeModule as new (
  options: unknown,
) => { verifyPKCE(request: unknown, code: unknown): void; validateRedirectUri(request: unknown, code: unknown): void };

/** Re-raises a library `invalid_request` as `invalid_grant`, keeping its message. */
function asInvalidGrant(fn: () => void) {
  try {
    fn();
  } catch (error) {
    if (error instanceof OAuth2Server.InvalidRequestError) throw new OAuth2Server.InvalidGrantError(error.message);
    throw error;
  }
}

/**
 * The library's authorization-code grant, with RFC 6749 §5.2's error for a code presented with
 * the wrong redirect URI or a malformed verifier: `invalid_grant` (the grant does not match),
 * where the library says `invalid_request`.
 */
export class CodeGrant extends AuthorizationCodeGrantType {
  verifyPKCE(request: unknown, code: unknown) {
    asInvalidGrant(() => super.verifyPKCE(request, code));
  }
  validateRedirectUri(request: unknown, code: unknown) {
    // A missing redirect_uri stays `invalid_request`; a different one is a grant mismatch.
    const given = (request as { body: Record<string, string> }).body.redirect_uri;
    if (!given) return super.validateRedirectUri(request, code);
    const expected = (code as { redirectUri?: string }).redirectUri;
    if (expected && given !== expected) {
      throw new OAuth2Server.InvalidGrantError("`redirect_uri` differs from the one the authorization request used; send exactly the same value (RFC 6749 §4.1.3).");
    }
    asInvalidGrant(() => super.validateRedirectUri(request, code));
  }
}
