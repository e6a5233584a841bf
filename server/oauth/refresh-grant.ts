// The library exports only the abstract grant type; the concrete one is refined here
// (a CommonJS file without types: its default import is its module.exports).
// @ts-expect-error: no type declarations for the library's internal files.
import RefreshTokenGrantTypeModule from "@node-oauth/oauth2-server/lib/grant-types/refresh-token-grant-type.js";

const RefreshTokenGrantType = RefreshTokenGrantTypeModule as new (options: unknown) => {
  getRefreshToken(request: unknown, client: unknown): Promise<{ user: unknown }>;
  getScope(request: unknown, token: unknown): unknown;
  revokeToken(token: unknown): Promise<unknown>;
  saveToken(user: unknown, client: unknown, scope: unknown): Promise<unknown>;
};

/**
 * The library's refresh grant, checking the requested scope before the refresh token is rotated:
 * asking for more than was granted is refused and leaves the refresh token usable, instead of
 * retiring it (which would make the next, honest refresh look like a replay).
 */
export class RefreshGrant extends RefreshTokenGrantType {
  async handle(request: unknown, client: unknown) {
    const token = await this.getRefreshToken(request, client);
    const scope = this.getScope(request, token);
    await this.revokeToken(token);
    return this.saveToken(token.user, client, scope);
  }
}
