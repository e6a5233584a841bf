import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/server/accounts/create-account";
import { createApiKey, revokeApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { eq } from "drizzle-orm";
import { webhookDeliveries } from "@/db/schema";
import { onPostgres, testDatabase, testRedisUrl } from "../support/database";
import { waitFor } from "../support/webhooks";
import { startServer, type Server } from "../support/server-process";

// Issue 26, point 8: two separate server instances (two processes, not one cluster), as a user
// outgrowing one machine runs them behind a load balancer, on one PostgreSQL and one Redis. Both
// run the webhook dispatcher. (The shared rate limit is in operability.test.ts.)
describe.skipIf(!onPostgres || !testRedisUrl())("two instances on one PostgreSQL and one Redis", { timeout: 180_000 }, () => {
  let database: Awaited<ReturnType<typeof testDatabase>>;
  let servers: Server[] = [];
  let accountId = "";
  let key = "";
  let keyId = "";
  let deliveryKey = "";
  let receiver: http.Server;
  let receiverUrl = "";
  const received: string[] = [];

  beforeAll(async () => {
    database = await testDatabase();
    const account = await createAccount({ db: database.db, input: { name: "Two Instances", plan: "scale", limits: { perSecond: 1000, perMinute: 10_000 } } });
    accountId = account.id;
    const created = await createApiKey({ db: database.db, input: { accountId, scopes: [...scopes] } });
    key = created.key;
    keyId = created.id;
    // The delivery test's own key: the revocation test revokes the first.
    deliveryKey = (await createApiKey({ db: database.db, input: { accountId, scopes: [...scopes] } })).key;
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        received.push((JSON.parse(body) as { id: string }).id);
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const env = { DATABASE_URL: database.url!, REDIS_URL: testRedisUrl()!, WEBHOOK_DISPATCHER: "1", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1" };
    servers = await Promise.all([startServer(env), startServer(env)]);
  }, 180_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
  });

  const call = (server: Server, method: string, path: string, body?: unknown, token = key) =>
    fetch(`http://127.0.0.1:${server.port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  it("a key revoked through one process is refused by both instances within a second", async () => {
    for (const server of servers) expect((await call(server, "GET", "/v1/guests?limit=1")).status).toBe(200); // both have it cached
    expect(await revokeApiKey({ db: database.db, accountId, id: keyId })).toBe(true);
    await new Promise((r) => setTimeout(r, 1000));
    for (const server of servers) {
      const res = await call(server, "GET", "/v1/guests?limit=1");
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("token_revoked");
    }
  });

  it("delivers each event exactly once, whichever instance wrote it, though both dispatch (last: it stops both)", async () => {
    const endpoint = await call(servers[0], "POST", "/v1/webhook_endpoints", { url: receiverUrl, enabled_events: ["guest.created"] }, deliveryKey);
    expect(endpoint.status, await endpoint.clone().text()).toBe(201);
    for (let i = 0; i < 20; i++) {
      const res = await call(servers[i % 2], "POST", "/v1/guests", { first_name: "Twin", last_name: `Guest ${i}`, email: `twin.${i}@example.com` }, deliveryKey);
      expect(res.status).toBe(201);
    }
    for (let i = 0; new Set(received).size < 20; i++) {
      if (i > 600) throw new Error(`only ${new Set(received).size} of 20 events arrived`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // "None comes twice", observed rather than waited for: each delivery is settled after one
    // attempt (a settled delivery is never claimed again), and once both processes have exited (a
    // stop lets every send in flight finish) nothing more can arrive; the receiver holds 20.
    const settled = await waitFor(async () => {
      const rows = await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.accountId, accountId));
      return rows.length === 20 && rows.every((r) => r.status === "succeeded" && r.leaseToken === null) ? rows : undefined;
    }, "20 deliveries settled");
    expect(settled.map((r) => r.attemptCount)).toEqual(Array(20).fill(1));
    await Promise.all(servers.map((s) => s.stop()));
    expect(received).toHaveLength(20);
    expect(new Set(received).size).toBe(20);
  });
});
