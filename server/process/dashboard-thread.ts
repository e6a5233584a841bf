// The dashboard's thread (dist/dashboard-thread.mjs): Next, alone in its own V8 isolate, serving
// HTTP on a private Unix socket that the API listener forwards page requests to. Next installs
// AsyncLocalStorage (promise hooks on every await) and patches globals such as Date; here they
// stay away from the /v1 path. It opens its own database pool for tRPC and sign-in.
import { rmSync } from "node:fs";
import http from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { logger } from "@/server/observability/logger";
import { askParentThread, setUsageSource } from "@/server/process-plumbing/usage-bridge";

export type DashboardThreadData = { socketPath: string; hostname: string; port: number };
export type DashboardMessage = { type: "ready" } | { type: "failed"; message: string; noBuild: boolean } | { type: "stopped" };

const log = logger.child({ component: "dashboard" });
const { socketPath, hostname, port } = workerData as DashboardThreadData;
const post = (message: DashboardMessage) => parentPort!.postMessage(message);
// The API counts requests outside this thread: the settings page asks the parent for usage.
setUsageSource(askParentThread(parentPort!));

try {
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: process.cwd(), hostname, port: port || undefined });
  await app.prepare();
  const handle = app.getRequestHandler();
  const server = http.createServer((req, res) =>
    handle(req, res).catch((error: unknown) => {
      log.error({ err: error, path: req.url }, "next request failed");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end("Internal Server Error");
    }),
  );
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  parentPort!.on("message", async (message: { type: string }) => {
    if (message.type !== "stop") return;
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await app.close();
    const { processDatabaseIfOpen } = await import("@/db/client");
    await (await processDatabaseIfOpen())?.close();
    rmSync(socketPath, { force: true });
    post({ type: "stopped" });
  });
  post({ type: "ready" });
} catch (error) {
  const message = (error as Error).message ?? String(error);
  post({ type: "failed", message, noBuild: /production build/i.test(message) });
}
