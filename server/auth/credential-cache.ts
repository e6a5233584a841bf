import type { Executor } from "@/db/client";
import { authenticateToken, type Principal } from "./authenticate-token";
import { hashToken } from "./tokens";

/** How long a looked-up credential is trusted without asking the database again. */
export const credentialTtlMs = 1_000;
const maxEntries = 10_000;

type Entry = { principal: Principal; expires: number };
const caches = new Set<CredentialCache>();

/**
 * Remembers the principal of each valid bearer token for at most a second, so that a client
 * sending hundreds of requests a second costs one credential query a second instead of one per
 * request. A revocation in this isolate clears every cache at once (`forgetCredentials`); any
 * other process or thread sees it within the TTL. Failures (unknown, revoked) are never cached.
 */
export class CredentialCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly options: { ttlMs?: number; now?: () => number } = {}) {
    caches.add(this);
  }

  async authenticate({ db, token }: { db: Executor; token: string }): Promise<Principal> {
    const now = (this.options.now ?? Date.now)();
    const key = hashToken(token);
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.principal;
    const principal = await authenticateToken({ db, token });
    if (this.entries.size >= maxEntries) this.entries.clear();
    this.entries.set(key, { principal, expires: now + (this.options.ttlMs ?? credentialTtlMs) });
    return principal;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** After a credential is revoked or changed: nothing this isolate remembers outlives it. */
export function forgetCredentials(): void {
  for (const cache of caches) cache.clear();
}
