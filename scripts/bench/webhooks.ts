// Webhook rows of `npm run bench`: signed deliveries per second to a local receiver (3 endpoints,
// 1,000 events committed at once), event commit → receipt latency (p50/p99) at a steady pace, and
// the same latency while the mixed open loop runs against the same server (with the mixed line's
// p99 beside bare's, in turns). Called by run.ts with the running production server (see
// BenchContext in ./types.ts). BENCH_WEBHOOKS="burst,paced,mixed" picks some of the three.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifySignature } from "../../server/webhooks/verify-signature";
import { combineRuns, measuredStretch, type OpenLoopResult } from "./open-loop";
import { addCpu, type CpuUse } from "./cpu";
import type { BenchContext, BenchRow } from "./types";

const endpointsCount = 3;
const burstEvents = 1_000;
const paced = { events: 200, perSecond: 20 };
/** The paced events' type under the mixed line: one it never writes. */
const mixedType = "night_audit.completed";
const parts = new Set((process.env.BENCH_WEBHOOKS ?? "burst,paced,mixed").split(",").map((p) => p.trim()));

type Receipt = { eventId: string; at: number };

async function startReceiver(secrets: Map<string, string>) {
  const receipts: Receipt[] = [];
  let invalid = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const at = performance.timeOrigin + performance.now();
      const body = Buffer.concat(chunks);
      try {
        verifySignature(body, req.headers["service-signature"], secrets.get(req.url!)!);
        receipts.push({ eventId: JSON.parse(body.toString("utf8")).id, at });
        res.end("ok");
      } catch {
        invalid++;
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    receipts,
    invalid: () => invalid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function until(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`webhooks bench: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

/**
 * Registers 3 endpoints on the server, commits 1,000 events in one transaction (the outbox rows
 * a burst of changes would write) and times the 3,000 signed deliveries until the receiver has
 * verified them all; then commits 200 events one by one at 20/s and measures each delivery from
 * its commit to its receipt; then does the same while the mixed open loop runs.
 */
export async function benchWebhooks(ctx: BenchContext): Promise<{ rows: BenchRow[]; notes?: string[] }> {
  const secrets = new Map<string, string>();
  const receiver = await startReceiver(secrets);
  const endpointIds: string[] = [];
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  try {
    for (let i = 0; i < endpointsCount; i++) {
      const res = await fetch(`${ctx.innkeepUrl}/v1/webhook_endpoints`, {
        method: "POST",
        headers: { authorization: `Bearer ${ctx.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ url: `${receiver.url}/e${i}`, enabled_events: ["guest.created"] }),
      });
      const json = (await res.json()) as { id: string; secret: string };
      if (res.status !== 201) throw new Error(`webhooks bench: creating an endpoint answered ${res.status}: ${JSON.stringify(json)}`);
      secrets.set(`/e${i}`, json.secret);
      endpointIds.push(json.id);
    }
    const [{ version }] = await ctx.sql<{ version: string }[]>`select api_version as version from accounts where id = ${ctx.accountId}`;
    const insertEvents = (count: number, tag: string) =>
      ctx.sql`
        insert into events (id, account_id, livemode, property_id, type, api_version, object, created_at)
        select 'evt_bench' || ${tag} || '_' || g, ${ctx.accountId}, true, null, 'guest.created', ${version},
               jsonb_build_object('id', 'gst_bench' || g, 'object', 'guest', 'first_name', 'Bench', 'last_name', 'Guest'), now()
        from generate_series(1, ${count}) g`;
    /** Commits `count` events one by one at `paced.perSecond` (or until `stop` says so); answers each one's commit time. */
    const pace = async (tag: string, count: number, stop = () => false, type = "guest.created") => {
      const commits = new Map<string, number>();
      const started = performance.now();
      for (let i = 0; i < count && !stop(); i++) {
        const id = `evt_bench${tag}_${i}`;
        await ctx.sql`
          insert into events (id, account_id, livemode, property_id, type, api_version, object, created_at)
          values (${id}, ${ctx.accountId}, true, null, ${type}, ${version}, ${ctx.sql.json({ id: `gst_${tag}${i}` })}, now())`;
        commits.set(id, performance.timeOrigin + performance.now());
        const wait = started + ((i + 1) * 1000) / paced.perSecond - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
      return commits;
    };
    /** Commit → receipt of every delivery of these events, once all have arrived, sorted. */
    const latenciesOf = async (commits: Map<string, number>) => {
      const arrived = () => receiver.receipts.filter((r) => commits.has(r.eventId));
      await until(() => arrived().length >= commits.size * endpointsCount, 120_000, "paced deliveries");
      return arrived()
        .map((r) => r.at - commits.get(r.eventId)!)
        .sort((a, b) => a - b);
    };
    /**
     * Where the time of these events' deliveries went, from the database's own rows: the event's
     * `created_at` (its transaction's start) → the fan-out (the delivery's `created_at`, its
     * transaction's start) → the first attempt's start → the end of its exchange.
     */
    const stagesOf = async (commits: Map<string, number>) => {
      const [row] = await ctx.sql<{ fan: number[]; claim: number[]; exchange: number[] }[]>`
        select percentile_cont(array[0.5, 0.99]) within group (order by extract(epoch from d.created_at - e.created_at) * 1000) as fan,
               percentile_cont(array[0.5, 0.99]) within group (order by extract(epoch from a.started_at - d.created_at) * 1000) as claim,
               percentile_cont(array[0.5, 0.99]) within group (order by a.latency_ms) as exchange
        from events e join webhook_deliveries d on d.event_id = e.id join webhook_attempts a on a.delivery_id = d.id and a.number = 1
        where e.id = any(${[...commits.keys()]})`;
      const pair = (v: number[]) => `p50 ${ms(v[0])}, p99 ${ms(v[1])}`;
      return `event written → fan-out ${pair(row.fan)}; fan-out → first attempt ${pair(row.claim)}; the attempt's exchange ${pair(row.exchange)} (from the database's rows)`;
    };

    if (parts.has("burst")) {
      ctx.log(`webhooks: ${burstEvents} events × ${endpointsCount} endpoints…`);
      const before = receiver.receipts.length;
      const read = ctx.innkeepMeter?.();
      const committedAt = performance.timeOrigin + performance.now();
      await insertEvents(burstEvents, "burst");
      const expected = burstEvents * endpointsCount;
      await until(() => receiver.receipts.length - before >= expected, 300_000, `${expected} deliveries`);
      const cpu = read?.();
      const lastAt = Math.max(...receiver.receipts.slice(before, before + expected).map((r) => r.at));
      const seconds = (lastAt - committedAt) / 1000;
      const perSecond = expected / seconds;
      // On a shared machine CPU per delivery is steadier than deliveries per second.
      const perDelivery = cpu && `server ${((cpu.server * 1000) / expected).toFixed(3)} ms, PostgreSQL ${((cpu.postgres * 1000) / expected).toFixed(3)} ms, the bench's receiver ${((cpu.loadGenerator * 1000) / expected).toFixed(3)} ms of CPU per delivery`;
      ctx.log(`  ${Math.round(perSecond)} deliveries/s, all in ${seconds.toFixed(2)} s${perDelivery ? `; ${perDelivery}` : ""}`);
      if (perDelivery) notes.push(`webhooks: the burst of ${expected.toLocaleString("en")} deliveries took ${perDelivery} (PostgreSQL: every postgres process on the machine).`);
      rows.push({
        route: `webhooks: signed deliveries, ${endpointsCount} endpoints × ${burstEvents.toLocaleString("en")} events`,
        server: "Innkeep",
        cells: { rps: `${Math.round(perSecond).toLocaleString("en")} deliveries/s`, p50: "", p99: `all in ${seconds.toFixed(2)} s` },
      });
    }

    if (parts.has("paced")) {
      ctx.log(`webhooks: commit → receipt at ${paced.perSecond} events/s…`);
      const commits = await pace("paced", paced.events);
      const latencies = await latenciesOf(commits);
      const stages = await stagesOf(commits);
      ctx.log(`  p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}; ${stages}`);
      notes.push(`webhooks at ${paced.perSecond} events/s: ${stages}.`);
      rows.push({
        route: `webhooks: event commit → receipt (${paced.perSecond} events/s × ${endpointsCount})`,
        server: "Innkeep",
        cells: { rps: "", p50: ms(percentile(latencies, 50)), p99: ms(percentile(latencies, 99)) },
      });
    }

    if (parts.has("mixed") && ctx.mixed) {
      // The endpoints now select a type the mixed line never writes, so what they receive is the
      // paced events alone, as an integrator following one kind of event would, while the line
      // loads the same server and database.
      for (const id of endpointIds) {
        const res = await fetch(`${ctx.innkeepUrl}/v1/webhook_endpoints/${id}`, {
          method: "PATCH",
          headers: { authorization: `Bearer ${ctx.apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ enabled_events: [mixedType] }),
        });
        if (res.status !== 200) throw new Error(`webhooks bench: updating an endpoint answered ${res.status}`);
      }
      const measured = await underMixedLoad(ctx, ctx.mixed, (tag, count, stop) => pace(tag, count, stop, mixedType), latenciesOf, stagesOf, receiver);
      rows.push(...measured.rows);
      notes.push(...measured.notes);
    }

    notes.unshift(`webhooks: the in-process dispatcher (no Inngest); events written straight into the outbox table; the receiver verifies every signature (${receiver.invalid()} invalid).`);
    return { rows, notes };
  } finally {
    for (const id of endpointIds) {
      await fetch(`${ctx.innkeepUrl}/v1/webhook_endpoints/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${ctx.apiKey}` } }).catch(() => {});
    }
    await receiver.close();
  }
}

/**
 * Event commit → receipt while the mixed open loop runs against the same Innkeep: the servers
 * taken in turns as in the mixed line (Innkeep, bare, Innkeep, bare), and during each of
 * Innkeep's turns (its second of lead-in and its measured stretch) events committed at
 * `paced.perSecond`, of a type the line never writes (the endpoints select only it). Bare has no
 * webhooks: its turns are the mixed line's reference.
 */
async function underMixedLoad(
  ctx: BenchContext,
  mixed: NonNullable<BenchContext["mixed"]>,
  pace: (tag: string, count: number, stop: () => boolean) => Promise<Map<string, number>>,
  latenciesOf: (commits: Map<string, number>) => Promise<number[]>,
  stagesOf: (commits: Map<string, number>) => Promise<string>,
  receiver: { receipts: Receipt[] },
): Promise<{ rows: BenchRow[]; notes: string[] }> {
  const each = mixed.seconds / mixed.rounds;
  ctx.log(`webhooks: commit → receipt at ${paced.perSecond} events/s while ${mixed.targets.map((t) => t.name).join(" and ")} take the mixed line (${mixed.rate} req/s) in turns…`);
  await mixed.prepare();
  // The warm-up's guest writes are deliveries too: let their backlog drain (no receipt for half a
  // second) so that the measured events do not queue behind thousands of them.
  for (let last = -1, deadline = Date.now() + 180_000; receiver.receipts.length !== last && Date.now() < deadline; ) {
    last = receiver.receipts.length;
    await new Promise((r) => setTimeout(r, 500));
  }
  const runs = new Map<string, OpenLoopResult[]>(mixed.targets.map((t) => [t.name, []]));
  const cpus = new Map<string, CpuUse | undefined>();
  const commits = new Map<string, number>();
  const before = receiver.receipts.length;
  let turnSeconds = 0;
  for (let round = 0; round < mixed.rounds; round++) {
    for (const [i, target] of mixed.targets.entries()) {
      let done = false;
      // Innkeep (the first target) delivers; bare's turns are the reference without webhooks.
      const pacing = i === 0 ? pace(`mixed${round}`, Infinity, () => done) : undefined;
      const turnStarted = performance.now();
      const { result, cpu } = await measuredStretch(target, mixed.mix, mixed.rate, each);
      done = true;
      for (const [id, at] of (await pacing) ?? []) commits.set(id, at);
      if (i === 0) turnSeconds += (performance.now() - turnStarted) / 1000;
      runs.get(target.name)!.push(result);
      cpus.set(target.name, addCpu(cpus.get(target.name), cpu));
    }
  }
  const latencies = await latenciesOf(commits);
  const stages = await stagesOf(commits);
  const all = receiver.receipts.slice(before);
  const theirs = all.filter((r) => !commits.has(r.eventId)).length;
  const [innkeep, bare] = mixed.targets.map((t) => combineRuns(runs.get(t.name)!, mixed.rate, mixed.mix));
  const p = (r: OpenLoopResult) => `${r.p99.toFixed(1)} (p99.9 ${r.p999.toFixed(1)})`;
  const bad = (r: OpenLoopResult) => (r.non2xx || r.errors ? ` ⚠ ${r.non2xx} non-2xx, ${r.errors} errors of ${r.sent}` : ` (0 errors of ${r.sent})`);
  ctx.log(`  ${stages}`);
  ctx.log(`  commit → receipt p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}; mixed p99 ${mixed.targets[0].name} ${p(innkeep)}, bare ${p(bare)}`);
  const route = `webhooks under the ${mixed.route.replace(/^mixed open loop, /, "mixed open loop at ")}: event commit → receipt (${paced.perSecond} events/s × ${endpointsCount}), and the line's latency`;
  const notes = [
    `webhooks under the mixed line: ${commits.size} paced events (× ${endpointsCount} endpoints) committed during ${mixed.targets[0].name}'s turns (${turnSeconds.toFixed(0)} s), and ${theirs.toLocaleString("en")} other deliveries (the line's own events are of types the endpoints do not select); mixed line p50/p99 ms: ${mixed.targets.map((t, i) => `${t.name} ${[innkeep, bare][i].p50.toFixed(1)}/${[innkeep, bare][i].p99.toFixed(1)}`).join(", ")}.`,
    `webhooks under the mixed line: ${stages}.`,
    ...[...cpus].filter(([, c]) => c).map(([name, c]) => `CPU during the webhooks under the mixed line, ${name}: ${mixed.cpuShares(c!)} (the load generator's share includes the webhook receiver, which runs in the bench process).`),
  ];
  return {
    rows: [
      {
        route,
        server: mixed.targets[0].name,
        cells: { rps: `${mixed.rate} offered${bad(innkeep)}; receipt p50 ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))}`, p50: innkeep.p50.toFixed(1), p99: p(innkeep) },
      },
      { route, server: "bare", cells: { rps: `${mixed.rate} offered${bad(bare)} (no webhooks)`, p50: bare.p50.toFixed(1), p99: p(bare) } },
    ],
    notes,
  };
}
