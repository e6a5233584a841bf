import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onPostgres, testDatabase } from "../support/database";

/**
 * The CLI and the production entry as an operator runs them: child processes on a temporary
 * DATA_DIR (PGlite project) or a fresh PostgreSQL database (postgres project).
 */
const root = process.cwd();
type Env = Record<string, string | undefined>;

function childEnv(extra: Env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", INNKEEP_API_ONLY: "1" };
  for (const name of ["DATABASE_URL", "DATA_DIR", "ADMIN_PASSWORD", "REDIS_URL", "PORT", "VITEST", "VITEST_POOL_ID", "VITEST_WORKER_ID"]) delete env[name];
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return env;
}

function tsx(script: string, args: string[], env: Env): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", script, ...args], { cwd: root, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] });
}

async function cli(args: string[], env: Env) {
  return collect(tsx("scripts/innkeep.ts", args, env));
}

/** Any command, as an operator types it (npm on the PATH). */
async function run(command: string, args: string[], env: Env) {
  return collect(spawn(command, args, { cwd: root, env: childEnv(env), stdio: ["ignore", "pipe", "pipe"] }));
}

async function collect(child: ChildProcess) {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const json = () => JSON.parse(stdout);
  return { code, stdout, stderr, json };
}

type Server = { port: number; child: ChildProcess; log: () => string; stop(): Promise<number | null> };

