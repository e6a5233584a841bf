import { spawn, type ChildProcess } from "node:child_process";

export type Server = { port: number; lines: () => Record<string, unknown>[]; stop(): Promise<void> };

/** The production entry (API only), as a child process on the test database. */
export async function startServer(env: Record<string, string>): Promise<Server> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", INNKEEP_API_ONLY: "1", PORT: "0", HOST: "127.0.0.1", WEBHOOK_DISPATCHER: "0", ...env };
  for (const name of ["VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID", "DATA_DIR"]) delete childEnv[name];
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], { cwd: process.cwd(), env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.includes('"msg":"listening"'));
      if (line) resolve(JSON.parse(line).port);
    });
    child.stderr!.on("data", (d) => (out += d));
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const lines = () =>
    out
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { port, lines, stop: () => (child.kill("SIGTERM"), exited) };
}
