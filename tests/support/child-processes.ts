// Child servers of the test run (PostgreSQL, Redis, stripe-mock, and the app scripts that crash on
// purpose): a free port, the wait for one to answer, its start and its stop.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** Asks `answers` every 100 ms until it says yes (true), or the child fails, exits, or `ms` pass (false). */
export async function cameUp(child: ChildProcess, answers: () => Promise<boolean>, ms: number): Promise<boolean> {
  let failed = false;
  child.once("error", () => void (failed = true));
  for (const deadline = Date.now() + ms; !failed && child.exitCode === null && Date.now() <= deadline;) {
    if (await answers()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Sends a running child server `signal` and waits for it to exit. */
export async function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  await exited;
}

/** A port free on 127.0.0.1 at this moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts a test script that serves the real /v1 app on `databaseUrl` and prints its port on its
 * first line (tests/support/crash-before-commit.ts, crash-after-charge.ts): the port once it
 * listens, or the script's stderr if it exits before.
 */
export function startAppScript(script: string, databaseUrl: string): Promise<{ port: number; process: ChildProcess }> {
  const proc = spawn(process.execPath, ["--import", "tsx", script], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  proc.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve, reject) => {
    proc.stdout!.once("data", (c: Buffer) => resolve({ port: Number(c.toString().trim()), process: proc }));
    proc.once("exit", (code) => reject(new Error(`the child exited (${code}) before listening: ${stderr}`)));
  });
}
