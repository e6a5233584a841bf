import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockPath, readLock, tryAcquireLock } from "@/server/process-plumbing/lock";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "innkeep-lock-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const holdBy = (pid: number) => writeFileSync(lockPath(dir), JSON.stringify({ pid, role: "server", socket: null, started_at: "2026-01-01T00:00:00Z" }));

describe("the embedded database's lock", () => {
  it("is taken, recorded, updated and released", () => {
    const lock = tryAcquireLock(dir, { role: "server", socket: null });
    expect(lock.acquired).toBe(true);
    if (!lock.acquired) return;
    expect(readLock(dir)).toMatchObject({ pid: process.pid, role: "server", socket: null });
    lock.update({ socket: "/tmp/x.sock" });
    expect(readLock(dir)?.socket).toBe("/tmp/x.sock");
    // The same process asking again (getDatabase after the server took it) holds it already.
    const again = tryAcquireLock(dir, { role: "process", socket: null });
    expect(again.acquired).toBe(true);
    if (again.acquired) again.release();
    expect(readLock(dir)?.role).toBe("server");
    lock.release();
    expect(readLock(dir)).toBeNull();
  });

  it("is refused while a live process holds it", () => {
    holdBy(1); // init: always alive
    const lock = tryAcquireLock(dir, { role: "cli", socket: null });
    expect(lock).toMatchObject({ acquired: false, holder: { pid: 1, role: "server" } });
    expect(JSON.parse(readFileSync(lockPath(dir), "utf8")).pid).toBe(1);
  });

  it("is taken over from a process that died", () => {
    holdBy(2 ** 22 - 3);
    expect(readLock(dir)).toBeNull();
    const lock = tryAcquireLock(dir, { role: "cli", socket: null });
    expect(lock.acquired).toBe(true);
    expect(readLock(dir)?.pid).toBe(process.pid);
    if (lock.acquired) lock.release();
  });

  it("is not released by a process that does not hold it", () => {
    const lock = tryAcquireLock(dir, { role: "cli", socket: null });
    holdBy(1); // Someone else's lock replaced ours (it never should; release must not remove theirs).
    if (lock.acquired) lock.release();
    expect(JSON.parse(readFileSync(lockPath(dir), "utf8")).pid).toBe(1);
  });
});
