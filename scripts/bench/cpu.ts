// Where the CPU went during a measurement (Linux /proc; elsewhere nothing is reported): the
// server under test (its whole process group), PostgreSQL (every `postgres` process on the machine)
// and this process (autocannon). On two cores that split explains most of a ratio.
import { readFileSync, readdirSync } from "node:fs";

const ticksPerSecond = 100; // USER_HZ on Linux.

type Stat = { pid: number; comm: string; pgrp: number; ticks: number };

function readStat(pid: string): Stat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name is in parentheses and may hold spaces: split after the last ')'.
    const close = text.lastIndexOf(")");
    const comm = text.slice(text.indexOf("(") + 1, close);
    const fields = text.slice(close + 2).split(" ");
    // After the name: state(0) ppid(1) pgrp(2) … utime(11) stime(12).
    return { pid: Number(pid), comm, pgrp: Number(fields[2]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

function snapshot(): Stat[] {
  try {
    return readdirSync("/proc").filter((d) => /^\d+$/.test(d)).map(readStat).filter((s): s is Stat => !!s);
  } catch {
    return [];
  }
}

/**
 * CPU seconds each party used over `wall` seconds. `primary`, for a cluster, is its primary
 * process (with the dashboard's thread), the part of `server` that is not its workers.
 */
export type CpuUse = { wall: number; server: number; primary?: number; postgres: number; loadGenerator: number; machine?: number };

export const addCpu = (a: CpuUse | undefined, b: CpuUse | undefined): CpuUse | undefined =>
  a && b
    ? {
        wall: a.wall + b.wall,
        server: a.server + b.server,
        postgres: a.postgres + b.postgres,
        loadGenerator: a.loadGenerator + b.loadGenerator,
        ...(a.primary !== undefined && b.primary !== undefined ? { primary: a.primary + b.primary } : {}),
        ...(a.machine !== undefined && b.machine !== undefined ? { machine: a.machine + b.machine } : {}),
      }
    : (a ?? b);

/**
 * CPU seconds the whole machine spent busy (every core, every process, the kernel's own work),
 * from /proc/stat: whether the cores had any left, which the parties above do not say.
 */
function machineBusy(): number | undefined {
  try {
    const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n", 1)[0].trim().split(/\s+/).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const [user, nice, system, , , irq, softirq, steal] = ticks;
    return (user + nice + system + irq + softirq + steal) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/**
 * Starts counting; the returned function reads the CPU seconds used since then. With `cluster`,
 * the group's leader is a cluster's primary and is also counted apart.
 */
export function cpuMeter(serverGroup: number | undefined, { cluster = false } = {}): () => CpuUse | undefined {
  const started = performance.now();
  const before = snapshot();
  if (!before.length) return () => undefined;
  const base = new Map(before.map((s) => [s.pid, s.ticks]));
  const busyBefore = machineBusy();
  const sum = (stats: Stat[], keep: (s: Stat) => boolean) => stats.filter(keep).reduce((total, s) => total + s.ticks - (base.get(s.pid) ?? 0), 0) / ticksPerSecond;
  return () => {
    const after = snapshot();
    return {
      wall: (performance.now() - started) / 1000,
      server: sum(after, (s) => serverGroup !== undefined && s.pgrp === serverGroup),
      ...(cluster ? { primary: sum(after, (s) => s.pid === serverGroup) } : {}),
      postgres: sum(after, (s) => s.comm === "postgres"),
      loadGenerator: sum(after, (s) => s.pid === process.pid),
      ...(busyBefore === undefined ? {} : { machine: machineBusy()! - busyBefore }),
    };
  };
}
