import path from "node:path";
import { openDatabase } from "@/db/client";
import { getConfig, isProduction, pgliteDir, type Config } from "@/server/config";
import { ControlUnreachable, callControl } from "@/server/process-plumbing/control";
import { acquireLock, embeddedLockRefusal, readLock, type LockInfo } from "@/server/process-plumbing/lock";
import { CommandError, UsageError } from "./command";
import { executeCommand, formatResult, parseCommand, type ParsedCommand } from "./index";

type Io = { out(text: string): void; err(text: string): void };
const processIo: Io = { out: (t) => process.stdout.write(`${t}\n`), err: (t) => process.stderr.write(`${t}\n`) };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `npm run innkeep -- <command>`: parses, carries the command out where it may run, prints. */
export async function runCli(argv: string[], io: Io = processIo): Promise<number> {
  let parsed;
  try {
    parsed = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    report(io, argv.includes("--json"), "usage", error.message, error.usage);
    return 2;
  }
  if ("help" in parsed) {
    io.out(parsed.help);
    return 0;
  }
  try {
    const result = await carryOut(parsed, argv, getConfig(), io);
    io.out(formatResult(parsed, result));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      report(io, parsed.json, "usage", error.message, error.usage);
      return 2;
    }
    report(io, parsed.json, error instanceof CommandError ? "command" : "internal", (error as Error).message);
    return 1;
  }
}

function report(io: Io, json: boolean, kind: string, message: string, usage?: string) {
  if (json) io.err(JSON.stringify({ error: { kind, message } }));
  else io.err(usage ? `${message}\n\n${usage}` : message);
}

async function carryOut(parsed: ParsedCommand, argv: string[], config: Config, io: Io): Promise<object> {
  const ctx = { production: isProduction(config), adminPassword: config.ADMIN_PASSWORD };
  // `db migrate` migrates itself, so that it can say what it applied.
  const migrate = parsed.spec.name !== "db migrate";
  if (config.DATABASE_URL) {
    // A database server takes any number of clients: connect directly.
    const database = await openDatabase({ url: config.DATABASE_URL, max: 1, migrate });
    try {
      return await executeCommand({ ...ctx, database }, parsed);
    } finally {
      await database.close();
    }
  }

  // The embedded database: only one process may open its folder (contract §0).
  const dataDir = path.resolve(config.DATA_DIR);
  // A starting server holds the lock before its control socket is up; another command holds it briefly.
  const deadline = Date.now() + config.INNKEEP_CLI_WAIT_SECONDS * 1000;
  let lastHolder: LockInfo | null = null;
  let lastProblem = "";
  for (;;) {
    const holder = readLock(dataDir);
    if (!holder) {
      const lock = await acquireLock(dataDir, { role: "cli", socket: null }, 0);
      if (lock.acquired) {
        try {
          const database = await openDatabase({ dataDir: pgliteDir(config), migrate });
          try {
            return await executeCommand({ ...ctx, database }, parsed);
          } finally {
            await database.close();
          }
        } finally {
          lock.release();
        }
      }
      continue; // Someone took it between our look and our try: look again.
    }
    lastHolder = holder;
    if (holder.role === "server" && holder.socket) {
      try {
        const pong = await callControl(holder.socket, { type: "ping" }, 2_000);
        if (pong.ok) return await throughServer(holder, argv, parsed, config, io);
      } catch (error) {
        if (!(error instanceof ControlUnreachable)) throw error;
        lastProblem = error.message;
      }
    }
    if (Date.now() >= deadline) break;
    await sleep(250);
  }
  throw new CommandError(refusal(dataDir, lastHolder, lastProblem));
}

async function throughServer(holder: LockInfo, argv: string[], parsed: ParsedCommand, config: Config, io: Io): Promise<object> {
  if (!parsed.json) io.err(`(carried out by the running Innkeep server, pid ${holder.pid}, which holds the embedded database)`);
  const response = await callControl(holder.socket!, { type: "run", argv, adminPassword: config.ADMIN_PASSWORD }, 120_000).catch((error) => {
    throw new CommandError(`The running server (pid ${holder.pid}) stopped answering: ${(error as Error).message}. The command may or may not have been carried out.`);
  });
  if (response.ok) return response.result ?? {};
  if (response.error.kind === "usage") throw new UsageError(response.error.message, response.error.usage);
  if (response.error.kind === "command") throw new CommandError(response.error.message);
  throw new Error(`The server could not carry out the command: ${response.error.message}`);
}

function refusal(dataDir: string, holder: LockInfo | null, problem: string): string {
  if (!holder) return `Could not take the embedded database in ${dataDir}: other processes kept taking it.`;
  const why =
    holder.role !== "server"
      ? "it did not finish in time"
      : holder.socket
        ? `its control socket ${holder.socket} does not answer (${problem || "no answer"})`
        : "it has not opened its control socket yet";
  return embeddedLockRefusal(dataDir, holder, why);
}
