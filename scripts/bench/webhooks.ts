// Webhook rows of `npm run bench`: signed deliveries per second to a local receiver (3 endpoints,
// 1,000 events committed at once) and event commit → receipt latency (p50/p99) at a steady pace.
// Called by run.ts with the running production server (see BenchContext in ./types.ts).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifySignature } from "../../server/webhooks/verify-signature";
import type { BenchContext, BenchRow } from "./types";

const endpointsCount = 3;
const burstEvents = 1_000;
const paced = { events: 200, perSecond: 20 };

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

/**
 * Registers 3 endpoints on the server, commits 1,000 events in one transaction (the outbox rows
 * a burst of changes would write) and times the 3,000 signed deliveries until the receiver has
 * verified them all; then commits 200 events one by one at 20/s and measures each delivery from
 * its commit to its receipt.
 */
export async function benchWebhooks(ctx: BenchContext): Promise<{ rows: BenchRow[]; notes?: string[] }> {
  const secrets = new Map<string, string>();
  const receiver = await startReceiver(secrets);
  const endpointIds: string[] = [];
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

    ctx.log(`webhooks: ${burstEvents} events × ${endpointsCount} endpoints…`);
    const committedAt = performance.timeOrigin + performance.now();
    await insertEvents(burstEvents, "burst");
    const expected = burstEvents * endpointsCount;
    await until(() => receiver.receipts.length >= expected, 300_000, `${expected} deliveries`);
    const lastAt = Math.max(...receiver.receipts.slice(0, expected).map((r) => r.at));
    const seconds = (lastAt - committedAt) / 1000;
    const perSecond = expected / seconds;

    ctx.log(`webhooks: commit → receipt at ${paced.perSecond} events/s…`);
    const commits = new Map<string, number>();
    const before = receiver.receipts.length;
    for (let i = 0; i < paced.events; i++) {
      const id = `evt_benchpaced_${i}`;
      await ctx.sql`
        insert into events (id, account_id, livemode, property_id, type, api_version, object, created_at)
        values (${id}, ${ctx.accountId}, true, null, 'guest.created', ${version}, ${ctx.sql.json({ id: `gst_paced${i}` })}, now())`;
      commits.set(id, performance.timeOrigin + performance.now());
      await new Promise((r) => setTimeout(r, 1000 / paced.perSecond));
    }
    await until(() => receiver.receipts.length >= before + paced.events * endpointsCount, 120_000, "paced deliveries");
    const latencies = receiver.receipts
      .slice(before)
      .filter((r) => commits.has(r.eventId))
      .map((r) => r.at - commits.get(r.eventId)!)
      .sort((a, b) => a - b);

    const ms = (v: number) => `${v.toFixed(1)} ms`;
    return {
      rows: [
        {
          route: `webhooks: signed deliveries, ${endpointsCount} endpoints × ${burstEvents.toLocaleString("en")} events`,
          server: "Innkeep",
          cells: { rps: `${Math.round(perSecond).toLocaleString("en")} deliveries/s`, p50: "", p99: `all in ${seconds.toFixed(2)} s` },
        },
        {
          route: `webhooks: event commit → receipt (${paced.perSecond} events/s × ${endpointsCount})`,
          server: "Innkeep",
          cells: { rps: "", p50: ms(percentile(latencies, 50)), p99: ms(percentile(latencies, 99)) },
        },
      ],
      notes: [
        `webhooks: the in-process dispatcher (no Inngest); events written straight into the outbox table; the receiver verifies every signature (${receiver.invalid()} invalid).`,
      ],
    };
  } finally {
    for (const id of endpointIds) {
      await fetch(`${ctx.innkeepUrl}/v1/webhook_endpoints/${id}`, { method: "DELETE", headers: { authorization: `Bearer ${ctx.apiKey}` } }).catch(() => {});
    }
    await receiver.close();
  }
}
