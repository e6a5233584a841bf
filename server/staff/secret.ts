import { getConfig, isProduction } from "@/server/config";
import { localSecret } from "@/server/local-secret";

let cached: string | undefined;

/**
 * The key that signs and encrypts staff session cookies. Production requires NEXTAUTH_SECRET;
 * elsewhere a random one is made once and kept in DATA_DIR, so sessions survive restarts.
 * Call it on start to refuse a production start without the secret.
 */
export function staffSessionSecret(): string {
  if (cached) return cached;
  const config = getConfig();
  if (config.NEXTAUTH_SECRET) return (cached = config.NEXTAUTH_SECRET);
  if (isProduction(config)) {
    throw new Error("NEXTAUTH_SECRET is required in production (e.g. `openssl rand -base64 32`); it signs staff sessions.");
  }
  return (cached = localSecret(config.DATA_DIR, "nextauth-secret", "base64url"));
}
