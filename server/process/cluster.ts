import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import { seedDemo, seedPassword } from "@/server/accounts/seed-demo";
import { getConfig, isProduction } from "@/server/config";
import { logger } from "@/server/observability/logger";
import { RateLimiter } from "@/server/http/rate-limit";
import { getDatabase } from "@/server/runtime";
import { dashboardThreadFile, DashboardStartError, startDashboardThread, type Dashboard } from "./dashboard";
import { serveRateCounters } from "@/server/process-plumbing/rate-counters";
import { askingOver } from "@/server/process-plumbing/usage-bridge";
import { banner, checkStartupConfig, repairStoredData, sealStoredSecrets, StartupError } from "./start";

const log = logger.child({ component: "cluster" });

/**
 * How many worker processes `npm start` runs: WEB_CONCURRENCY (default: one per core) on a
 * PostgreSQL server; always one on the embedded database, which one process must own.
 */
export function clusterSize(): number {
  const config = getConfig();
  if (!config.DATABASE_URL) return 1;
  return config.WEB_CONCURRENCY ?? os.availableParallelism();
}

/**
 * The primary process of a cluster: migrates and seeds once, hosts the one dashboard thread and
 * the shared rate-limit counters (unless Redis holds them), forks the workers that serve HTTP on
 * the one port, restarts a worker that dies, and stops them all on SIGTERM or SIGINT. Only the
 * first worker dispatches webhooks.
 */
export async function runPrimary(workers: number): Promise<void> {
  const config = getConfig();
  checkStartupConfig(config);
  // Without Redis the workers' counters live here, and the dashboard's thread reads them here too.
  const counters = config.REDIS_URL ? undefined : new RateLimiter("memory");
  if (counters) serveRateCounters(counters);

  const hostname = ["0.0.0.0", "::"].includes(config.HOST) ? "localhost" : config.HOST;
  const threadFile = config.INNKEEP_API_ONLY ? undefined : dashboardThreadFile();
  // With Redis only the workers hold a client: the dashboard's usage questions go to one of them.
  const usage = counters ?? askingOver(
    (question) => {
      const worker = Object.values(cluster.workers ?? {}).find((w) => w && !w.isDead() && w.isConnected());
      if (!worker) throw new Error("No worker is running to read the API's usage.");
      worker.send(question);
    },
    (onMessage) => cluster.on("message", (_worker, message) => onMessage(message)),
  );
  const dashboardStarting = threadFile ? startDashboardThread({ file: threadFile, hostname, port: config.PORT, usage }) : undefined;
  dashboardStarting?.catch(() => {});
  if (!config.INNKEEP_API_ONLY && !threadFile) throw new StartupError("No compiled dashboard thread next to the server: run `npm run build`.");

  // Migrations and the demo seed run once, here, before any worker opens the database.
  const database = await getDatabase();
  const production = isProduction(config);
  const seeded = await seedDemo({ db: database.db, adminPassword: seedPassword({ production, adminPassword: config.ADMIN_PASSWORD }) });
  if (seeded) log.info({ account_id: seeded.accountId }, "seeded the demo account");
  await repairStoredData(database.db);
  await sealStoredSecrets(database.db);

  let dashboard: Dashboard & { socketPath: string } | undefined;
  try {
    dashboard = await dashboardStarting;
  } catch (error) {
    if (error instanceof DashboardStartError && error.noBuild) {
      throw new StartupError("No production build of the dashboard: run `npm run build` first (or set INNKEEP_API_ONLY=1 to serve only the API).");
    }
    throw error;
  }

  let stopping = false;
  const envFor = (index: number) => ({
    INNKEEP_WORKER_INDEX: String(index),
    ...(dashboard ? { INNKEEP_DASHBOARD_SOCKET: dashboard.socketPath } : {}),
    // One dispatcher for the cluster: the first worker's (or none, if this host was told so).
    WEBHOOK_DISPATCHER: index === 0 ? (process.env.WEBHOOK_DISPATCHER ?? "1") : "0",
  });
  const fork = (index: number): Worker => {
    const worker = cluster.fork(envFor(index));
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      log.error({ worker: index, pid: worker.process.pid, code, signal }, "worker exited; starting another");
      setTimeout(() => fork(index), 1_000);
    });
    return worker;
  };
  // Listening for the signals before the first worker starts: the workers may answer /readyz
  // before this process has printed its banner, and a SIGTERM then killed it outright (exit
  // without a status, the workers orphaned), as the cluster test saw on a busy machine.
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn({ signal }, "second signal: exiting at once");
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, "shutting down the cluster");
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());
    const exited = alive.map((w) => new Promise<void>((resolve) => (w.isDead() ? resolve() : w.once("exit", () => resolve()))));
    for (const w of alive) w.process.kill("SIGTERM");
    const deadline = setTimeout(() => {
      log.error("workers took over 15 s to stop: killing them");
      for (const w of alive) w.process.kill("SIGKILL");
    }, 15_000);
    await Promise.all(exited);
    clearTimeout(deadline);
    await dashboard?.close();
    log.info("stopped");
    process.exit(0);
  };
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop(signal));
  const started = Array.from({ length: workers }, (_, i) => fork(i));
  let port = config.PORT;
  await Promise.all(
    started.map(
      (worker) =>
        new Promise<void>((resolve, reject) => {
          worker.once("listening", (address) => {
            port = address.port;
            resolve();
          });
          worker.once("exit", (code) => (stopping ? resolve() : reject(new StartupError(`A worker exited with status ${code} while starting; see its log above.`))));
        }),
    ),
  );
  const url = config.NEXTAUTH_URL?.replace(/\/$/, "") ?? `http://${["0.0.0.0", "::"].includes(config.HOST) ? "localhost" : config.HOST}:${port}`;
  log.info({ url, port, workers, pid: process.pid }, "cluster listening");
  process.stderr.write(await banner({ url, config, production, database, seeded }));
  process.stderr.write(`${workers} worker processes share port ${port} (WEB_CONCURRENCY).\n\n`);
  await database.close();
}