async function startServer(env: Env): Promise<Server> {
  const child = tsx("server/main.ts", [], { PORT: "0", HOST: "127.0.0.1", ...env });
  let out = "";
  child.stderr!.on("data", (d) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = "";
    child.stdout!.on("data", (d) => {
      buffered += d;
      out += d;
      const line = buffered.split("\n").find((l) => l.includes('"msg":"listening"'));
      if (line) resolve(JSON.parse(line).port);
    });
    child.on("exit", (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { port, child, log: () => out, stop: () => (child.kill("SIGTERM"), exited) };
}

async function propertiesWith(port: number, key: string) {
  const res = await fetch(`http://127.0.0.1:${port}/v1/properties`, { headers: { authorization: `Bearer ${key}`, "service-environment": "sandbox" } });
  return { status: res.status, body: (await res.json()) as { data: { name: string }[] } };
}

describe.skipIf(onPostgres)("CLI on the embedded database", { timeout: 120_000 }, () => {
  let dataDir: string;
  const env = () => ({ DATA_DIR: dataDir, ADMIN_PASSWORD: "correct-horse-battery" });
  const lockFile = () => path.join(dataDir, "innkeep.lock");

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), "innkeep-cli-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("opens the folder itself when no server runs, and lets go of it", async () => {
    const seeded = await cli(["db", "seed", "--json"], env());
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.json()).toMatchObject({ seeded: true, admin: { email: "admin@example.com", password: null } });
    expect(seeded.json().api_key).toMatch(/^hk_/);

    const account = await cli(["accounts", "create", "--name", "Harbor Group", "--plan", "scale", "--per-minute", "600", "--json"], env());
    expect(account.code, account.stderr).toBe(0);
    expect(account.json()).toMatchObject({ name: "Harbor Group", plan: "scale" });
    expect(account.json().id).toMatch(/^acct_/);
    expect(existsSync(lockFile())).toBe(false);

    // Issue 40, point 4: the form the usage and README show pipes cleanly, npm's banner and all:
    // stdout is the JSON alone. (Plain `npm run` prints "> innkeep@… innkeep" on stdout first.)
    const usageLine = (await cli(["--help"], env())).stdout.split("\n")[0];
    expect(usageLine).toBe("Usage: npm run --silent innkeep -- <command> [flags] [--json]");
    const argv = usageLine.replace("Usage: ", "").split(" ").slice(0, 5); // npm run --silent innkeep --
    const piped = await run(argv[0], [...argv.slice(1), "accounts", "create", "--name", "Piped Inn", "--json"], env());
    expect(piped.code, piped.stderr).toBe(0);
    expect(JSON.parse(piped.stdout)).toMatchObject({ name: "Piped Inn", plan: expect.any(String) });
  });

  it("refuses bad flags with the command's usage and exit status 2", async () => {
    const unknown = await cli(["api-keys", "create", "--scope", "rooms:read"], env());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--scope'");
    expect(unknown.stderr).toContain("Usage: npm run --silent innkeep -- api-keys create");
    const scope = await cli(["api-keys", "create", "--scopes", "rooms:read rooms:fly", "--json"], env());
    expect(scope.code).toBe(2);
    expect(JSON.parse(scope.stderr).error.message).toBe("Unknown scope: rooms:fly.");
    const command = await cli(["rooms", "create"], env());
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("Unknown command 'rooms create'");
  });

  it("takes over a lock left by a process that died", async () => {
    writeFileSync(lockFile(), JSON.stringify({ pid: 2 ** 22 - 3, role: "server", socket: path.join(dataDir, "gone.sock"), started_at: "2026-01-01T00:00:00Z" }));
    const result = await cli(["users", "create", "--email", "frontdesk@example.com", "--password", "desk-pass-123", "--role", "front_desk", "--json"], env());
    expect(result.code, result.stderr).toBe(0);
    expect(result.json()).toMatchObject({ email: "frontdesk@example.com", role: "front_desk" });
    expect(existsSync(lockFile())).toBe(false);
  });

  it("refuses, without touching the folder, when a live process holds it and does not answer", async () => {
    writeFileSync(lockFile(), JSON.stringify({ pid: process.pid, role: "server", socket: path.join(dataDir, "silent.sock"), started_at: new Date().toISOString() }));
    try {
      const result = await cli(["db", "migrate"], { ...env(), INNKEEP_CLI_WAIT_SECONDS: "1" });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`held by process ${process.pid} (an Innkeep server`);
      expect(result.stderr).toContain("does not answer");
      expect(result.stderr).toContain("nothing was done");
    } finally {
      rmSync(lockFile(), { force: true });
    }
  });

  describe("with the server running", () => {
    let server: Server;
    beforeAll(async () => {
      server = await startServer(env());
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
    });

    it("holds the lock and a private control socket", () => {
      const lock = JSON.parse(readFileSync(lockFile(), "utf8"));
      expect(lock).toMatchObject({ pid: server.child.pid, role: "server", socket: path.join(dataDir, "innkeep.sock") });
      expect(statSync(lock.socket).isSocket()).toBe(true);
      expect(statSync(lock.socket).mode & 0o777).toBe(0o600);
    });

    it("has the server carry out the command, and the key it prints works", async () => {
      const created = await cli(["api-keys", "create", "--scopes", "rooms:read", "--name", "ci", "--json"], env());
      expect(created.code, created.stderr).toBe(0);
      const key = created.json();
      expect(key).toMatchObject({ scopes: ["rooms:read"], allowed_ips: [] });
      expect(server.log()).toContain('"command":"api-keys create"');

      const res = await propertiesWith(server.port, key.key);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p) => p.name)).toEqual(["Sandbox Harbor Hotel"]);
    });

    it("reports the server's refusal as its own", async () => {
      const dup = await cli(["users", "create", "--email", "frontdesk@example.com", "--password", "another-pass", "--role", "manager"], env());
      expect(dup.code).toBe(1);
      expect(dup.stderr).toContain("carried out by the running Innkeep server");
      expect(dup.stderr).toContain("already exists");
    });

    it("refuses a second server on the same folder", async () => {
      const second = tsx("server/main.ts", [], { ...env(), PORT: "0", HOST: "127.0.0.1" });
      let err = "";
      second.stderr!.on("data", (d) => (err += d));
      const code = await new Promise<number | null>((resolve) => second.on("exit", resolve));
      expect(code).toBe(1);
      expect(err).toContain("another server is running on it");
    });

    it("lets go of the lock and the socket on SIGTERM", async () => {
      const code = await server.stop();
      expect(code).toBe(0);
      expect(existsSync(lockFile())).toBe(false);
      expect(existsSync(path.join(dataDir, "innkeep.sock"))).toBe(false);
    });
  });
});

describe.runIf(onPostgres)("CLI on PostgreSQL", { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let server: Server;
  const env = () => ({ DATABASE_URL: database.url });

  beforeAll(async () => {
    database = await testDatabase({ max: 2 });
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
  });

  it("connects directly, with or without a server running", async () => {
    const seeded = await cli(["db", "seed", "--json"], env());
    expect(seeded.code, seeded.stderr).toBe(0);
    // Production with no ADMIN_PASSWORD: no user with a default password.
    expect(seeded.json()).toMatchObject({ seeded: true, admin: null });

    server = await startServer(env());
    const created = await cli(["api-keys", "create", "--scopes", "rooms:read reservations:read", "--allow-ip", "127.0.0.1", "--allow-ip", "::1", "--json"], env());
    expect(created.code, created.stderr).toBe(0);
    expect(created.json().allowed_ips).toEqual(["127.0.0.1/32", "::1/128"]);
    expect(created.stderr).not.toContain("carried out by the running");
    const res = await propertiesWith(server.port, created.json().key);
    expect(res.status).toBe(200);
    expect(res.body.data[0].name).toBe("Sandbox Harbor Hotel");

    const migrate = await cli(["db", "migrate", "--json"], env());
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.json()).toMatchObject({ applied: 0, database: "postgres" });
  }, 120_000);
});
