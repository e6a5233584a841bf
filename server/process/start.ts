import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { getRequestListener } from "@hono/node-server";
import { count, eq } from "drizzle-orm";
import type { Database } from "@/db/client";
import { users } from "@/db/schema";
import { defaultAdminPassword, demoAdminEmail, seedDemo, seedPassword, type SeedResult } from "@/server/accounts/seed-demo";
import { controlHandler } from "@/server/cli/serve";
import { getConfig, isProduction, type Config } from "@/server/config";
import { createApp } from "@/server/api/app";
import { addressOf } from "@/server/proxy-trust";
import { answerClientError, createListener, holdIdleConnections } from "@/server/listener";
import { logger } from "@/server/observability/logger";
import { getApiDeps, getDatabase, isClusterWorker } from "@/server/runtime";
import { startWebhookEngine } from "@/server/webhooks/engine";
import { resealSecrets } from "@/server/webhooks/secret-box";
import { repairErasureDamage } from "@/server/guest-data/repair-erasure";
import { inngestConfigured } from "@/server/jobs/inngest-client";
import { startNightAuditScheduler } from "@/server/night-audit/scheduler";
import { startChargeReconciler } from "@/server/payments/reconcile";
import { startHoldSweeper } from "@/server/booking-engine/sweeper";
import { serveControl, socketPathFor, type ControlServer } from "@/server/process-plumbing/control";
import { dashboardThreadFile, DashboardStartError, proxyTo, startDashboardThread, type Dashboard } from "./dashboard";
import { acquireLock, embeddedLockRefusal, type Acquired } from "@/server/process-plumbing/lock";
import { answerUsage, isUsageQuestion, type UsageSource } from "@/server/process-plumbing/usage-bridge";

/** A failure to start that the operator can act on; printed without a stack trace. */
export class StartupError extends Error {}

export type RunningServer = { url: string; port: number; stop(reason?: string): Promise<void> };

const log = logger.child({ component: "server" });

/**
 * The one Node listener (`npm start`, `npm run dev`): `/v1`, `/oauth/token|revoke` and the probes
 * go straight to the Hono app, everything else to Next. On the embedded database it first takes
 * DATA_DIR's lock, and serves the CLI on a local control socket while it holds the database.
 */
