// `npm run bench`: the production server beside a bare node:http + postgres.js server doing the
// same SQL, on a fresh PostgreSQL database, measured with autocannon in one run. Prints a Markdown
// table and writes it to bench-results/latest.md (`npm run bench -- --write-docs`: also to
// docs/benchmarks.md). Environment:
//   BENCH_DATABASE_URL    a server where it may create and drop a database (default: local postgres)
//   BENCH_CONNECTIONS     32;  BENCH_SECONDS: 10 per server and route;  BENCH_WARMUP_SECONDS: 2
//   BENCH_ONLY            e.g. "reservations,revenue": only the lines containing one of them (BENCH_LINES: the same)
//   BENCH_QUICK=1         a quick pass: 4 s per server and route, 1 s warm-up, shorter report lines
//   BENCH_KEEP_DB=1       keep the database afterwards (its URL is printed)
//   BENCH_DB_SETTINGS     e.g. "jit=off": ALTER DATABASE … SET before the servers start (said in the notes)
//   BENCH_PROFILE=1       both servers run with --cpu-prof; profiles in bench-results/profiles
//   BENCH_BARE_PREPARE=0  the bare server sends unprepared statements, as drizzle does
//   BENCH_API_ONLY=1      Innkeep without Next in the process, to see what Next costs the API
//   BENCH_WEB_CONCURRENCY Innkeep's worker processes for the per-route lines (default 1, like the bare server)
//   BENCH_MIXED_WORKERS   the mixed line's second Innkeep run (default: one worker per core; 0 or 1: none)
//   BENCH_MIXED_RATE      arrival rate of the mixed open-loop line and of the webhooks under it
//                         (default: the highest rate the bare server holds, searched for first)
//   BENCH_RAMP=0          no ramp before the mixed line (the highest rate each server holds, in
//                         turns, searched from BENCH_RAMP_FROM req/s, default 50, doubling while
//                         held, then halving the gap down to BENCH_RAMP_STEP, default 25;
//                         BENCH_RAMP_SECONDS each, default 5)
//   BENCH_TRACE           a file: each measured mixed run appends one JSON line, {server, timeline:
//                         [[ms from start to scheduled departure, latency ms, kind], …]}, to see
//                         whether the tail is a few stalls or spread evenly
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { freePort, killAllNow, runToEnd, startChild, stopAll, waitReady, type Child } from "./children";
import { addCpu, cpuMeter, type CpuUse } from "./cpu";
import { groupRssMb, peakRss } from "./memory";
import { createBenchDatabase, type BenchDatabase } from "./database";
import { addReportHistory, apiClient, createAccount, createBookingHotel, seedReportHotel } from "./fixtures";
import { combineRuns, measuredStretch, openLoop, rampInTurns, type MixEntry, type OpenLoopResult, type RampStep } from "./open-loop";
import { check, loadRound, sequentialRound, summarize, warmUp, type Measurement, type Round, type Target } from "./load";
import { scenarios, type Scenario } from "./scenarios";
import { anomalies, integer, renderTable } from "./table";
import type { BenchContext, BenchRow } from "./types";

const root = path.resolve(import.meta.dirname, "../..");
const tsx = path.join(root, "node_modules/.bin/tsx");
/** What `npm start` runs; compiled at the start of every run so that it is the code under test. */
const serverBundle = path.join(root, "dist/server.mjs");
const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const quick = process.env.BENCH_QUICK === "1";
const options = {
  connections: number("BENCH_CONNECTIONS", 32),
  seconds: number("BENCH_SECONDS", quick ? 4 : 10),
  warmupSeconds: number("BENCH_WARMUP_SECONDS", quick ? 1 : 2),
  /**
   * Each server's time is split into rounds taken in turns (Innkeep, bare, Innkeep, bare), so
   * that a burst of other work on the machine does not land on one side only.
   */
  rounds: 2,
  /** The revenue report: this many requests one at a time (in turns, blocks of 10), then a short load on few connections. */
  heavyRequests: quick ? 20 : 50,
  heavyConnections: 4,
  heavySeconds: quick ? 2 : 5,
};
const dbSettings = (process.env.BENCH_DB_SETTINGS ?? "").split(/\s+/).filter(Boolean).map((kv) => {
  const [name, value] = kv.split("=");
  if (!/^[a-z_.]+$/.test(name ?? "") || value === undefined) throw new Error(`BENCH_DB_SETTINGS: expected name=value pairs, not '${kv}'`);
  return { name, value };
});
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const keepDb = process.env.BENCH_KEEP_DB === "1";
const barePrepared = process.env.BENCH_BARE_PREPARE !== "0";
const only = (process.env.BENCH_ONLY ?? process.env.BENCH_LINES)?.split(",").map((s) => s.trim()).filter(Boolean);
const profileDir = process.env.BENCH_PROFILE === "1" ? path.join(root, "bench-results/profiles") : undefined;
const writeDocs = process.argv.includes("--write-docs");

const started = performance.now();
const log = (line: string) => process.stderr.write(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

let database: BenchDatabase | undefined;
let sql: postgres.Sql | undefined;

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  return (cleaning ??= (async () => {
    await stopAll();
    if (profileDir) log(`CPU profiles of both servers (open in Chrome DevTools): ${profileDir}/innkeep, ${profileDir}/bare`);
    await sql?.end({ timeout: 2 }).catch(() => {});
    if (database && !keepDb) {
      await database.drop().then(
        () => log(`dropped database ${database!.name}`),
        (error) => log(`could not drop database ${database!.name}: ${(error as Error).message}`),
      );
    } else if (database) {
      log(`kept database (BENCH_KEEP_DB=1): ${database.url}`);
    }
  })());
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (cleaning) process.exit(130);
    log(`${signal}: stopping the servers and dropping the database`);
    void cleanup().finally(() => process.exit(130));
  });
}
// Last resort (an exit nobody awaited): at least no server outlives the run.
process.on("exit", killAllNow);

