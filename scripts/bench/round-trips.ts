// Counts what one booking costs on the wire to PostgreSQL, Innkeep beside the bare server: each
// server's pool goes through a counting proxy that reads the frontend protocol, and a few keyed
// bookings are sent one at a time after a warm-up. Per booking it prints the statements executed
// (Execute and simple Query messages), statements parsed, the client's socket writes, and the
// round trips (a burst sent while nothing was outstanding: the server was waiting on the client),
// with the statements of each round trip. `npx tsx scripts/bench/round-trips.ts` (needs
// dist/server.mjs: `node scripts/build-server.mjs`). ROUND_TRIPS_BOOKINGS (default 5),
// ROUND_TRIPS_VERBOSE=1 prints every round trip of the last booking. ROUND_TRIPS_CPU=<n>: then n
// bookings per server and round (8 at a time, ROUND_TRIPS_ROUNDS rounds in turns, default 4, the first unmeasured), with the CPU per booking of the
// server process and of the database's own PostgreSQL backends (read from /proc, so other
// databases on the machine do not count), the webhook dispatcher off in both. ROUND_TRIPS_PROFILE=<dir>:
// both servers under --cpu-prof, their profiles in <dir>/innkeep and <dir>/bare (written when they stop).
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { addDays } from "@/lib/dates";
import { freePort, startChild, stopAll, waitReady } from "./children";
import { createBenchDatabase } from "./database";
import { apiClient, createAccount, createBookingHotel } from "./fixtures";

