import dns, { type LookupAddress } from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookEndpoints } from "@/db/schema";
import type { Config } from "@/server/config";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { webhookSettings } from "@/server/webhooks/settings";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// SSRF rules of contract §7 in production mode: at registration, and again on the resolved
// address at every connection (a host that resolved to a public address at registration and
// to 127.0.0.1 now is refused: no DNS rebinding).

/** A resolver where rebind.test answers a public address once, then 127.0.0.1 forever. */
let rebindCalls = 0;
const fixed: Record<string, string> = { "loop.test": "127.0.0.1", "hooks.example.com": "93.184.216.34" };
const lookup = ((host: string, options: { all?: boolean }, callback: (e: Error | null, a: LookupAddress[] | string, f?: number) => void) => {
  if (host !== "rebind.test" && !fixed[host]) return dns.lookup(host, options as never, callback as never);
  const address = host === "rebind.test" ? (rebindCalls++ === 0 ? "93.184.216.34" : "127.0.0.1") : fixed[host];
  if (options?.all) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
}) as never;

let h: Harness;
let receiver: Receiver;
let dispatcher: Dispatcher;

beforeAll(async () => {
  h = await startHarness({ webhookUrlPolicy: { blockPrivateNetworks: true, lookup } });
  receiver = await startReceiver();
  dispatcher = startTestDispatcher(h.db, { blockPrivateNetworks: true }, { lookup });
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await h?.close();
});

const register = (url: string) => h.post("/v1/webhook_endpoints", { url, enabled_events: ["*"] });

describe("SSRF at registration", () => {
  const blocked = [
    "http://127.0.0.1/h", "http://127.1.2.3:8080/h", "http://10.0.0.8/h", "http://172.16.0.1/h", "http://172.31.9.9/h", "http://192.168.1.10/h",
    "http://100.64.0.1/h", "http://100.100.100.200/h", "http://169.254.169.254/latest/meta-data", "http://0.0.0.0/h", "http://224.0.0.1/h",
    "http://[::1]/h", "http://[::]/h", "http://[fe80::1]/h", "http://[fc00::1]/h", "http://[fd00:ec2::254]/h", "http://[ff02::1]/h",
    "http://[::ffff:127.0.0.1]/h", "http://[::ffff:a9fe:a9fe]/h", "http://[::ffff:10.1.1.1]/h",
    "http://localhost:3000/h", "http://loop.test/h",
  ];
  it.each(blocked)("refuses %s with 422 url_not_allowed", async (url) => {
    expectError(await register(url), 422, "url_not_allowed", "url");
  });

  it("accepts a public address and a host that resolves to one", async () => {
    for (const url of ["https://93.184.216.34/hooks", "https://hooks.example.com/in"]) {
      const res = await register(url);
      expect(res.status).toBe(201);
      await h.del(`/v1/webhook_endpoints/${res.json.id}`);
    }
  });

  it("checks a changed URL too", async () => {
    const e = (await register("https://hooks.example.com/a")).json;
    expectError(await h.patch(`/v1/webhook_endpoints/${e.id}`, { url: "http://169.254.169.254/" }), 422, "url_not_allowed", "url");
    await h.del(`/v1/webhook_endpoints/${e.id}`);
  });
});

describe("SSRF at every connection", () => {
  it("refuses to connect when the name now resolves to 127.0.0.1 (DNS rebinding)", async () => {
    const res = await register(`http://rebind.test:${receiver.port}/hook`);
    expect(res.status, res.text).toBe(201);
    await h.post("/v1/guests", { first_name: "R", last_name: "B", email: "rebind@example.com" });
    const d = await waitFor(async () => (await h.get(`/v1/webhook_endpoints/${res.json.id}/deliveries`)).json.data[0]?.attempts[0], "an attempt");
    expect(d.response_status).toBeNull();
    expect(d.error).toMatch(/refused to connect to rebind\.test \(127\.0\.0\.1\): loopback/);
    expect(receiver.requests).toHaveLength(0);
  });

  it("refuses a stored IP literal in a blocked range before connecting", async () => {
    const [e] = await h.db
      .insert(webhookEndpoints)
      .values({ id: "we_literal", accountId: h.main.account.id, livemode: true, url: `http://127.0.0.1:${receiver.port}/x`, enabledEvents: ["*"], apiVersion: "2025-09-01" })
      .returning();
    await h.post("/v1/guests", { first_name: "L", last_name: "T", email: "literal@example.com" });
    const attempt = await waitFor(async () => (await h.get(`/v1/webhook_endpoints/${e.id}/deliveries`)).json.data[0]?.attempts[0], "an attempt");
    expect(attempt.error).toMatch(/loopback/);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe("when the rules apply", () => {
  const config = (env: Partial<Config>) => ({ WEBHOOK_BREAKER_WINDOW_SECONDS: 300, WEBHOOK_BREAKER_MIN_ATTEMPTS: 10, WEBHOOK_ATTEMPT_TIMEOUT_MS: 10_000, MAIL_FROM: "x", ...env }) as Config;
  it("only in production, unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=1", () => {
    expect(webhookSettings(config({ NODE_ENV: "production" })).blockPrivateNetworks).toBe(true);
    expect(webhookSettings(config({ NODE_ENV: "production", WEBHOOK_ALLOW_PRIVATE_NETWORKS: true })).blockPrivateNetworks).toBe(false);
    expect(webhookSettings(config({ NODE_ENV: "development" })).blockPrivateNetworks).toBe(false);
    expect(webhookSettings(config({ NODE_ENV: "test" })).blockPrivateNetworks).toBe(false);
  });
});
