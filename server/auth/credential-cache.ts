import { sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import type { Database, Executor } from "@/db/client";
import { authenticateToken, type Principal } from "./authenticate-token";
import { hashToken } from "./tokens";

/** How long a looked-up credential is trusted without asking the database again. */
export const credentialTtlMs = 1_000;
/** Beyond this many credentials, the least recently used is forgotten (one at a time, never all at once). */
const maxEntries = 10_000;

const caches = new Set<CredentialCache>();

/**
 * Remembers the principal of each valid bearer token for at most a second, so that a client
 * sending hundreds of requests a second costs one credential query a second instead of one per
 * request. A revocation clears every cache at once: in its own isolate directly, in other
 * processes through NOTIFY (`forgetCredentials`), and at worst within the TTL. Failures (unknown,
 * revoked) are never cached.
 */
export class CredentialCache {
  private readonly entries: LRUCache<string, Principal>;

  constructor(options: { ttlMs?: number; now?: () => number; maxEntries?: number } = {}) {
    this.entries = new LRUCache<string, Principal>({
      max: options.maxEntries ?? maxEntries,
      // lru-cache keeps an entry while its age is at most `ttl`; ours end when it reaches the TTL.
      ttl: (options.ttlMs ?? credentialTtlMs) - 1,
      // Ask the clock on every read (its default reuses a reading for 1 ms), so the TTL is exact.
      ttlResolution: 0,
      ...(options.now ? { perf: { now: options.now } } : {}),
    });
    caches.add(this);
  }

  async authenticate({ db, token }: { db: Executor; token: string }): Promise<Principal> {
    const key = hashToken(token);
    const hit = this.entries.get(key);
    if (hit) return hit;
    const principal = await authenticateToken({ db, token });
    this.entries.set(key, principal);
    return principal;
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The NOTIFY channel on which a revocation reaches every process of every instance. */
const channel = "innkeep_credentials";

const forgetHere = () => {
  for (const cache of caches) cache.clear();
};

/**
 * After a credential is revoked or changed: nothing this isolate remembers outlives it, and every
 * other process listening on the database (cluster workers, other instances) forgets too when the
 * change commits (NOTIFY inside a transaction is delivered at its commit). The TTL stays the bound
 * if a notification is lost.
 */
export async function forgetCredentials(db: Executor): Promise<void> {
  forgetHere();
  await db.execute(sql`select pg_notify(${channel}, '')`);
}

/** Has this process's caches follow revocations made by any other process on the same database. */
export async function followRevocations(database: Database): Promise<void> {
  await database.listen?.(channel, forgetHere);
}
