import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getConfig, isProduction, type Config } from "@/server/config";
import { localSecret } from "@/server/local-secret";
import { parseSecretKeys, type KeyRing } from "@/server/secret-keys";

/**
 * Secrets Innkeep must use again, at rest: webhook signing secrets (HMAC signing needs the secret
 * itself, so it cannot be hashed as API keys are) and payment processors' API keys. Each is sealed
 * with AES-256-GCM under a key from WEBHOOK_SECRET_KEYS, so a copy of the database alone neither
 * forges deliveries nor charges cards. A stored value reads
 * `aesgcm1:<key id>:<nonce>:<ciphertext>:<tag>` (base64url), bound to its row id (the GCM
 * additional data), so a sealed value copied onto another row does not open.
 */

const prefix = "aesgcm1";
const devKeyId = "dev";

/**
 * The configured key ring. Production refuses to go on without WEBHOOK_SECRET_KEYS; elsewhere a
 * random key (id `dev`) is made once and kept in DATA_DIR, as the staff session secret is.
 */
export function secretKeyRing(config: Config = getConfig()): KeyRing {
  if (config.WEBHOOK_SECRET_KEYS) return parseSecretKeys(config.WEBHOOK_SECRET_KEYS);
  if (isProduction(config)) {
    throw new Error("WEBHOOK_SECRET_KEYS is required in production (e.g. `k1:$(openssl rand -base64 32)`); it encrypts webhook signing secrets at rest.");
  }
  const text = localSecret(config.DATA_DIR, "webhook-secret-key", "base64");
  return parseSecretKeys(`${devKeyId}:${text}`);
}

let cachedRing: KeyRing | undefined;
const ring = () => (cachedRing ??= secretKeyRing());

/** Seals a secret (`whsec_…`, `sk_live_…`) for the row `rowId` under the ring's first key. */
export function sealSecret(secret: string, rowId: string, keys: KeyRing = ring()): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keys.primary.key, nonce);
  cipher.setAAD(Buffer.from(rowId, "utf8"));
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [prefix, keys.primary.id, nonce.toString("base64url"), sealed.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(":");
}

export const isSealed = (stored: string) => stored.startsWith(`${prefix}:`);
export const keyIdOf = (stored: string) => stored.split(":")[1];

/**
 * The secret in a stored value. A value from before encryption (plain `whsec_…`) is read as it is
 * until the start-up step seals it. Throws when the key is not in the ring or the value was altered.
 */
export function openSecret(stored: string, rowId: string, keys: KeyRing = ring()): string {
  if (!isSealed(stored)) return stored;
  const [, keyId, nonce, sealed, tag] = stored.split(":");
  const key = keys.byId.get(keyId);
  if (!key) throw new Error(`Secret ${rowId} is sealed with key "${keyId}", which WEBHOOK_SECRET_KEYS does not list.`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"));
  decipher.setAAD(Buffer.from(rowId, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8");
}
