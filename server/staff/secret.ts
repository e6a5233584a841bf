import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getConfig, isProduction } from "@/server/config";

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
  const file = path.resolve(config.DATA_DIR, "nextauth-secret");
  try {
    cached = readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    // "wx": if another process wrote it first, read theirs instead of replacing it.
    try {
      writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    cached = readFileSync(file, "utf8").trim();
  }
  return cached;
}
