import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { createApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { onPostgres, testDatabase } from "../support/database";

// The compiled production server (`npm start`) with two worker processes on a PostgreSQL server:
// one port, one set of rate-limit counters, and a SIGTERM that stops everything gracefully.

const root = path.resolve(import.meta.dirname, "../..");
let database: Awaited<ReturnType<typeof testDatabase>>;
let server: ChildProcess;
let exited: Promise<number | null>;
let output = "";
let base = "";
let token = "";

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** One request on its own connection, so that the cluster may hand each to another worker. */
const getOnNewConnection = (url: string, headers: Record<string, string>) =>
  new Promise<{ status: number; remaining: string | undefined }>((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, remaining: res.headers["x-ratelimit-remaining"] as string | undefined }));
      })
      .on("error", reject);
  });

const workerPids = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);

describe.runIf(onPostgres)("npm start with WEB_CONCURRENCY=2", () => {
  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(root, "scripts/build-server.mjs")], { cwd: root, stdio: "ignore" });
    database = await testDatabase();
    const account = await createAccount({ db: database.db, input: { name: "Clustered", plan: "scale", limits: { perSecond: 1000, perMinute: 10 }, developerContact: "dev@test.example" } });
    token = (await createApiKey({ db: database.db, input: { accountId: account.id, scopes: [...scopes] } })).key;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    // Without REDIS_URL the counters live in the primary process.
    const { REDIS_URL: _redis, ...inherited } = process.env;
    server = spawn(process.execPath, ["dist/server.mjs"], {
      cwd: root,
      env: { ...inherited, NODE_ENV: "production", DATABASE_URL: database.url, PORT: String(port), HOST: "127.0.0.1", WEB_CONCURRENCY: "2", INNKEEP_API_ONLY: "1", LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    server.stdout!.on("data", (d) => (output += d));
    server.stderr!.on("data", (d) => (output += d));
    exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));
    for (let i = 0; ; i++) {
      const ready = await fetch(`${base}/readyz`).then((r) => r.ok, () => false);
      if (ready) break;
      if (server.exitCode !== null || i > 600) throw new Error(`the server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });
  afterAll(async () => {
    if (server && server.exitCode === null) server.kill("SIGKILL");
    await database?.close();
  });

  it("runs two workers under one primary", () => {
    expect(workerPids(server.pid!)).toHaveLength(2);
  });

  it("counts one account's requests once across the workers", async () => {
    const answers = [];
    for (let i = 0; i < 16; i++) answers.push(await getOnNewConnection(`${base}/v1/guests`, { authorization: `Bearer ${token}` }));
    // Counters per worker would let each worker grant ten, and count down 9, 9, 8, 8, ….
    expect(answers.slice(0, 10).map((a) => [a.status, a.remaining])).toEqual(Array.from({ length: 10 }, (_, i) => [200, String(9 - i)]));
    expect(answers.slice(10).map((a) => a.status)).toEqual(Array(6).fill(429));
  });

  it("stops every process on SIGTERM, and exits 0", async () => {
    const workers = workerPids(server.pid!);
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    for (const pid of workers) expect(() => process.kill(Number(pid), 0)).toThrow();
  });
});
