// What the benchmark's parts share, including the contract for scripts/bench/webhooks.ts.
import type postgres from "postgres";
import type { CpuUse } from "./cpu";
import type { Measurement, Target } from "./load";
import type { MixEntry } from "./open-loop";

export type ServerName = "Innkeep" | "bare";

/** One line of the results table. */
export type BenchRow = {
  route: string;
  server: ServerName | string;
  measurement?: Measurement;
  /** Innkeep req/s ÷ bare req/s, on the Innkeep line of a pair. */
  ratio?: number;
  /** Said instead of numbers when the row could not be measured. */
  failure?: string;
  /** Free-form cells for rows that are not request/response (webhook deliveries, say). */
  cells?: { rps?: string; p50?: string; p99?: string; ratio?: string };
};

/**
 * Handed to scripts/bench/webhooks.ts. That module exports
 *   `benchWebhooks(ctx: BenchContext): Promise<{ rows: BenchRow[]; notes?: string[] }>`
 * and may export `serverEnv: Record<string, string>`, added to the Innkeep server's environment.
 */
export type BenchContext = {
  /** The production Innkeep server, e.g. http://127.0.0.1:41234 (no trailing slash). */
  innkeepUrl: string;
  /** All scopes, live mode, limits that never 429. */
  apiKey: string;
  accountId: string;
  /** The bench's own database (dropped at the end) and a connection to it. */
  databaseUrl: string;
  sql: postgres.Sql;
  connections: number;
  seconds: number;
  log(line: string): void;
  /** Starts counting the CPU of the Innkeep server (and of PostgreSQL); the returned function reads it. */
  innkeepMeter?: () => () => CpuUse | undefined;
  /**
   * The mixed open loop, for a webhook line measured while it runs: the servers to take in turns
   * (Innkeep first, then bare), the mix and its rate, the measured seconds per server in `rounds`
   * turns; `prepare` warms a server that has not run the per-route lines and vacuums if due.
   */
  mixed?: { targets: Target[]; mix: MixEntry[]; rate: number; seconds: number; rounds: number; route: string; prepare(): Promise<void>; cpuShares(cpu: CpuUse): string };
};
