import { existsSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { logger } from "@/server/observability/logger";
import type { DashboardMessage, DashboardThreadData } from "./dashboard-thread";
import { answerUsage, isUsageQuestion, type UsageSource } from "@/server/process-plumbing/usage-bridge";

const log = logger.child({ component: "dashboard" });

export type Dashboard = { handle(req: IncomingMessage, res: ServerResponse): void; close(): Promise<void> };

/** The compiled thread entry beside the compiled server (dist/), or undefined when running from sources. */
export function dashboardThreadFile(): string | undefined {
  const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "dashboard-thread.mjs");
  return existsSync(file) ? file : undefined;
}

/** A failure of the dashboard thread to start; `noBuild` when there is no production build. */
export class DashboardStartError extends Error {
  constructor(
    message: string,
    readonly noBuild: boolean,
  ) {
    super(message);
  }
}

/**
 * Starts Next in its own worker thread (see dashboard-thread.ts) and answers with a request
 * handler that forwards each page request to it over a private Unix socket, streaming both ways.
 */
export async function startDashboardThread(options: {
  file: string;
  hostname: string;
  port: number;
  usage: UsageSource;
}): Promise<Dashboard & { socketPath: string }> {
  const socketPath = path.join(os.tmpdir(), `innkeep-dashboard-${process.pid}-${Date.now().toString(36)}.sock`);
  const worker = new Worker(options.file, {
    workerData: { socketPath, hostname: options.hostname, port: options.port } satisfies DashboardThreadData,
    // Pages are a trickle beside the API: a small young generation keeps ~20 MB of idle RSS off
    // the process (measured: 215 → 193 MB after a first start) at the price of more scavenges here.
    resourceLimits: { maxYoungGenerationSizeMb: 12 },
  });
  let stopping = false;
  // The settings page's usage questions, answered from where the API counts.
  worker.on("message", (message: unknown) => {
    if (isUsageQuestion(message)) void answerUsage(message, options.usage).then((answer) => worker.postMessage(answer));
  });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (message: DashboardMessage) => {
      if (message.type === "ready") resolve();
      if (message.type === "failed") reject(new DashboardStartError(message.message, message.noBuild));
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the dashboard thread exited with code ${code} while starting`)));
  });
  worker.on("exit", (code) => {
    if (!stopping) log.fatal({ code }, "the dashboard thread stopped; pages answer 502 until the server restarts");
  });
  const proxy = proxyTo(socketPath);
  return {
    socketPath,
    handle: proxy.handle,
    async close() {
      stopping = true;
      const stopped = new Promise<void>((resolve) => {
        worker.on("message", (m: DashboardMessage) => m.type === "stopped" && resolve());
        worker.once("exit", () => resolve());
      });
      worker.postMessage({ type: "stop" });
      await Promise.race([stopped, new Promise((r) => setTimeout(r, 5_000))]);
      await proxy.close();
      await worker.terminate();
    },
  };
}

/**
 * Forwards page requests to the dashboard thread's socket, streaming both ways (cluster workers
 * use it directly: the one dashboard thread lives in the primary process).
 */
export function proxyTo(socketPath: string): Dashboard {
  // Keep-alive connections to the thread: one per concurrent page request, reused. An idle one is
  // dropped after 4 s, before Next's server closes it at 5 s: reusing a socket the other side is
  // closing answered a page with 502 (seen in the browser suite on PostgreSQL).
  const agent = new http.Agent({ keepAlive: true, maxFreeSockets: 16, timeout: 4_000 });

  const handle = (req: IncomingMessage, res: ServerResponse, retried = false) => {
    // Set when the browser closed its connection first: the upstream is then torn down on purpose.
    let clientGone = false;
    const upstream = http.request({ socketPath, agent, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders as unknown as http.OutgoingHttpHeaders);
      answer.pipe(res);
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      // A reused socket may still have been closed under us; a request without a body is sent again once.
      const bodiless = req.method === "GET" || req.method === "HEAD";
      if (!retried && bodiless && upstream.reusedSocket && error.code === "ECONNRESET" && !res.headersSent) {
        handle(req, res, true);
        return;
      }
      if (clientGone) {
        // Not a fault: the browser left (navigated away, closed the tab) before the page was answered.
        log.debug({ err: error, path: req.url }, "client closed the connection before the page was answered");
        return;
      }
      log.error({ err: error, path: req.url }, "dashboard thread unreachable");
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("Bad Gateway");
    });
    if (retried || req.method === "GET" || req.method === "HEAD") upstream.end();
    else req.pipe(upstream);
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
    });
  };

  return { handle: (req, res) => handle(req, res), close: async () => agent.destroy() };
}