/** The webhooks helper's module, if it exists yet (see BenchContext in ./types.ts). */
type WebhooksModule = {
  benchWebhooks?: (ctx: BenchContext) => Promise<{ rows: BenchRow[]; notes?: string[] } | BenchRow[]>;
  default?: unknown;
  serverEnv?: Record<string, string>;
};
async function loadWebhooksModule(): Promise<WebhooksModule | undefined> {
  const file = path.join(import.meta.dirname, "webhooks.ts");
  if (!existsSync(file)) return undefined;
  return (await import(file)) as WebhooksModule;
}

/** A started Innkeep server; `startMs`: from spawning `node dist/server.mjs` to its first 200 on /readyz. */
type Innkeep = { child: Child; url: string; mode: string; startMs: number };
const webConcurrency = number("BENCH_WEB_CONCURRENCY", 1);
const mixedWorkers = number("BENCH_MIXED_WORKERS", os.availableParallelism());
const workerLabel = (n: number) => `Innkeep, ${n} worker${n === 1 ? "" : "s"}`;

async function startInnkeep(databaseUrl: string, extraEnv: Record<string, string>, notes: string[], workers = webConcurrency): Promise<Innkeep> {
  let apiOnly = false;
  if (process.env.BENCH_API_ONLY === "1") {
    apiOnly = true;
    notes.push("⚠ **Innkeep ran API-only (INNKEEP_API_ONLY=1) because BENCH_API_ONLY=1**: Next was not in the process.");
  }
  const buildId = path.join(root, ".next/BUILD_ID");
  if (!apiOnly && !existsSync(buildId) && nextBuildRunning()) {
    // Two builds in one .next folder spoil each other: wait for the one under way.
    log("no .next/BUILD_ID, and a `next build` is running: waiting for it (up to 3 min)");
    const deadline = Date.now() + 180_000;
    while (nextBuildRunning() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 1_000));
  }
  if (!apiOnly && !existsSync(buildId)) {
    log("no production build of the dashboard (.next/BUILD_ID): running `npx next build`");
    try {
      await runToEnd("npx", ["next", "build"], { ...process.env, NODE_ENV: "production" }, 300_000);
    } catch (error) {
      apiOnly = true;
      notes.push(`⚠ **Innkeep ran API-only (INNKEEP_API_ONLY=1)**: \`next build\` failed, so Next was not in the process: ${errorLines((error as Error).message)}`);
    }
  }
  const attempt = async (apiOnlyNow: boolean) => {
    const port = await freePort();
    const env = {
      ...process.env,
      ...extraEnv,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      // Production refuses to start without it; a throwaway one for a throwaway database.
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      WEBHOOK_SECRET_KEYS: `bench:${randomBytes(32).toString("base64")}`,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      INNKEEP_API_ONLY: apiOnlyNow ? "1" : "0",
      // One worker beside the one-process bare server, like for like (BENCH_WEB_CONCURRENCY to change).
      WEB_CONCURRENCY: String(workers),
    } as NodeJS.ProcessEnv;
    // Profiling needs node's own flag (NODE_OPTIONS refuses --cpu-prof).
    const profile = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}/innkeep`] : [];
    const spawned = performance.now();
    const child = startChild("Innkeep server", process.execPath, [...profile, serverBundle], env);
    const url = `http://127.0.0.1:${port}`;
    await waitReady(child, `${url}/readyz`, 90_000, 10);
    return { child, url, startMs: performance.now() - spawned };
  };
  if (!apiOnly) {
    try {
      const { child, url, startMs } = await attempt(false);
      const page = await fetch(`${url}/signin`, { redirect: "manual" }).then((r) => r.status, (e: Error) => e.message);
      return { child, url, startMs, mode: `production, Next in the process (GET /signin answered ${page})` };
    } catch (error) {
      await stopAll();
      notes.push(`⚠ **Innkeep ran API-only (INNKEEP_API_ONLY=1)**: the production server with Next did not start. ${firstLines((error as Error).message)}`);
    }
  }
  const { child, url, startMs } = await attempt(true);
  return { child, url, startMs, mode: "production, API only (INNKEEP_API_ONLY=1, see above)" };
}

