import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accounts, mailOutbox, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { emitEvents } from "@/server/events/emit";
import type { Dispatcher } from "@/server/webhooks/dispatcher";
import { listOutboxMail, queueMail } from "@/server/events/mail-outbox";
import { startHarness, type Harness } from "../support/harness";
import { firstAttemptsOnly, leasedOf, startReceiver, startTestDispatcher, waitFor, type Receiver } from "../support/webhooks";

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
    dispatcher = startTestDispatcher(h.db, { ...firstAttemptsOnly, smtpUrl, breakerMinAttempts: 10 });
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
    const dispatcher = startTestDispatcher(h.db, { ...firstAttemptsOnly, breakerMinAttempts: 10 });
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

// Issue #14, point 7: the notice is sent from the outbox like any durable job. An SMTP server that
// refuses at first gets it later; one that never accepts gets five tries, then none; a notice
// queued by a process that died before sending it still goes out.
describe("breaker notices are retried from the outbox", () => {
  let flaky: SMTPServer;
  let flakyUrl = "";
  const sessions: { to: string; accepted: boolean }[] = [];
  const delivered: { to: string; data: string }[] = [];
  /** Refuses the first `refusals[to]` sessions for a recipient (451, as a busy server does), then accepts. */
  const refusals = new Map<string, number>();
  const mailSchedule = [1, 1, 1, 1];

  beforeAll(async () => {
    flaky = new SMTPServer({
      authOptional: true,
      disabledCommands: ["AUTH", "STARTTLS"],
      onRcptTo(address, _session, callback) {
        const to = address.address;
        const seen = sessions.filter((s) => s.to === to).length;
        const accepted = seen >= (refusals.get(to) ?? 0);
        sessions.push({ to, accepted });
        if (accepted) return callback();
        callback(Object.assign(new Error("Try again later"), { responseCode: 451 }));
      },
      onData(stream, session, callback) {
        let data = "";
        stream.on("data", (c: Buffer) => (data += c.toString()));
        stream.on("end", () => {
          delivered.push({ to: session.envelope.rcptTo[0].address, data });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve));
    flakyUrl = `smtp://127.0.0.1:${(flaky.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => flaky?.close(() => resolve())));

  /** A fresh account whose developer contact is `to`, with an endpoint that answers only 502. */
  async function tripBreaker(name: string, to: string) {
    const account = await h.newAccount(name);
    await h.db.update(accounts).set({ developerContact: to }).where(eq(accounts.id, account.account.id));
    const endpoint = await endpointFailing(`/dead-${name.replace(/\W/g, "")}`, () => 502, account.token);
    await events(10, account.token);
    await waitFor(async () => (await endpointOf(endpoint.id, account.token)).status === "disabled", "breaker open");
    return { account, endpoint };
  }

  it("refused twice, sent on the third try; each attempt recorded and listed", { timeout: 60_000 }, async () => {
    const to = "flaky@test.example";
    refusals.set(to, 2);
    const dispatcher = startTestDispatcher(h.db, { ...firstAttemptsOnly, breakerMinAttempts: 10, smtpUrl: flakyUrl, mailRetrySchedule: mailSchedule });
    try {
      const { account, endpoint } = await tripBreaker("Flaky SMTP Hotels", to);
      const [mail] = await waitFor(async () => {
        const list = await listOutboxMail({ db: h.db, accountId: account.account.id });
        return list[0]?.status === "sent" ? list : undefined;
      }, "the notice sent");
      expect(mail).toMatchObject({ to, status: "sent", error: null, next_attempt_at: null });
      expect(mail.attempts.map((a) => [a.number, a.error === null])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect(mail.attempts[0].error).toMatch(/451|Try again later/);
      // A second apart at least: the schedule, not a tight loop.
      expect(Date.parse(mail.attempts[1].at) - Date.parse(mail.attempts[0].at)).toBeGreaterThanOrEqual(900);
      expect(sessions.filter((s) => s.to === to).map((s) => s.accepted)).toEqual([false, false, true]);
      const received = delivered.filter((d) => d.to === to);
      expect(received).toHaveLength(1);
      expect(received[0].data).toContain(endpoint.id);
    } finally {
      await dispatcher.stop();
    }
  });

  it("a server that never accepts gets five tries, then none", { timeout: 60_000 }, async () => {
    const to = "never@test.example";
    refusals.set(to, 1_000);
    const dispatcher = startTestDispatcher(h.db, { ...firstAttemptsOnly, breakerMinAttempts: 10, smtpUrl: flakyUrl, mailRetrySchedule: mailSchedule });
    try {
      const { account } = await tripBreaker("Never SMTP Hotels", to);
      const [mail] = await waitFor(async () => {
        const list = await listOutboxMail({ db: h.db, accountId: account.account.id });
        return list[0]?.status === "failed" ? list : undefined;
      }, "the notice given up");
      expect(mail.attempts).toHaveLength(5);
      expect(mail.attempts.every((a) => a.error)).toBe(true);
      expect(mail).toMatchObject({ sent_at: null, next_attempt_at: null });
      // "Then none", observed instead of waited for: a mail queued after the give-up goes out,
      // so the sender has claimed due mail since, and the given-up notice was not among it.
      const after = await queueMail(h.db, { accountId: account.account.id, to: "after.never@test.example", subject: "Later", text: "later" });
      await waitFor(async () => {
        const [r] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.id, after));
        return r?.sentAt ?? undefined;
      }, "a later notice sent");
      expect(sessions.filter((s) => s.to === to)).toHaveLength(5);
    } finally {
      await dispatcher.stop();
    }
  });

  it("a notice queued but never sent (the process died after the commit) goes out from the outbox", { timeout: 60_000 }, async () => {
    const to = "orphan@test.example";
    const other = await h.newAccount("Orphan Mail Hotels");
    const id = await queueMail(h.db, { accountId: other.account.id, to, subject: "Webhook endpoint disabled", text: "we_orphan" });
    const dispatcher = startTestDispatcher(h.db, { ...firstAttemptsOnly, smtpUrl: flakyUrl, mailRetrySchedule: mailSchedule });
    try {
      // The row, not the SMTP server's inbox: the server holds the message before the sender has
      // its answer and records the send (reading the row at that moment failed once on PostgreSQL).
      const row = await waitFor(async () => {
        const [r] = await h.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
        return r?.sentAt ? r : undefined;
      }, "the orphaned notice recorded as sent");
      expect(row.attempts).toHaveLength(1);
    } finally {
      await dispatcher.stop();
    }
    expect(delivered.filter((d) => d.to === to)).toHaveLength(1);
  });
});

describe("circuit breaker and the deliveries leased ahead", () => {
  let dispatcher: Dispatcher;
  beforeAll(() => {
    // No SMTP: the notice stays in the outbox (the tests above count the mail sent).
    dispatcher = startTestDispatcher(h.db, { ...firstAttemptsOnly, breakerMinAttempts: 10 });
  });
  afterAll(async () => dispatcher?.stop());

  it("once an endpoint's breaker opens, starts none of the deliveries it had ready for it, and lets them go", async () => {
    const endpoint = await endpointFailing("/dead-ahead", () => 500);
    // 40 at once: 16 in flight and 16 leased ahead as soon as the dispatcher claims.
    await emitEvents(
      h.db,
      { accountId: h.main.account.id, livemode: true, propertyIds: null },
      Array.from({ length: 40 }, (_, i) => ({ type: "guest.created" as const, propertyId: null, object: { id: `gst_ahead${i}`, object: "guest" } })),
    );
    await waitFor(async () => {
      const [e] = await h.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      return e.status === "disabled";
    }, "breaker open");
    await waitFor(async () => (await leasedOf(h.db, endpoint.id)) === 0, "no delivery of the endpoint still leased");
    // 32 were leased (16 sending, 16 ready) and 8 never were. The breaker opens at the 10th failure
    // recorded, and each failure recorded before it frees a slot that starts a ready one: so some of
    // the 16 ready were never started. Were they sent anyway, only the 8 never leased would be left.
    const never = await h.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.endpointId, endpoint.id), eq(webhookDeliveries.attemptCount, 0), eq(webhookDeliveries.status, "queued")));
    expect(never.length).toBeGreaterThan(8);
    expect(attemptsAt("/dead-ahead")).toBe(40 - never.length);
  });
});
