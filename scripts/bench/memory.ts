// Resident memory of a server under test: its whole process group (a cluster's primary and
// workers, and any thread inside them, count once per process), read from Linux /proc.
import { readFileSync, readdirSync } from "node:fs";

/** RSS in MB of every process in the group, or undefined where /proc cannot tell. */
export function groupRssMb(group: number): number | undefined {
  let kb = 0;
  let seen = false;
  try {
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) !== group) continue;
        const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (rss) {
          kb += Number(rss[1]);
          seen = true;
        }
      } catch {
        // The process ended between the listing and the read.
      }
    }
  } catch {
    return undefined;
  }
  return seen ? kb / 1024 : undefined;
}

/** Samples the group's RSS every `everyMs` until stopped; answers the peak. */
export function peakRss(group: number, everyMs = 250): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const mb = groupRssMb(group);
    if (mb !== undefined) peak = Math.max(peak ?? 0, mb);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
