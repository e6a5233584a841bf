import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "@/db/schema";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { startHarness, type Harness } from "../support/harness";
import { startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

// Circuit breaker (contract §7): > 95 % 5xx over at least 10 attempts in the window disables
// the endpoint and mails the developer contact once; nothing is dropped meanwhile; re-enable
// resumes. Retries are an hour apart here, so only first attempts count and figures are exact.

let h: Harness;
let receiver: Receiver;
let smtp: SMTPServer;
const mails: { to: string[]; data: string }[] = [];
let smtpUrl = "";
const handlers = new Map<string, (n: number) => number>();

beforeAll(async () => {
  h = await startHarness();
  receiver = await startReceiver((req, res) => {
    const path = req.url!;
    const n = receiver.requests.filter((r) => r.url === path).length;
    res.writeHead(handlers.get(path)?.(n) ?? 200).end();
  });
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["AUTH", "STARTTLS"],
    onData(stream, session, callback) {
      let data = "";
      stream.on("data", (c: Buffer) => (data += c.toString()));
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await receiver?.close();
  await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  await h?.close();
});

const hourly = [3600, 3600, 3600, 3600, 3600, 3600, 3600];
let g = 0;

async function endpointFailing(path: string, status: (n: number) => number, token?: string) {
  handlers.set(path, status);
  const res = await h.post("/v1/webhook_endpoints", { url: `${receiver.url}${path}`, enabled_events: ["guest.created"] }, { token });
  expect(res.status, res.text).toBe(201);
  return res.json;
}
async function events(count: number, token?: string) {
  for (let i = 0; i < count; i++) await h.post("/v1/guests", { first_name: "B", last_name: "K", email: `breaker${++g}@example.com` }, { token });
}
const attemptsAt = (path: string) => receiver.requests.filter((r) => r.url === path).length;
const endpointOf = async (id: string, token?: string) => (await h.get(`/v1/webhook_endpoints/${id}`, { token })).json;

describe("circuit breaker", () => {
  let dispatcher: Dispatcher;
  beforeAll(() => {
    dispatcher = startTestDispatcher(h.db, { retrySchedule: hourly, smtpUrl, breakerMinAttempts: 10 });
  });
  afterAll(async () => dispatcher?.stop());

  it("does not open below the minimum of attempts, nor at 95 % or below", async () => {
    const few = await endpointFailing("/few", () => 500);
    const most = await endpointFailing("/most", (n) => (n === 1 ? 200 : 500)); // 19 of 20: exactly 95 %
    await events(9);
    await waitFor(() => attemptsAt("/few") === 9 && attemptsAt("/most") === 9, "9 attempts each");
    expect((await endpointOf(few.id)).status).toBe("enabled");
    await h.del(`/v1/webhook_endpoints/${few.id}`);
    await events(11);
    await waitFor(() => attemptsAt("/most") === 20, "20 attempts");
    const d = await waitFor(async () => {
      const list = (await h.get(`/v1/webhook_endpoints/${most.id}/deliveries?limit=100`)).json.data;
      return list.filter((x: { attempts: unknown[] }) => x.attempts.length === 1).length === 20 ? list : undefined;
    }, "20 recorded attempts");
    expect(d).toHaveLength(20);
    expect((await endpointOf(most.id)).status).toBe("enabled");
    await h.del(`/v1/webhook_endpoints/${most.id}`);
    expect(mails).toHaveLength(0);
  });

  it("opens above 95 % with 10 attempts, mails the developer contact once, keeps new events waiting, and resumes on re-enable", async () => {
    const endpoint = await endpointFailing("/dead", () => 500);
    await events(10);
    const disabled = await waitFor(async () => {
      const e = await endpointOf(endpoint.id);
      return e.status === "disabled" ? e : undefined;
    }, "breaker open");
    expect(disabled.disabled_reason).toBe("circuit_breaker");
    await waitFor(() => mails.length === 1, "one e-mail");
    expect(mails[0].to).toEqual(["dev@test.example"]);
    expect(mails[0].data).toContain(endpoint.id);

    // Events while disabled: recorded as waiting deliveries, not attempted, not dropped.
    const attemptsBefore = attemptsAt("/dead");
    await events(3);
    const waiting = await waitFor(async () => {
      const list = (await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?status=queued&limit=100`)).json.data;
      return list.filter((d: { attempts: unknown[] }) => d.attempts.length === 0).length >= 3 ? list : undefined;
    }, "three waiting deliveries");
    expect(waiting.length).toBeGreaterThanOrEqual(3);
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/innkeep_webhook_deliveries_waiting\{state="endpoint_disabled"\} ([1-9]\d*)/);
    expect(metrics).toMatch(/innkeep_webhook_attempts_total\{outcome="retry"\} [1-9]/);
    expect(metrics).toMatch(/innkeep_webhook_delivery_lag_seconds_count [1-9]/);
    expect(attemptsAt("/dead")).toBe(attemptsBefore);

    handlers.set("/dead", () => 200);
    const enabled = await h.post(`/v1/webhook_endpoints/${endpoint.id}/enable`);
    expect(enabled.json).toMatchObject({ status: "enabled", disabled_reason: null });
    await waitFor(async () => {
      const pending = [
        ...(await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?status=queued&limit=100`)).json.data,
        ...(await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?status=retry_scheduled&limit=100`)).json.data,
      ];
      return pending.length === 0;
    }, "every waiting delivery delivered");
    const all = (await h.get(`/v1/webhook_endpoints/${endpoint.id}/deliveries?limit=100`)).json.data;
    expect(all).toHaveLength(13);
    expect(all.every((d: { status: string }) => d.status === "succeeded")).toBe(true);
    expect(mails).toHaveLength(1);
    const [stored] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.accountId, h.main.account.id));
    expect(stored.sentAt).not.toBeNull();
  });
});

describe("circuit breaker without SMTP", () => {
  it("keeps the notice in the mail outbox", async () => {
    const dispatcher = startTestDispatcher(h.db, { retrySchedule: hourly, breakerMinAttempts: 10 });
    try {
      const other = await h.newAccount("No SMTP Hotels");
      const endpoint = await endpointFailing("/dead-no-smtp", () => 502, other.token);
      await events(10, other.token);
      await waitFor(async () => (await endpointOf(endpoint.id, other.token)).status === "disabled", "breaker open");
      const rows = await waitFor(async () => {
        const r = await h.db.select().from(mailOutbox).where(eq(mailOutbox.accountId, other.account.id));
        return r.length ? r : undefined;
      }, "mail stored");
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ to: "dev@test.example", sentAt: null });
      expect(rows[0].subject).toContain("disabled");
      expect(mails).toHaveLength(1); // still only the first test's
    } finally {
      await dispatcher.stop();
    }
  });
});
