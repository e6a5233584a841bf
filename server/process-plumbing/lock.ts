import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Who holds the embedded database folder. Two processes on one PGlite folder corrupt it, so
 * whoever opens it (the server, or the CLI when no server runs) first holds DATA_DIR/innkeep.lock.
 */
export type LockInfo = {
  pid: number;
  role: "server" | "cli" | "process";
  /** The server's control socket, where the CLI sends its commands; null for other holders. */
  socket: string | null;
  started_at: string;
};

export type Acquired = { acquired: true; release(): void; update(patch: Partial<LockInfo>): void };
export type Refused = { acquired: false; holder: LockInfo };

export const lockPath = (dataDir: string) => path.join(dataDir, "innkeep.lock");

/** Whether a process with this id exists (EPERM: it exists but belongs to someone else). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

function parseInfo(text: string): LockInfo | null {
  try {
    const info = JSON.parse(text) as LockInfo;
    return Number.isInteger(info.pid) && info.pid > 0 ? info : null;
  } catch {
    return null;
  }
}

/** The current holder, if the lock file names a live process. */
export function readLock(dataDir: string): LockInfo | null {
  const text = readText(lockPath(dataDir));
  const info = text === null ? null : parseInfo(text);
  return info && isAlive(info.pid) ? info : null;
}

/**
 * Moves a stale lock (its process is gone) aside. Only the file that was read as stale is
 * removed: if another process replaced it meanwhile, its fresh lock is put back.
 */
function removeStale(file: string, staleText: string): void {
  const aside = `${file}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  if (readText(aside) !== staleText) {
    try {
      linkSync(aside, file);
    } catch {
      // Someone holds the lock again already; theirs stands.
    }
  }
  unlinkSync(aside);
}

/**
 * Takes the lock if it is free or stale. The file is written completely under a temporary name
 * and then hard-linked into place, which fails if the lock exists: no reader sees half a file,
 * and of two processes racing exactly one wins.
 */
export function tryAcquireLock(dataDir: string, info: Omit<LockInfo, "pid" | "started_at">): Acquired | Refused {
  mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  let mine: LockInfo = { pid: process.pid, started_at: new Date().toISOString(), ...info };
  const write = (target: string) => writeFileSync(target, JSON.stringify(mine), { mode: 0o600 });

  for (let attempt = 0; attempt < 5; attempt++) {
    const temp = `${file}.${process.pid}.tmp`;
    write(temp);
    try {
      linkSync(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const text = readText(file);
      if (text === null) continue; // Released meanwhile: try again.
      const holder = parseInfo(text);
      // Already ours (the server took it before opening the database): nothing more to hold.
      if (holder && holder.pid === process.pid) return { acquired: true, release() {}, update() {} };
      if (holder && isAlive(holder.pid)) return { acquired: false, holder };
      removeStale(file, text);
      continue;
    } finally {
      unlinkSync(temp);
    }
    return handle();
  }
  throw new Error(`Could not take ${file}: other processes keep replacing it.`);

  function handle(): Acquired {
    const release = () => {
      const current = readText(file);
      if (current !== null && parseInfo(current)?.pid === process.pid) unlinkSync(file);
      process.off("exit", release);
    };
    process.on("exit", release);
    return {
      acquired: true,
      release,
      update(patch) {
        mine = { ...mine, ...patch };
        const temp = `${file}.${process.pid}.tmp`;
        write(temp);
        renameSync(temp, file);
      },
    };
  }
}

/** Tries for a while: a CLI command holding the lock finishes within seconds. */
export async function acquireLock(dataDir: string, info: Omit<LockInfo, "pid" | "started_at">, waitMs: number): Promise<Acquired | Refused> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const result = tryAcquireLock(dataDir, info);
    if (result.acquired || result.holder.role === "server" || Date.now() >= deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const roles: Record<LockInfo["role"], string> = {
  server: "an Innkeep server",
  cli: "an innkeep CLI command",
  process: "a process that opened the database",
};

/** Why a process may not open the embedded database, and what to do about it. */
export function embeddedLockRefusal(dataDir: string, holder: LockInfo, why = "it is using it"): string {
  const folder = path.join(path.resolve(dataDir), "pglite");
  return [
    `The embedded database in ${folder} is held by process ${holder.pid} (${roles[holder.role]}, since ${holder.started_at}), and ${why}.`,
    `Opening it from a second process would corrupt it, so nothing was done.`,
    `Retry once that process is ready or has stopped. If it is not an Innkeep process, remove ${lockPath(path.resolve(dataDir))}.`,
  ].join("\n");
}
