/** The keys that seal and open secrets: the first seals new ones, every one opens. */
export type KeyRing = { primary: { id: string; key: Buffer }; byId: Map<string, Buffer> };

const keyIdPattern = /^[A-Za-z0-9_-]{1,32}$/;

/**
 * WEBHOOK_SECRET_KEYS as configured: comma-separated `keyid:base64key` entries, each key 32 bytes
 * (`openssl rand -base64 32`). Throws naming the entry that is wrong.
 */
export function parseSecretKeys(value: string): KeyRing {
  const entries = value.split(",").map((e) => e.trim()).filter(Boolean);
  if (entries.length === 0) throw new Error("Expected at least one keyid:base64key entry.");
  const byId = new Map<string, Buffer>();
  for (const entry of entries) {
    const colon = entry.indexOf(":");
    const id = colon < 0 ? "" : entry.slice(0, colon);
    if (!keyIdPattern.test(id)) throw new Error(`"${entry.slice(0, 40)}…": each entry is keyid:base64key, the key id letters, digits, - or _ (at most 32).`);
    const key = Buffer.from(entry.slice(colon + 1), "base64");
    if (key.length !== 32) throw new Error(`Key "${id}" is ${key.length} bytes; AES-256 needs 32 (openssl rand -base64 32).`);
    if (byId.has(id)) throw new Error(`Key id "${id}" is listed twice.`);
    byId.set(id, key);
  }
  const [first] = byId;
  return { primary: { id: first[0], key: first[1] }, byId };
}