/** Whether some process on the machine is a `next build`. */
function nextBuildRunning(): boolean {
  try {
    return readdirSync("/proc").some((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
        return argv.some((a) => /(^|\/)next$/.test(a) || a.endsWith("next/dist/bin/next")) && argv.includes("build");
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The lines of a build log that say what went wrong. */
const errorLines = (text: string) => {
  const lines = text.split("\n").filter((l) => /error|failed|⨯|✗|cannot|not found/i.test(l) && !/npm warn/i.test(l));
  return (lines.length ? lines : text.split("\n").slice(-6)).slice(0, 6).map((l) => l.trim()).join(" / ").slice(0, 700);
};

const firstLines = (text: string) => text.split("\n").filter(Boolean).slice(0, 6).join(" / ").slice(0, 600);

async function startBare(databaseUrl: string, accountId: string): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const script = "scripts/bench/bare-server.ts";
  const child = startChild("bare server", profileDir ? process.execPath : tsx, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}/bare`, "--import", "tsx", script] : [script], {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: "127.0.0.1",
    BENCH_ACCOUNT_ID: accountId,
    BARE_PREPARE: barePrepared ? "1" : "0",
  });
  const url = `http://127.0.0.1:${port}`;
  await waitReady(child, `${url}/readyz`, 60_000);
  return { child, url };
}

const say = (m: Measurement) =>
  `${m.rps.toFixed(m.rps < 100 ? 1 : 0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms${m.non2xx || m.errors ? `, ${m.non2xx} non-2xx, ${m.errors} errors` : ""}`;

/** Runs `round` for each server in turns, `times` times; one measurement per server. */
async function inTurns(targets: Target[], times: number, round: (t: Target) => Promise<Round>, kind: Measurement["kind"], connections: number) {
  const rounds = new Map<string, Round[]>(targets.map((t) => [t.name, []]));
  for (let i = 0; i < times; i++) for (const t of targets) rounds.get(t.name)!.push(await round(t));
  return new Map(targets.map((t) => [t.name, summarize(rounds.get(t.name)!, kind, connections)]));
}

/** Lines whose two servers disagreed on an answer that must be the same (Scenario.sameAnswer). */
const mismatches: string[] = [];

/** Measures one scenario on both servers; a route that does not answer as expected becomes a failed row. */
async function measureScenario(scenario: Scenario, targets: Target[]): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const working: Target[] = [];
  const answers = new Map<string, string>();
  for (const target of targets) {
    try {
      const body = await check(target, scenario.request, scenario.status);
      if (scenario.sameAnswer) answers.set(target.name, JSON.stringify(scenario.sameAnswer(body as Record<string, unknown>)));
      working.push(target);
    } catch (error) {
      log(`✗ ${scenario.route}: ${(error as Error).message}`);
      rows.push({ route: scenario.route, server: target.name, failure: firstLines((error as Error).message).slice(0, 300) });
    }
  }
  if (new Set(answers.values()).size > 1) {
    const [[a, first], [b, second]] = [...answers];
    log(`✗ ${scenario.route}: ${a} and ${b} answered differently`);
    mismatches.push(`⚠ ${scenario.route}: ${a} and ${b} gave different answers (${first.slice(0, 160)}… against ${second.slice(0, 160)}…): the bare server no longer does the same work.`);
  }
  const stages: { label: string; measure: () => Promise<Map<string, Measurement>> }[] =
    scenario.mode === "load"
      ? [
          {
            label: scenario.route,
            measure: async () => {
              for (const t of working) await warmUp(t, scenario.request, options.connections, options.warmupSeconds);
              const each = options.seconds / options.rounds;
              return inTurns(working, options.rounds, (t) => loadRound(t, scenario.request, options.connections, each), "load", options.connections);
            },
          },
        ]
      : [
          {
            label: `${scenario.route}, ${options.heavyRequests} sequential`,
            measure: async () => {
              for (const t of working) await sequentialRound(t, scenario.request, 3);
              return inTurns(working, options.heavyRequests / 10, (t) => sequentialRound(t, scenario.request, 10), "sequential", 1);
            },
          },
          {
            label: `${scenario.route}, ${options.heavyConnections} connections`,
            measure: async () => {
              for (const t of working) await warmUp(t, scenario.request, options.heavyConnections, 1);
              const each = options.heavySeconds / options.rounds;
              return inTurns(working, options.rounds, (t) => loadRound(t, scenario.request, options.heavyConnections, each), "load", options.heavyConnections);
            },
          },
        ];
  if (!working.length) return rows;
  for (const stage of stages) {
    log(`${stage.label}: ${working.map((t) => t.name).join(" and ")}, in turns…`);
    const measured = await stage.measure();
    for (const [name, m] of measured) log(`  ${name.padEnd(7)} ${say(m)}`);
    const innkeep = measured.get("Innkeep");
    const bare = measured.get("bare");
    if (innkeep) rows.push({ route: stage.label, server: "Innkeep", measurement: innkeep, ratio: bare ? innkeep.rps / bare.rps : undefined });
    if (bare) rows.push({ route: stage.label, server: "bare", measurement: bare });
  }
  return rows;
}

/** The mixed line's rate: BENCH_MIXED_RATE, else the highest the bare server holds (found by the ramp, or a search of bare alone). */
let mixedRate: number | undefined = process.env.BENCH_MIXED_RATE ? Number(process.env.BENCH_MIXED_RATE) : undefined;
/** Stays in the report hotel for the long-history revenue line. */
const historyStays = number("BENCH_HISTORY_STAYS", 200_000);
const mixDescription = "60 % availability and reservation reads, 25 % bookings, 10 % guest writes, 5 % revenue reports";
const mixedRoute = (rate: number) => `mixed open loop, ${rate} req/s${process.env.BENCH_MIXED_RATE ? "" : ", the highest rate bare held"} (${mixDescription})`;

/** The Scale plan's burst: 60 % reads, 25 % bookings, 10 % guest writes, 5 % reports. */
function scaleMix(all: Scenario[]): MixEntry[] {
  const find = (prefix: string) => all.find((s) => s.route.startsWith(prefix))!.request;
  return [
    { name: "availability", weight: 30, request: find("GET /v1/availability") },
    { name: "reservations", weight: 30, request: find("GET /v1/reservations") },
    { name: "booking", weight: 25, request: find("POST /v1/reservations") },
    { name: "guest", weight: 10, request: find("POST /v1/guests") },
    { name: "report", weight: 5, request: find("GET /v1/reports/revenue") },
  ];
}

/**
 * What autovacuum would have done by now, where the PostgreSQL server runs without it (these
 * machines' CI configuration sets `autovacuum = off`; PostgreSQL's default, and any production
 * server's, is on). Bookings update the same night rows and per-day sales rows again and again,
 * and the dispatcher its one cursor row; left unvacuumed, those dead rows make every later read
 * and update of them slower, so minutes into a run PostgreSQL spent half again as much CPU on the
 * same mixed load. Run between measurements, at most once a minute (autovacuum's own nap), and
 * only when the server's autovacuum is off; BENCH_VACUUM=0 never.
 */
async function vacuumIfDue(sql: postgres.Sql, when: string): Promise<void> {
  if (!standInForAutovacuum || performance.now() - lastVacuum < 60_000) return;
  const dead = await sql<{ relname: string; dead: number }[]>`select relname, n_dead_tup::int as dead from pg_stat_user_tables where n_dead_tup > 0 order by n_dead_tup desc limit 3`;
  const started = performance.now();
  await sql`vacuum (analyze)`;
  lastVacuum = performance.now();
  const said = `${when}: ${dead.length ? dead.map((d) => `${d.relname} ${integer(d.dead)}`).join(", ") : "none"} dead rows; vacuumed in ${Math.round(lastVacuum - started)} ms`;
  vacuums.push(said);
  log(`VACUUM (ANALYZE), as autovacuum would: ${said}`);
}
let lastVacuum = -Infinity;
/** Whether the bench vacuums: set from the server's settings once they are read (main). */
let standInForAutovacuum = false;
const vacuums: string[] = [];

/** A server in the mixed line's turns; `fresh`: it has not run the per-route lines. */
type MixedServer = { target: Target; fresh: boolean };

/**
 * The Scale plan's burst as a fixed arrival rate: p50, p99, p99.9 and errors of each server,
 * the servers taken in turns (rounds of equal length, each after a second of lead-in at the
 * rate), so that the machine's slower minutes and the database's growth meet them all alike.
 */
async function measureMixed(all: Scenario[], servers: MixedServer[], rate: number): Promise<BenchRow[]> {
  const mix = scaleMix(all);
  const route = mixedRoute(rate);
  const each = options.seconds / options.rounds;
  log(`${route}: ${servers.map((s) => s.target.name).join(", ")}: ${options.warmupSeconds} s warm-up each, then ${options.rounds} rounds of ${each} s in turns…`);
  // A process that has not run the per-route lines (the cluster, or every server of a
  // mixed-only run) gets their warm-up first, each kind of request in closed loop: otherwise it
  // meets the open loop still compiling its code and opening and preparing on every new
  // connection, and on a machine with no spare core it falls behind and never catches up.
  for (const { target, fresh } of servers) {
    if (fresh) for (const m of mix) await warmUp(target, m.request, m.name === "report" ? options.heavyConnections : options.connections, options.warmupSeconds);
    await openLoop(target, mix, rate, options.warmupSeconds);
  }
  await vacuumIfDue(sql!, "before the mixed line");
  const runs = new Map<string, OpenLoopResult[]>(servers.map((s) => [s.target.name, []]));
  const cpus = new Map<string, CpuUse | undefined>();
  for (let round = 0; round < options.rounds; round++) {
    for (const { target } of servers) {
      const { result, cpu } = await measuredStretch(target, mix, rate, each);
      runs.get(target.name)!.push(result);
      cpus.set(target.name, addCpu(cpus.get(target.name), cpu));
    }
  }
  return servers.map(({ target: { name: server } }) => {
    const r = combineRuns(runs.get(server)!, rate, mix);
    const cpu = cpus.get(server);
    if (process.env.BENCH_TRACE) {
      const timeline = r.timeline.map(([at, latency, kind]) => [Math.round(at), Math.round(latency * 10) / 10, kind]);
      appendFileSync(process.env.BENCH_TRACE, `${JSON.stringify({ server, timeline })}\n`);
    }
    const bad = r.non2xx || r.errors ? ` ⚠ ${r.non2xx} non-2xx, ${r.errors} errors of ${r.sent}` : ` (0 errors of ${r.sent})`;
    log(`  ${server} p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, p99.9 ${r.p999.toFixed(1)} ms${bad}`);
    if (r.failures.length) {
      log(`  ${server}, the first failures: ${r.failures.join("; ")}`);
      mixedFailures.push(`${server}: ${r.failures.join("; ")}${r.non2xx + r.errors > r.failures.length ? " …" : ""}`);
    }
    if (cpu) mixedCpu.push(`${server}: ${cpuShares(cpu)}`);
    mixedKinds.push(`${server}: ${r.kinds.map((k) => `${k.name} ${k.p50.toFixed(1)}/${k.p99.toFixed(1)}`).join(", ")}`);
    return { route, server, cells: { rps: `${rate} offered${bad}`, p50: r.p50.toFixed(1), p99: `${r.p99.toFixed(1)} (p99.9 ${r.p999.toFixed(1)})` } };
  });
}

/**
 * Where the two cores went: an open loop past saturation says so here before p99 does. A
 * cluster's primary is named apart (what it costs, connections handed over and the counters'
 * IPC, is what N workers pay over one), and so is the whole machine's busy share: whether
 * any core was left for more workers to use.
 */
function cpuShares(cpu: CpuUse): string {
  const primary = cpu.primary !== undefined ? ` (primary ${share(cpu.primary, cpu.wall)})` : "";
  const machine = cpu.machine !== undefined ? `; the machine ${share(cpu.machine, cpu.wall * os.availableParallelism())} busy` : "";
  return `server ${share(cpu.server, cpu.wall)}${primary}, PostgreSQL ${share(cpu.postgres, cpu.wall)}, load generator ${share(cpu.loadGenerator, cpu.wall)}${machine}`;
}
const mixedCpu: string[] = [];
const mixedFailures: string[] = [];
const rampSteps: string[] = [];

const rampOptions = { from: number("BENCH_RAMP_FROM", 50), step: number("BENCH_RAMP_STEP", 25), seconds: number("BENCH_RAMP_SECONDS", quick ? 3 : 5), goalP99: 50, upTo: 10_000 };
const rampRoute = `mixed open loop, the highest rate held (same mix; searched from ${rampOptions.from} req/s, doubling while held, then halving the gap to ${rampOptions.step}; ${rampOptions.seconds} s each, servers in turns; held = p99 < ${rampOptions.goalP99} ms and no errors)`;

/** The highest rate of a ramp's steps held, or 0. */
const heldRate = (tried: RampStep[]) => Math.max(0, ...tried.filter((s) => s.held).map((s) => s.rate));

/**
 * What more workers are for: the rate at which a server stops keeping up. At the Scale burst a
 * server with a core to spare answers about as fast with one worker as with two; past the rate
 * one worker's core can serve, only more workers hold it, if the machine has the cores.
 */
async function measureCapacity(all: Scenario[], servers: MixedServer[]): Promise<{ rows: BenchRow[]; held: Map<string, number> }> {
  log(`${rampRoute}…`);
  // Which kind of request made the tail, and whether the machine had a core left.
  const slowest = (s: RampStep) => {
    const k = s.kinds.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    return `${k.name} p99 ${k.p99.toFixed(1)}`;
  };
  const said = (s: RampStep) =>
    `${s.rate} ${s.held ? "held" : "missed"} (p50 ${s.p50.toFixed(1)}, p99 ${s.p99.toFixed(1)}${s.failed ? `, ${s.failed} failed` : ""}; slowest ${slowest(s)}${s.cpu ? `; ${cpuShares(s.cpu)}` : ""})`;
  const targets = servers.map((s) => s.target);
  // A fresh process (the cluster) first gets the per-route lines' warm-up, as the mixed line gives it.
  for (const server of servers.filter((s) => s.fresh)) {
    for (const m of scaleMix(all)) await warmUp(server.target, m.request, m.name === "report" ? options.heavyConnections : options.connections, options.warmupSeconds);
    server.fresh = false;
  }
  const steps = await rampInTurns(targets, scaleMix(all), {
    ...rampOptions,
    beforeRate: (rate) => vacuumIfDue(sql!, `before the ramp's ${rate} req/s`),
    onStep: (server, step) => log(`  ${server}: ${said(step)}`),
  });
  const rows = targets.map(({ name: server }): BenchRow => {
    const tried = steps.get(server)!;
    rampSteps.push(`${server}: ${tried.map(said).join(", ")}`);
    const rate = heldRate(tried);
    const held = tried.find((s) => s.held && s.rate === rate);
    const missed = tried.filter((s) => !s.held && s.rate > rate).sort((a, b) => a.rate - b.rate)[0];
    // The p99 at the lowest rate missed says how it missed: just over the goal, or a collapse.
    const miss = missed ? `${integer(missed.rate)} missed (p99 ${integer(missed.p99)} ms${missed.failed ? `, ${missed.failed} failed` : ""})` : "";
    const rps = held ? `${integer(held.rate)} held${missed ? `; ${miss}` : ""}` : `none from ${rampOptions.from}; ${miss}`;
    const at = held ?? missed!;
    return { route: rampRoute, server, cells: { rps, p50: at.p50.toFixed(1), p99: at.p99.toFixed(1) } };
  });
  return { rows, held: new Map(targets.map(({ name }) => [name, heldRate(steps.get(name)!)])) };
}

/** bare's held rate alone, for a line measured at it before the ramp of every server (the webhooks under the mixed line). */
async function bareHeldRate(all: Scenario[], bare: Target, notes: string[], fresh: boolean): Promise<number> {
  log(`the highest rate bare holds on the mixed line, for the lines measured at it…`);
  // A process that has not run the per-route lines first gets their warm-up, as the mixed line gives it.
  if (fresh) for (const m of scaleMix(all)) await warmUp(bare, m.request, m.name === "report" ? options.heavyConnections : options.connections, options.warmupSeconds);
  const steps = await rampInTurns([bare], scaleMix(all), { ...rampOptions, onStep: (_, s) => log(`  bare: ${s.rate} ${s.held ? "held" : "missed"} (p99 ${s.p99.toFixed(1)})`) });
  const rate = heldRate(steps.get(bare.name)!);
  notes.push(`bare alone on the mixed line before the webhooks (the rate they are read at): ${steps.get(bare.name)!.map((s) => `${s.rate} ${s.held ? "held" : "missed"} (p99 ${s.p99.toFixed(1)})`).join(", ")}.`);
  return rate || rampOptions.from;
}
const mixedKinds: string[] = [];
type StartFigure = { what: string; value: string };
const mb = (value: number | undefined) => (value === undefined ? "—" : `${Math.round(value)} MB`);
const share = (cpu: number, wall: number) => `${Math.round((cpu / wall) * 100)} %`;

function cpuTable(rows: BenchRow[]): string[] {
  const measured = rows.filter((r) => r.measurement?.cpu);
  if (!measured.length) return [];
  const perRequest = (cpu: number, m: Measurement) => (m.requests ? (cpu * 1000 / m.requests).toFixed(2) : "—");
  return [
    "",
    "CPU while measuring: share of one core, and CPU milliseconds per request (server = the process under test; PostgreSQL = every `postgres` process on the machine, other databases included; load = autocannon in the bench process). On a shared machine ms/request is steadier than req/s.",
    "",
    "| route | server | server CPU | server ms/req | PostgreSQL CPU | PostgreSQL ms/req | load CPU |",
    "|---|---|--:|--:|--:|--:|--:|",
    ...measured.map((r) => {
      const m = r.measurement!;
      const c = m.cpu!;
      return `| ${r.route.replace(/\|/g, "\\|")} | ${r.server} | ${share(c.server, c.wall)} | ${perRequest(c.server, m)} | ${share(c.postgres, c.wall)} | ${perRequest(c.postgres, m)} | ${share(c.loadGenerator, c.wall)} |`;
    }),
  ];
}

/** Settings that change what the numbers mean, as the bench database sees them. */
async function postgresSettings(sql: postgres.Sql): Promise<Map<string, string>> {
  const rows = await sql<{ name: string; setting: string }[]>`select name, setting from pg_settings where name in ('jit', 'jit_above_cost', 'shared_buffers', 'max_connections', 'synchronous_commit', 'autovacuum') order by name`;
  return new Map(rows.map((r) => [r.name, r.setting]));
}

function gitDescription(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: root, encoding: "utf8" }).trim();
    return `${head}${dirty ? " with uncommitted changes" : ""}`;
  } catch {
    return "unknown";
  }
}

