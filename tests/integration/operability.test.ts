import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { createApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { onPostgres, testDatabase, testRedisUrl } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { startServer, type Server } from "../support/server-process";

/** Probes and metrics on the app itself, on both databases. */
describe("probes and metrics", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.close());

  it("/healthz says the process is up and /readyz that the database answers", async () => {
    expect(await (await fetch(`${h.baseUrl}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${h.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", database: "ok" });
  });

  it("/metrics counts requests by route template and status, with a latency histogram", async () => {
    const guest = await h.post("/v1/guests", { first_name: "Mia", last_name: "Ops", email: "mia.ops@example.com" });
    await h.get(`/v1/guests/${guest.json.id}`);
    await h.get("/v1/guests/gst_missing");
    const text = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(text).toMatch(/innkeep_http_requests_total\{route="\/guests\/\{id\}",method="GET",status="200"\} [1-9]/);
    expect(text).toMatch(/innkeep_http_requests_total\{route="\/guests\/\{id\}",method="GET",status="404"\} [1-9]/);
    expect(text).toMatch(/innkeep_http_requests_total\{route="\/guests",method="POST",status="201"\} [1-9]/);
    expect(text).toMatch(/innkeep_http_request_duration_seconds_bucket\{le="0\.5",route="\/guests\/\{id\}",method="GET"\} [1-9]/);
  });

  it("/readyz answers 503 once the database is gone", async () => {
    const down = await startHarness();
    try {
      await down.stopDatabase();
      const res = await fetch(`${down.baseUrl}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ status: "unavailable", database: "unreachable" });
    } finally {
      await down.close();
    }
  });
});

// Issue #14, point 5: /metrics tells anyone who reaches the port request counts by route, delivery
// lag and heap. With METRICS_TOKEN it needs that bearer token; in production without one it is hidden.
describe("who may read /metrics", () => {
  const token = "metrics-token-0123456789abcdef";
  const probes = async (h: Harness) => {
    expect((await fetch(`${h.baseUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${h.baseUrl}/readyz`)).status).toBe(200);
  };

  it("production with METRICS_TOKEN: 401 without or with a wrong bearer, 200 with it; probes stay open", async () => {
    const h = await startHarness({ metricsAccess: { token, production: true } });
    try {
      const bare = await fetch(`${h.baseUrl}/metrics`);
      expect(bare.status).toBe(401);
      expect(bare.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await bare.text()).not.toContain("innkeep_");
      for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, "Bearer ", token, h.main.token, `Basic ${token}`]) {
        expect((await fetch(`${h.baseUrl}/metrics`, { headers: { authorization } })).status, authorization).toBe(401);
      }
      const ok = await fetch(`${h.baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("innkeep_http_requests_total");
      await probes(h);
    } finally {
      await h.close();
    }
  });

  it("production without METRICS_TOKEN: 404, whatever the credential; probes stay open", async () => {
    const h = await startHarness({ metricsAccess: { production: true } });
    try {
      expect((await fetch(`${h.baseUrl}/metrics`)).status).toBe(404);
      expect((await fetch(`${h.baseUrl}/metrics`, { headers: { authorization: `Bearer ${h.main.token}` } })).status).toBe(404);
      await probes(h);
    } finally {
      await h.close();
    }
  });

  it("outside production a token is still required once set", async () => {
    const h = await startHarness({ metricsAccess: { token, production: false } });
    try {
      expect((await fetch(`${h.baseUrl}/metrics`)).status).toBe(401);
      expect((await fetch(`${h.baseUrl}/metrics`, { headers: { authorization: `bearer ${token}` } })).status).toBe(200);
    } finally {
      await h.close();
    }
  });
});

// Two server processes need a database both can open: PostgreSQL. (PGlite is one process's.)
describe.skipIf(!onPostgres || !testRedisUrl())("two production servers sharing PostgreSQL and Redis", { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let servers: Server[] = [];
  let key = "";

  beforeAll(async () => {
    database = await testDatabase();
    const account = await createAccount({ db: database.db, input: { name: "Shared Limits", plan: "starter", limits: { perMinute: 6 } } });
    key = (await createApiKey({ db: database.db, input: { accountId: account.id, scopes: [...scopes] } })).key;
    const env = { DATABASE_URL: database.url!, REDIS_URL: testRedisUrl()! };
    servers = await Promise.all([startServer(env), startServer(env)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.close();
  });

  const get = (server: Server, path: string) => fetch(`http://127.0.0.1:${server.port}${path}`, { headers: { authorization: `Bearer ${key}` } });

  it("counts one account's requests across instances in Redis: the seventh in the minute is refused, whichever instance gets it", async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await get(servers[i % 2], "/v1/properties"));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.headers.get("x-ratelimit-remaining"))).toEqual(["5", "4", "3", "2", "1", "0"]);
    const refused = await get(servers[0], "/v1/properties");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await get(servers[1], "/v1/properties")).status).toBe(429);
  });

  it("logs one JSON line per request carrying its request id", async () => {
    const res = await fetch(`http://127.0.0.1:${servers[1].port}/v1/guests`, { headers: { authorization: "Bearer hk_not_a_key" } });
    const requestId = res.headers.get("service-request-id");
    expect(requestId).toMatch(/^req_/);
    const line = await (async () => {
      for (let i = 0; i < 50; i++) {
        const found = servers[1].lines().find((l) => l.request_id === requestId && l.msg === "request");
        if (found) return found;
        await new Promise((r) => setTimeout(r, 100));
      }
      return undefined;
    })();
    expect(line).toMatchObject({ request_id: requestId, method: "GET", path: "/v1/guests", status: 401, service: "innkeep" });
    expect(typeof line!.time).toBe("string");
  });
});
