import { openDatabase, processDatabase, type Database } from "@/db/client";
import cluster from "node:cluster";
import { CredentialCache, followRevocations } from "./auth/credential-cache";
import { getConfig, isProduction, pgliteDir, type Config } from "./config";
import type { ApiDeps } from "./http/context";
import { RateLimiter, type RateCounter } from "./http/rate-limit";
import { PrimaryCounters } from "./process-plumbing/rate-counters";
import { embeddedLockRefusal, tryAcquireLock } from "./process-plumbing/lock";

/**
 * The process's database, opened from the environment: PostgreSQL at DATABASE_URL, else PGlite
 * under DATA_DIR. Migrations run on first open. Shared by the Node listener, Next's route
 * handlers and tRPC, and the CLI when no server is running.
 */
export function getDatabase(): Promise<Database> {
  const config = getConfig();
  return processDatabase(async () => {
    if (config.DATABASE_URL) return openDatabase({ url: config.DATABASE_URL, max: config.DATABASE_POOL_MAX });
    holdEmbeddedDatabase(config);
    return openDatabase({ dataDir: pgliteDir(config) });
  });
}

/**
 * Two processes on one PGlite folder corrupt it. The server takes DATA_DIR's lock before it
 * gets here; any other process that tries (a `next build` worker prerendering a page that reads
 * the database, a second server) is refused instead of opening the folder.
 */
function holdEmbeddedDatabase(config: Config) {
  const lock = tryAcquireLock(config.DATA_DIR, { role: "process", socket: null });
  if (!lock.acquired) throw new Error(embeddedLockRefusal(config.DATA_DIR, lock.holder));
}

type Holder = { __innkeepDeps?: Promise<ApiDeps> };

/** The REST app's dependencies for this process (one rate limiter, Redis-backed with REDIS_URL). */
export function getApiDeps(): Promise<ApiDeps> {
  const holder = globalThis as Holder;
  holder.__innkeepDeps ??= (async () => {
    const config = getConfig();
    const database = await getDatabase();
    const { db } = database;
    // A key or token revoked by another process (the dashboard's thread, another worker or instance) stops here at once.
    await followRevocations(database);
    // In a cluster worker without Redis the counters live in the primary process (server/process-plumbing/rate-counters.ts).
    let limiter: RateCounter = isClusterWorker() ? new PrimaryCounters() : new RateLimiter("memory");
    if (config.REDIS_URL) {
      const { Redis } = await import("ioredis");
      limiter = new RateLimiter(new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1 }));
    }
    return {
      db,
      limiter,
      credentials: new CredentialCache(),
      trustProxy: config.TRUST_PROXY,
      metricsAccess: { token: config.METRICS_TOKEN, production: isProduction(config) },
    };
  })();
  return holder.__innkeepDeps;
}

/** Whether this process is one of the server's cluster workers. */
export const isClusterWorker = () => cluster.isWorker && process.env.INNKEEP_WORKER_INDEX !== undefined;