async function main() {
  const notes: string[] = [];
  const load1 = os.loadavg()[0];
  database = await createBenchDatabase(adminUrl);
  log(`created database ${database.name}`);
  if (dbSettings.length) {
    const admin = postgres(database.url, { max: 1, onnotice: () => {} });
    for (const { name, value } of dbSettings) await admin.unsafe(`alter database "${database.name}" set ${name} = '${value.replace(/'/g, "''")}'`);
    await admin.end();
    notes.push(`⚠ BENCH_DB_SETTINGS applied to the bench database: ${dbSettings.map((d) => `${d.name}=${d.value}`).join(", ")} (not the server's defaults).`);
  }

  const webhooks = await loadWebhooksModule();
  // Loopback receivers are private addresses, which production refuses unless told otherwise.
  const serverEnv = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1", ...(webhooks?.serverEnv ?? {}) };

  log("compiling the server (node scripts/build-server.mjs)");
  await runToEnd(process.execPath, [path.join(root, "scripts/build-server.mjs")], process.env, 60_000);
  let innkeep = await startInnkeep(database.url, serverEnv, notes);
  log(`Innkeep ready at ${innkeep.url} (${innkeep.mode})`);

  const account = await createAccount(database.url);
  log(`account ${account.id} and an all-scopes API key created`);
  sql = postgres(database.url, { max: 4, onnotice: () => {} });
  const api = apiClient(innkeep.url, account.key);
  const [booking, report] = await Promise.all([createBookingHotel(sql, api, account.id), seedReportHotel(sql, account.id)]);
  log(`booking hotel: ${booking.rooms} rooms of one type, 730 days of rates; report hotel: ${report.reservations} reservations, ${report.payments} payments, ${report.refunds} refunds`);

  const bare = await startBare(database.url, account.id);
  log(`bare server ready at ${bare.url}`);

  // Start-up and memory as an operator meets them: the first start migrates and seeds; a restart
  // on a populated database is every deploy's; idle RSS is read after a few quiet seconds.
  const figures: StartFigure[] = [{ what: "start to the first 200 on /readyz, fresh database (migrations and seed), 1 worker", value: `${Math.round(innkeep.startMs)} ms` }];
  await innkeep.child.stop();
  innkeep = await startInnkeep(database.url, serverEnv, notes);
  figures.push({ what: "start to the first 200 on /readyz, existing database, 1 worker", value: `${Math.round(innkeep.startMs)} ms` });
  await fetch(`${innkeep.url}/signin`).then((r) => r.arrayBuffer()).catch(() => {});
  await new Promise((r) => setTimeout(r, 5_000));
  figures.push({ what: "idle RSS 5 s after that start and one page, 1 worker (API and dashboard threads)", value: mb(groupRssMb(innkeep.child.process.pid!)) });
  log(`Innkeep restarted in ${Math.round(innkeep.startMs)} ms at ${innkeep.url}`);

  const innkeepGroup = innkeep.child.process.pid;
  const bareGroup = bare.child.process.pid;
  const targets: Target[] = [
    { name: "Innkeep", url: innkeep.url, auth: { authorization: `Bearer ${account.key}` }, meter: () => cpuMeter(innkeepGroup) },
    { name: "bare", url: bare.url, auth: {}, meter: () => cpuMeter(bareGroup) },
  ];
  const settings = await postgresSettings(sql);
  const pgSettings = [...settings].map(([name, setting]) => `${name}=${setting}`).join(", ");
  standInForAutovacuum = settings.get("autovacuum") === "off" && process.env.BENCH_VACUUM !== "0";

  const rows: BenchRow[] = [];
  const all = scenarios(booking, report);
  const underLoad = peakRss(innkeepGroup!);
  for (const scenario of all) {
    if (only && !only.some((o) => scenario.route.includes(o))) continue;
    rows.push(...(await measureScenario(scenario, targets)));
  }
  // The same report once the hotel has ten times the history before the window.
  const revenue = all.find((s) => s.route.startsWith("GET /v1/reports/revenue"))!;
  const longHistory = { ...revenue, route: `GET /v1/reports/revenue (365 days, ${Math.round(historyStays / 1000)}k reservations in the hotel's history)` };
  if (!only || only.some((o) => longHistory.route.includes(o))) {
    const added = performance.now();
    const n = await addReportHistory(sql, account.id, report, historyStays);
    log(`report hotel: ${n.toLocaleString("en-US")} more stays before the window (${Math.round(performance.now() - added)} ms)`);
    rows.push(...(await measureScenario(longHistory, targets)));
  }

  if (only && !only.some((o) => "webhooks".includes(o))) {
    notes.push(`Only the lines matching BENCH_ONLY=${only.join(",")} were measured.`);
  } else if (webhooks) {
    const run = webhooks.benchWebhooks ?? (typeof webhooks.default === "function" ? (webhooks.default as WebhooksModule["benchWebhooks"]) : undefined);
    if (!run) {
      notes.push("⚠ webhooks: scripts/bench/webhooks.ts exists but exports no `benchWebhooks` function; not measured.");
    } else {
      log("webhooks (scripts/bench/webhooks.ts)…");
      try {
        // The mixed line's servers and mix, for the webhook line measured while it runs.
        const fresh = rows.length === 0;
        const mix = scaleMix(all);
        const mixedTargets = [{ ...targets[0], name: workerLabel(webConcurrency) }, { ...targets[1], name: "bare" }];
        // Read at the rate bare holds: a rate no server holds measures the machine, not the engine.
        const wantsMixed = (process.env.BENCH_WEBHOOKS ?? "mixed").includes("mixed");
        const rate = mixedRate ?? (wantsMixed ? (mixedRate = await bareHeldRate(all, mixedTargets[1], notes, fresh)) : rampOptions.from);
        const mixed = {
          targets: mixedTargets,
          mix,
          rate,
          seconds: options.seconds,
          rounds: options.rounds,
          route: mixedRoute(rate),
          cpuShares,
          async prepare() {
            for (const target of mixedTargets) {
              if (fresh) for (const m of mix) await warmUp(target, m.request, m.name === "report" ? options.heavyConnections : options.connections, options.warmupSeconds);
              await openLoop(target, mix, rate, options.warmupSeconds);
            }
            await vacuumIfDue(sql!, "before the webhooks under the mixed line");
          },
        };
        const result = await run({ innkeepUrl: innkeep.url, apiKey: account.key, accountId: account.id, databaseUrl: database.url, sql, connections: options.connections, seconds: options.seconds, log, mixed, innkeepMeter: targets[0].meter });
        const { rows: more, notes: moreNotes } = Array.isArray(result) ? { rows: result, notes: [] } : result;
        rows.push(...more);
        notes.push(...(moreNotes ?? []));
      } catch (error) {
        rows.push({ route: "webhooks", server: "Innkeep", failure: firstLines((error as Error).message).slice(0, 200) });
      }
    }
  } else {
    log("webhooks: not measured (scripts/bench/webhooks.ts missing)");
    notes.push("webhooks: not measured (scripts/bench/webhooks.ts missing).");
  }

  figures.push({ what: "peak RSS under the per-route lines and webhooks (32 connections), 1 worker", value: mb(underLoad.stop()) });

  // Last, because it may restart Innkeep as a cluster.
  if (!only || only.some((o) => mixedRoute(0).includes(o) || rampRoute.includes(o))) {
    // Without the per-route lines before it, neither server has been warmed.
    const fresh = rows.length === 0;
    const servers: MixedServer[] = [
      { target: { ...targets[0], name: workerLabel(webConcurrency) }, fresh },
      { target: { ...targets[1], name: "bare" }, fresh },
    ];
    // The same line on a cluster of workers, started beside the others on the same database and
    // taken in turns with them: do more cores pay?
    let clusterLoad: ReturnType<typeof peakRss> | undefined;
    if (mixedWorkers > 1 && mixedWorkers !== webConcurrency) {
      const cluster = await startInnkeep(database.url, serverEnv, notes, mixedWorkers);
      log(`Innkeep with ${mixedWorkers} workers ready at ${cluster.url}`);
      const group = cluster.child.process.pid!;
      figures.push({ what: `start to the first 200 on /readyz, existing database, ${mixedWorkers} workers`, value: `${Math.round(cluster.startMs)} ms` });
      figures.push({ what: `RSS just after that start, ${mixedWorkers} workers (primary with the dashboard thread, and the workers)`, value: mb(groupRssMb(group)) });
      clusterLoad = peakRss(group);
      servers.push({ target: { ...targets[0], name: workerLabel(mixedWorkers), url: cluster.url, meter: () => cpuMeter(group, { cluster: true }) }, fresh: true });
    }
    // The ramp first, from a rate every server holds: its bare figure is the fixed line's rate.
    const rampWanted = process.env.BENCH_RAMP !== "0";
    const capacity = rampWanted ? await measureCapacity(all, servers) : undefined;
    const rate = process.env.BENCH_MIXED_RATE ? mixedRate! : capacity?.held.get("bare") || mixedRate || (await bareHeldRate(all, servers[1].target, notes, servers[1].fresh));
    rows.push(...(await measureMixed(all, servers, rate)));
    if (capacity) rows.push(...capacity.rows);
    if (clusterLoad) figures.push({ what: `peak RSS under the mixed line${rampWanted ? " and its ramp" : ""}, ${mixedWorkers} workers`, value: mb(clusterLoad.stop()) });
  }

  const seconds = (performance.now() - started) / 1000;
  const cpus = os.cpus();
  const date = new Date().toISOString().slice(0, 16).replace("T", " ");
  const text = [
    `## Innkeep benchmark, ${date} UTC`,
    "",
    renderTable(rows),
    "",
    "Notes:",
    "",
    ...[
      ...anomalies(rows),
      ...notes,
      ...(mixedCpu.length ? [`CPU during the mixed line (share of one core; the machine has ${os.cpus().length}): ${mixedCpu.join("; ")}.`] : []),
      ...(mixedKinds.length ? [`The mixed line per kind of request, p50/p99 ms: ${mixedKinds.join("; ")}.`] : []),
      ...(vacuums.length ? [`The PostgreSQL server runs with autovacuum off, so the bench ran VACUUM (ANALYZE) between measurements where autovacuum would have, at most once a minute (the tables with the most dead rows, and the time it took): ${vacuums.join("; ")}.`] : []),
      ...(rampSteps.length ? [`The ramp, every rate tried (req/s, ms; a rate missed once was taken again and the second try is shown): ${rampSteps.join("; ")}.`] : []),
      ...mismatches,
      ...(mixedFailures.length ? [`What failed in the mixed line (the first few of each server): ${mixedFailures.join(". ")}.`] : []),
      `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB; 1-minute load average ${load1.toFixed(1)} before the run and ${os.loadavg()[0].toFixed(1)} at its end (anything above ${cpus.length} means other work shared the cores). Node ${process.version}, ${database.version} on ${new URL(adminUrl).host} (${pgSettings}); code at ${gitDescription()}.`,
      `Innkeep: \`NODE_ENV=production node dist/server.mjs\` (what \`npm start\` runs), ${innkeep.mode}, LOG_LEVEL=warn, postgres.js pool of 10; ${webConcurrency === 1 ? "one worker (WEB_CONCURRENCY=1)" : `WEB_CONCURRENCY=${webConcurrency}`} for the per-route lines (the mixed line also with ${mixedWorkers}), Next in its own thread; the API key is looked up once a second (credential cache), every request counts against the in-memory rate limiter, and POST /v1/reservations carries a fresh Idempotency-Key (two more statements).`,
      `Bare: \`scripts/bench/bare-server.ts\`, node:http + postgres.js, pool of 10, ${barePrepared ? "statements prepared (postgres.js's default; drizzle's are unnamed, and postgres.js sends each one with parameters as two round trips, Describe then Execute)" : "⚠ statements unprepared (BENCH_BARE_PREPARE=0), as drizzle sends them"}; the same SQL statements and transactions as the Innkeep services, and nothing else: no auth, no rate limit, no idempotency, no validation beyond JSON.parse.`,
      `Load: autocannon, ${options.connections} connections, ${options.warmupSeconds} s warm-up, then ${options.seconds} s per server in ${options.rounds} rounds taken in turns (Innkeep, bare, Innkeep, bare); the load generator runs on the same machine. The revenue report: ${options.heavyRequests} requests one at a time in blocks of 10 taken in turns (req/s = sequential throughput), then ${options.heavyConnections} connections for ${options.heavySeconds} s per server. p50 and p99 are over every response of the line. Ratio = Innkeep req/s ÷ bare req/s. The mixed line (\`scripts/bench/open-loop.ts\`, node:http with kept-alive sockets) runs every server at once on the same database and takes them in turns: each gets its rate for the warm-up seconds, unmeasured (a server that has not run the per-route lines, such as the cluster, first gets their warm-up: each kind of request in closed loop), then ${options.rounds} measured rounds of ${options.seconds / options.rounds} s each in turns, each round after one unmeasured second at the rate; the ramp after it takes the servers in turns at each rate; each latency counts from the request's scheduled departure. ⚠ marks a line that met non-2xx answers or errors.`,
      `Data: GET /v1/guests lists the account's ${"8,000+"} guests; POST /v1/guests uses a unique e-mail per request; POST /v1/reservations books 1–4 nights at random over the coming year into one 2,000-room type (a new guest each); availability and the report read the report hotel: 4 room types, 200 rooms, BAR and NRF rates, ${report.reservations.toLocaleString("en-US")} reservations over ${report.from} → ${report.to} in every status, ${report.payments.toLocaleString("en-US")} payments, ${report.refunds.toLocaleString("en-US")} refunds.`,
      `The whole run took ${Math.round(seconds)} s.`,
    ].map((n) => `- ${n}`),
    ...cpuTable(rows),
    "",
    "Start-up and memory of `node dist/server.mjs` (what `npm start` runs) in this run; RSS sums every process of the server's group:",
    "",
    "| figure | measured |",
    "|---|--:|",
    ...figures.map((f) => `| ${f.what} | ${f.value} |`),
    "",
  ].join("\n");

  process.stdout.write(`\n${text}`);
  mkdirSync(path.join(root, "bench-results"), { recursive: true });
  writeFileSync(path.join(root, "bench-results/latest.md"), text);
  log("wrote bench-results/latest.md");
  if (writeDocs) {
    const intro = [
      "# Benchmarks",
      "",
      "`npm run bench` starts the production server on a fresh PostgreSQL database beside a bare `node:http` + postgres.js server that runs the same SQL, and loads both in the same run (see `scripts/bench/run.ts` for the knobs). `npm run bench -- --write-docs` replaces the run between the markers below; `bench-results/latest.md` holds the latest local one.",
      "",
    ].join("\n");
    // The run goes between the markers, so the hand-written reading of it around them stays.
    const docs = path.join(root, "docs/benchmarks.md");
    const current = existsSync(docs) ? readFileSync(docs, "utf8") : "";
    const [start, end] = ["<!-- bench:start -->", "<!-- bench:end -->"];
    const at = current.indexOf(start);
    const until = current.indexOf(end);
    writeFileSync(docs, at >= 0 && until > at ? `${current.slice(0, at + start.length)}\n${text}\n${current.slice(until)}` : `${intro}\n${start}\n${text}\n${end}\n`);
    log("wrote docs/benchmarks.md");
  }
  return rows.some((r) => r.failure) ? 1 : 0;
}

let status = 1;
try {
  status = await main();
} catch (error) {
  log(`failed: ${(error as Error).stack ?? error}`);
} finally {
  await cleanup();
}
process.exit(status);