export async function startServer({ dev }: { dev: boolean }): Promise<RunningServer> {
  const config = getConfig();
  const production = isProduction(config);
  const embedded = !config.DATABASE_URL;

  checkStartupConfig(config);
  // A cluster worker (server/process/cluster.ts): the primary migrated, seeded, prints the banner and hosts the dashboard.
  const worker = isClusterWorker();
  const dashboardSocket = worker ? process.env.INNKEEP_DASHBOARD_SOCKET : undefined;

  let lock: Acquired | undefined;
  if (embedded) {
    const result = await acquireLock(config.DATA_DIR, { role: "server", socket: null }, 30_000);
    if (!result.acquired) {
      const why = result.holder.role === "server" ? "another server is running on it (set DATA_DIR to run a second one)" : "it did not let go within 30 s";
      throw new StartupError(embeddedLockRefusal(config.DATA_DIR, result.holder, why));
    }
    lock = result;
  }

  // Next (the slowest part of starting) prepares in its own thread while the database opens.
  const hostname = ["0.0.0.0", "::"].includes(config.HOST) ? "localhost" : config.HOST;
  const threadFile = !config.INNKEEP_API_ONLY && !dev && !embedded && !dashboardSocket ? dashboardThreadFile() : undefined;
  // The API's limiter lives in this thread: the dashboard's usage questions are answered from it.
  const usage: UsageSource = { peek: async (...args) => (await getApiDeps()).limiter.peek(...args) };
  const dashboardStarting = threadFile ? startDashboardThread({ file: threadFile, hostname, port: config.PORT, usage }) : undefined;
  dashboardStarting?.catch(() => {}); // Awaited below; a failure must not be an unhandled rejection meanwhile.

  const database = await getDatabase();
  const seeded = worker ? null : await seedDemo({ db: database.db, adminPassword: seedPassword({ production, adminPassword: config.ADMIN_PASSWORD }) });
  if (seeded) log.info({ account_id: seeded.accountId }, "seeded the demo account");
  if (!worker) await repairStoredData(database.db);
  if (!worker) await sealStoredSecrets(database.db);

  // A cluster worker answers the primary's usage questions (the dashboard's) from the shared counters.
  if (worker) {
    process.on("message", (message: unknown) => {
      if (isUsageQuestion(message)) void answerUsage(message, usage).then((answer) => process.send?.(answer));
    });
  }

  // Webhook attempts (in process, or handed to Inngest); WEBHOOK_DISPATCHER=0 leaves them to another process.
  const webhooks = startWebhookEngine({ db: database.db });
  // The night audit: Inngest's cron when it is configured, else this scheduler in the process that dispatches webhooks.
  const audits = config.WEBHOOK_DISPATCHER && !inngestConfigured(config) ? startNightAuditScheduler({ db: database.db }) : { stop: async () => {} };
  // Card charges whose answer was lost, found again at Stripe and settled (issue 37, point 6), by the process that dispatches webhooks.
  const reconciler = config.WEBHOOK_DISPATCHER ? startChargeReconciler({ db: database.db }) : { stop: async () => {} };
  // Booking-engine holds whose guest left the form give their rooms back once a minute, at every property (issue 38).
  const holdSweeper = config.WEBHOOK_DISPATCHER ? startHoldSweeper({ db: database.db }) : { stop: async () => {} };

  let control: ControlServer | undefined;
  if (lock) {
    control = await serveControl(socketPathFor(config.DATA_DIR), controlHandler({ database, production, adminPassword: config.ADMIN_PASSWORD, log }));
    lock.update({ socket: control.path });
  }

  const server = http.createServer();
  holdIdleConnections(server);
  // Next's route handlers need the platform's own Request and Response: node-server's faster
  // stand-ins (overrideGlobalObjects) are only allowed when Next is not in the process.
  // (Next in its own thread does not see this thread's globals.)
  const api = getRequestListener(createApp(await getApiDeps()).fetch, { overrideGlobalObjects: config.INNKEEP_API_ONLY || !!threadFile || !!dashboardSocket });
  let nextApp: Awaited<ReturnType<typeof prepareNext>> | undefined;
  let dashboard: Dashboard | undefined;
  let pages: (req: IncomingMessage, res: ServerResponse) => unknown = apiOnly;
  if (dashboardSocket) {
    dashboard = proxyTo(dashboardSocket);
    pages = dashboard.handle;
  } else if (dashboardStarting) {
    // The API answers (and /readyz says so) as soon as this thread is listening, while Next is
    // still starting in its own thread, the slowest part of a start: a page asked for meanwhile
    // waits for it, and the start fails below if the thread cannot start at all.
    const waiting = dashboardStarting.then((started) => (dashboard = started));
    waiting.catch(() => {});
    pages = (req, res) =>
      dashboard
        ? dashboard.handle(req, res)
        : waiting.then(
            (started) => started.handle(req, res),
            () => {
              if (!res.headersSent) res.writeHead(503, { "content-type": "text/plain", "retry-after": "5" });
              res.end("The dashboard could not start; see the server's log.");
            },
          );
  } else if (!config.INNKEEP_API_ONLY) {
    nextApp = await prepareNext(config, dev, server);
    const handle = nextApp.getRequestHandler();
    pages = (req, res) =>
      handle(req, res).catch((error: unknown) => {
        log.error({ err: error, path: req.url }, "next request failed");
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end("Internal Server Error");
      });
  }
  server.on("request", createListener({ api, next: pages, clientAddress: (req) => addressOf(req, config.TRUST_PROXY ?? false) }));
  server.on("clientError", answerClientError);

  let stopping: Promise<void> | undefined;
  const stop = (reason = "stop") =>
    (stopping ??= (async () => {
      log.info({ reason }, "shutting down");
      // In-flight requests get a few seconds to finish; idle keep-alive connections close now.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), 5_000);
      await closed;
      clearTimeout(grace);
      await control?.close();
      await Promise.all([webhooks.stop(), audits.stop(), reconciler.stop(), holdSweeper.stop()]);
      await nextApp?.close();
      await dashboard?.close();
      await database.close();
      lock?.release();
      log.info("stopped");
    })());

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(error.code === "EADDRINUSE" ? new StartupError(`Port ${config.PORT} on ${config.HOST} is in use: set PORT to another port.`) : error),
    );
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  if (dashboardStarting) {
    try {
      await dashboardStarting;
    } catch (error) {
      await stop("the dashboard could not start");
      if (error instanceof DashboardStartError && error.noBuild) throw new StartupError(noBuildMessage);
      throw error;
    }
  }
  const port = (server.address() as AddressInfo).port;
  const url = config.NEXTAUTH_URL?.replace(/\/$/, "") ?? `http://${["0.0.0.0", "::"].includes(config.HOST) ? "localhost" : config.HOST}:${port}`;
  log.info({ url, port, host: config.HOST, dev, database: database.kind, api_only: config.INNKEEP_API_ONLY, pid: process.pid }, "listening");
  if (!worker) process.stderr.write(await banner({ url, config, production, database, seeded }));


  // Ctrl-C reaches the whole process group: a worker leaves it to the primary, which sends SIGTERM.
  if (worker) process.on("SIGINT", () => {});
  for (const signal of worker ? (["SIGTERM"] as const) : (["SIGTERM", "SIGINT"] as const)) {
    process.on(signal, () => {
      if (stopping) {
        log.warn({ signal }, "second signal: exiting at once");
        process.exit(1);
      }
      const deadline = setTimeout(() => {
        log.error("shutdown took over 15 s: exiting");
        process.exit(1);
      }, 15_000);
      deadline.unref();
      stop(signal).then(
        () => process.exit(0),
        (error) => {
          log.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
  return { url, port, stop };
}

const noBuildMessage = "No production build of the dashboard: run `npm run build` first (or set INNKEEP_API_ONLY=1 to serve only the API).";

/** Next in this thread: development (hot reload needs it here), and the embedded database (one PGlite per process). */
async function prepareNext(config: Config, dev: boolean, httpServer: http.Server) {
  const { default: next } = await import("next");
  const hostname = ["0.0.0.0", "::"].includes(config.HOST) ? "localhost" : config.HOST;
  // httpServer: Next attaches its upgrade handler (the dev HMR websocket) to our server.
  const app = next({ dev, dir: process.cwd(), hostname, port: config.PORT || undefined, httpServer });
  try {
    await app.prepare();
  } catch (error) {
    const message = (error as Error).message ?? "";
    if (!dev && /production build/i.test(message)) {
      throw new StartupError(noBuildMessage);
    }
    throw error;
  }
  return app;
}

/** Without Next (INNKEEP_API_ONLY=1) only the REST app is served. */
function apiOnly(_req: IncomingMessage, res: ServerResponse) {
  const body = {
    error: {
      type: "invalid_request_error",
      code: "route_not_found",
      message: "This server runs with INNKEEP_API_ONLY=1: only /v1, /oauth/token, /oauth/revoke, /healthz, /readyz and /metrics are served.",
    },
  };
  res.writeHead(404, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Settings production cannot start without; checked before anything opens. */
export function checkStartupConfig(config: Config): void {
  // The dashboard cannot sign anyone in without it: refuse now rather than at the first page.
  if (isProduction(config) && !config.INNKEEP_API_ONLY && !config.NEXTAUTH_SECRET) {
    throw new StartupError("NEXTAUTH_SECRET is required in production (e.g. `openssl rand -base64 32`); it signs staff sessions. Or set INNKEEP_API_ONLY=1 to serve only the API.");
  }
  // Every endpoint's signing secret is sealed with it: without it no delivery could be signed.
  if (isProduction(config) && !config.WEBHOOK_SECRET_KEYS) {
    throw new StartupError("WEBHOOK_SECRET_KEYS is required in production (e.g. `k1:$(openssl rand -base64 32)`); it encrypts webhook signing secrets at rest.");
  }
}

/** Repairs, once per database, the rows an earlier erasure damaged (server/guest-data/repair-erasure.ts), before any event is sent again. */
export async function repairStoredData(db: Database["db"]): Promise<void> {
  const repaired = await repairErasureDamage(db);
  if (repaired?.rows) log.warn(repaired, "repaired stored rows that an earlier erasure had damaged (each field is listed in data_repairs)");
}

/**
 * Seals the signing secrets still stored plain (from before encryption) or under an older key
 * than WEBHOOK_SECRET_KEYS' first, once per start, before any delivery is signed.
 */
export async function sealStoredSecrets(db: Database["db"]): Promise<void> {
  const { rewritten, unreadable } = await resealSecrets(db);
  if (rewritten > 0) log.info({ rewritten }, "sealed webhook signing secrets under the current key");
  if (unreadable > 0) {
    log.error({ unreadable }, "webhook signing secrets sealed under a key WEBHOOK_SECRET_KEYS no longer lists: their endpoints' deliveries fail until it is listed again");
  }
}

/** What a person starting the server needs: where it is, how to sign in, the demo key once. */
export async function banner(options: { url: string; config: Config; production: boolean; database: Database; seeded: SeedResult }) {
  const { url, config, production, database, seeded } = options;
  const lines = [`Innkeep is running at ${url}${config.INNKEEP_API_ONLY ? " (API only)" : ""}; REST API at ${url}/v1 (${database.kind === "pglite" ? `embedded database in ${path.resolve(config.DATA_DIR)}` : "PostgreSQL"}).`];
  const createUser = "npm run innkeep -- users create --email you@example.com --password '…' --role owner";
  const [{ n }] = await database.db.select({ n: count() }).from(users);
  const [admin] = await database.db.select({ id: users.id }).from(users).where(eq(users.email, demoAdminEmail)).limit(1);
  if (admin) {
    const password = config.ADMIN_PASSWORD ? "the password in ADMIN_PASSWORD" : production ? "the password it was given" : `password ${defaultAdminPassword}`;
    lines.push(`Sign in at ${url}/signin as ${demoAdminEmail} with ${password}${seeded ? "" : " (unless changed)"}.`);
  } else if (Number(n) === 0) {
    lines.push(`No staff user exists yet (production has no default password). Create one with:`, `  ${createUser}`);
  }
  if (seeded) {
    lines.push(
      `Demo API key, all scopes, shown only now (keep it):`,
      `  ${seeded.apiKey}`,
      `Try: curl -H "Authorization: Bearer ${seeded.apiKey}" ${url}/v1/properties`,
    );
  } else {
    lines.push(`New API key: npm run innkeep -- api-keys create --scopes "reservations:read rooms:read"`);
  }
  return `\n${lines.join("\n")}\n\n`;
}

/** Starts the server, or says why it cannot and exits with status 1. */
export async function startOrExit(options: { dev: boolean }): Promise<RunningServer> {
  try {
    return await startServer(options);
  } catch (error) {
    if (error instanceof StartupError) {
      log.fatal({ reason: error.message }, "cannot start");
      process.stderr.write(`\n${error.message}\n\n`);
    } else {
      log.fatal({ err: error }, "cannot start");
    }
    process.exit(1);
  }
}
