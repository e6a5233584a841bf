// Child processes of the benchmark: started in their own process group so that stopping one
// also stops what it started (tsx runs the script in a second node process), and all of them
// are stopped however the run ends (done, error, Ctrl-C).
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

export type Child = {
  name: string;
  process: ChildProcess;
  /** The last lines it printed (stdout and stderr), for error messages. */
  output(): string;
  exited: Promise<number | null>;
  /** After exit, once its output streams have closed too. */
  closed: Promise<number | null>;
  stop(): Promise<void>;
};

const running = new Set<Child>();

export function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(command, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  proc.stdout!.on("data", keep);
  proc.stderr!.on("data", keep);
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
  const closed = new Promise<number | null>((resolve) => proc.once("close", (code) => resolve(code)));
  const child: Child = {
    name,
    process: proc,
    output: () => lines.join("\n"),
    exited,
    closed,
    async stop() {
      running.delete(child);
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      signalGroup(proc, "SIGTERM");
      const timer = setTimeout(() => signalGroup(proc, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
      signalGroup(proc, "SIGKILL"); // Anything of the group still alive (a grandchild) goes too.
    },
  };
  running.add(child);
  return child;
}

function signalGroup(proc: ChildProcess, signal: NodeJS.Signals) {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // Already gone.
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop()));
}

/** For the `exit` event, where nothing asynchronous runs any more. */
export function killAllNow(): void {
  for (const c of running) signalGroup(c.process, "SIGKILL");
  running.clear();
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** Polls `url` (every `everyMs`) until it answers 200; fails at once if the child exits, or after `timeoutMs`. */
export async function waitReady(child: Child, url: string, timeoutMs: number, everyMs = 150): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => (exited = true));
  let last = "no answer";
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child.name} exited before it was ready (status ${child.process.exitCode}). Its output:\n${child.output()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${child.name} was not ready at ${url} within ${timeoutMs / 1000} s (${last}). Its output:\n${child.output()}`);
}

/** Runs a command to completion; resolves with its standard output, rejects on a non-zero status. */
export function runToEnd(command: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  const child = startChild(command, command, args, env);
  let stdout = "";
  child.process.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  const timer = setTimeout(() => void child.stop(), timeoutMs);
  return child.closed.then((code) => {
    clearTimeout(timer);
    running.delete(child);
    if (code !== 0) throw new Error(`\`${command} ${args.join(" ")}\` failed (status ${code}):\n${child.output()}`);
    return stdout;
  });
}