const root = path.resolve(import.meta.dirname, "../..");
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const bookings = Number(process.env.ROUND_TRIPS_BOOKINGS ?? 5);
const verbose = process.env.ROUND_TRIPS_VERBOSE === "1";
const profileDir = process.env.ROUND_TRIPS_PROFILE;
const profile = (name: string) => (profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir, name)}`] : []);

type Trip = { statements: string[]; writes: number };
type Tally = { trips: Trip[]; executed: number; parsed: number; writes: number; bytes: number };
const emptyTally = (): Tally => ({ trips: [], executed: 0, parsed: 0, writes: 0, bytes: 0 });

/** A TCP proxy to PostgreSQL that reads the frontend's messages; `take()` hands over what it saw since the last call. */
async function countingProxy(target: URL) {
  let tally = emptyTally();
  const server = net.createServer((client) => {
    // No Nagle on either side: the proxy must not hold a server's pipelined writes back itself.
    client.setNoDelay(true);
    const upstream = net.connect({ port: Number(target.port || 5432), host: target.hostname, noDelay: true });
    const names = new Map<string, string>();
    let started = false;
    let pending = Buffer.alloc(0);
    let outstanding = 0; // Syncs and simple queries not yet answered by ReadyForQuery.
    let trip: Trip | undefined;
    let backendPending = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      upstream.write(chunk);
      tally.writes++;
      tally.bytes += chunk.length;
      if (outstanding === 0 || !trip) {
        trip = { statements: [], writes: 0 };
        tally.trips.push(trip);
      }
      trip.writes++;
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (!started) {
          if (pending.length < 4) break;
          const length = pending.readInt32BE(0);
          if (pending.length < length) break;
          pending = pending.subarray(length);
          started = true;
          tally.trips.pop(); // The start-up is no booking's.
          trip = undefined;
          continue;
        }
        if (pending.length < 5) break;
        const type = String.fromCharCode(pending[0]);
        const length = pending.readInt32BE(1);
        if (pending.length < 1 + length) break;
        const body = pending.subarray(5, 1 + length);
        pending = pending.subarray(1 + length);
        const cstring = (from: number) => {
          const end = body.indexOf(0, from);
          return [body.toString("utf8", from, end), end + 1] as const;
        };
        if (type === "P") {
          const [name, next] = cstring(0);
          const [text] = cstring(next);
          names.set(name, text);
          tally.parsed++;
        } else if (type === "B") {
          const [, next] = cstring(0);
          const [statement] = cstring(next);
          trip?.statements.push(oneLine(names.get(statement) ?? `?${statement}`));
          tally.executed++;
        } else if (type === "Q") {
          const [text] = cstring(0);
          trip?.statements.push(oneLine(text));
          tally.executed++;
          outstanding++;
        } else if (type === "S") {
          outstanding++;
        }
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      client.write(chunk);
      backendPending = Buffer.concat([backendPending, chunk]);
      for (;;) {
        if (backendPending.length < 5) break;
        const length = backendPending.readInt32BE(1);
        if (backendPending.length < 1 + length) break;
        if (backendPending[0] === "Z".charCodeAt(0)) outstanding = Math.max(0, outstanding - 1);
        backendPending = backendPending.subarray(1 + length);
      }
    });
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", close).on("close", close);
    upstream.on("error", close).on("close", close);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const url = new URL(target.toString());
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    take: () => {
      const taken = tally;
      tally = emptyTally();
      return taken;
    },
    close: () => server.close(),
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, 140);

async function main() {
  const database = await createBenchDatabase(adminUrl);
  try {
    const innkeepProxy = await countingProxy(new URL(database.url));
    const bareProxy = await countingProxy(new URL(database.url));
    const port = await freePort();
    const innkeep = startChild("Innkeep server", process.execPath, [...profile("innkeep"), path.join(root, "dist/server.mjs")], {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: innkeepProxy.url,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
      WEBHOOK_SECRET_KEYS: `bench:${randomBytes(32).toString("base64")}`,
      INNKEEP_API_ONLY: "1",
      WEB_CONCURRENCY: "1",
      // Only the booking's own statements on the wire: the dispatcher polls every 20 ms.
      WEBHOOK_DISPATCHER: "0",
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
    });
    const innkeepUrl = `http://127.0.0.1:${port}`;
    await waitReady(innkeep, `${innkeepUrl}/readyz`, 90_000, 50);
    const account = await createAccount(database.url);
    const sql = postgres(database.url, { max: 2, onnotice: () => {} });
    const hotel = await createBookingHotel(sql, apiClient(innkeepUrl, account.key), account.id, 2_000);
    await sql.end();
    const barePort = await freePort();
    const bare = startChild("bare server", process.execPath, [...profile("bare"), "--import", "tsx", "scripts/bench/bare-server.ts"], {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: bareProxy.url,
      PORT: String(barePort),
      HOST: "127.0.0.1",
      BENCH_ACCOUNT_ID: account.id,
    });
    const bareUrl = `http://127.0.0.1:${barePort}`;
    await waitReady(bare, `${bareUrl}/readyz`, 60_000, 50);

    let n = 0;
    const book = async (url: string, auth: boolean) => {
      const checkIn = addDays(hotel.today, 1 + ((n * 7) % 360));
      const res = await fetch(`${url}/v1/reservations`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(auth ? { authorization: `Bearer ${account.key}` } : {}),
          "idempotency-key": `rt-${n}`,
        },
        body: JSON.stringify({
          property_id: hotel.propertyId,
          room_type_id: hotel.roomTypeId,
          rate_plan_id: hotel.ratePlanId,
          check_in: checkIn,
          check_out: addDays(checkIn, 1 + (n % 4)),
          adults: 2,
          guest: { first_name: "Count", last_name: "Booker", email: `count-${n++}@bench.example` },
          source: "api",
        }),
      });
      if (res.status !== 201) throw new Error(`booking answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    };
    for (const [name, url, proxy, auth] of [
      ["Innkeep", innkeepUrl, innkeepProxy, true],
      ["bare", bareUrl, bareProxy, false],
    ] as const) {
      // Warm: every statement prepared on the connection, the credential in its cache.
      for (let i = 0; i < 3; i++) await book(url, auth);
      const seen: Tally[] = [];
      for (let i = 0; i < bookings; i++) {
        proxy.take();
        await book(url, auth);
        await new Promise((r) => setTimeout(r, 50)); // Anything the answer set going (a background write) lands here too.
        seen.push(proxy.take());
      }
      const median = (f: (t: Tally) => number) => seen.map(f).sort((a, b) => a - b)[Math.floor(seen.length / 2)];
      console.log(
        `${name}: per booking (median of ${bookings}) ${median((t) => t.executed)} statements executed, ${median((t) => t.trips.length)} round trips, ` +
          `${median((t) => t.writes)} socket writes, ${median((t) => t.parsed)} parsed, ${median((t) => t.bytes)} bytes sent`,
      );
      if (verbose) {
        const last = seen[seen.length - 1];
        last.trips.forEach((trip, i) => console.log(`  ${i + 1}. (${trip.writes} writes) ${trip.statements.join("\n     ") || "(no statement)"}`));
      }
    }
    const cpuBookings = Number(process.env.ROUND_TRIPS_CPU ?? 0);
    if (cpuBookings) {
      const admin = postgres(database.url, { max: 1, onnotice: () => {} });
      const ticks = (pid: number) => {
        try {
          const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
          return Number(fields[11]) + Number(fields[12]); // utime + stime, in clock ticks (10 ms)
        } catch {
          return 0;
        }
      };
      const backends = async () =>
        (await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${database.name} and pid <> pg_backend_pid()`).map((r) => r.pid);
      const cpuOf = async (pids: number[]) => new Map(pids.map((pid) => [pid, ticks(pid)]));
      const totals = new Map<string, { server: number; postgres: number; n: number; ms: number }>();
      const rounds = Number(process.env.ROUND_TRIPS_ROUNDS ?? 4);
      for (let round = 0; round < rounds; round++) {
        for (const [name, url, child, auth] of [
          ["Innkeep", innkeepUrl, innkeep, true],
          ["bare", bareUrl, bare, false],
        ] as const) {
          const serverBefore = ticks(child.process.pid!);
          const pgBefore = await cpuOf(await backends());
          const started = performance.now();
          let left = cpuBookings;
          await Promise.all(
            Array.from({ length: 8 }, async () => {
              while (left-- > 0) await book(url, auth);
            }),
          );
          const ms = performance.now() - started;
          const serverTicks = ticks(child.process.pid!) - serverBefore;
          let pgTicks = 0;
          for (const pid of await backends()) pgTicks += ticks(pid) - (pgBefore.get(pid) ?? 0);
          console.log(`  round ${round + 1}, ${name}: server ${((serverTicks * 10) / cpuBookings).toFixed(2)} ms, PostgreSQL ${((pgTicks * 10) / cpuBookings).toFixed(2)} ms a booking (load ${os.loadavg()[0].toFixed(1)})`);
          if (round === 0) continue; // A warm-up: the JIT and the pool still settling.
          const t = totals.get(name) ?? { server: 0, postgres: 0, n: 0, ms: 0 };
          totals.set(name, { server: t.server + serverTicks, postgres: t.postgres + pgTicks, n: t.n + cpuBookings, ms: t.ms + ms });
        }
      }
      await admin.end();
      const perBooking = (ticks: number, n: number) => ((ticks * 10) / n).toFixed(2);
      for (const [name, t] of totals)
        console.log(`${name}: ${t.n} bookings, ${((t.n * 1000) / t.ms).toFixed(0)}/s; CPU per booking: server ${perBooking(t.server, t.n)} ms, PostgreSQL backends ${perBooking(t.postgres, t.n)} ms`);
      const i = totals.get("Innkeep")!;
      const b = totals.get("bare")!;
      console.log(`Innkeep ÷ bare: server ${(i.server / b.server).toFixed(2)} ×, PostgreSQL ${(i.postgres / b.postgres).toFixed(2)} ×`);
    }
    await stopAll();
    innkeepProxy.close();
    bareProxy.close();
  } finally {
    await stopAll();
    await database.drop();
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
