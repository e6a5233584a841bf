import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookDeliveries } from "@/db/schema";
import { startDispatcher, type Dispatcher } from "@/server/webhooks/dispatcher";
import type { WebhookSettings } from "@/server/webhooks/settings";
import type { Lookup } from "@/server/url-guard";

export type Received = { method: string; url: string; headers: http.IncomingHttpHeaders; body: string; n: number };
export type Respond = (req: IncomingMessage, res: ServerResponse, received: Received) => void;

/** A real node:http receiver on 127.0.0.1 that records every request and answers as told. */
export async function startReceiver(respond: Respond = (_req, res) => res.end("ok")) {
  const requests: Received[] = [];
  let handler = respond;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), n: requests.length + 1 };
      requests.push(received);
      handler(req, res, received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** Requests whose body is the event with this id. */
    forEvent: (eventId: string) => requests.filter((r) => r.body.includes(`"id":"${eventId}"`)),
    setHandler(next: Respond) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls until `check` returns something truthy; fails with `message` after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T | undefined | null | false> | T | undefined | null | false, message: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting: ${message}${last ? ` (last error: ${(last as Error).message})` : ""}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

/** Engine settings for tests: one-second retries, a 1.5 s deadline, private networks allowed. */
export function testSettings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  return {
    retrySchedule: [1, 1, 1, 1, 1, 1, 1],
    blockPrivateNetworks: false,
    breakerWindowSeconds: 300,
    breakerMinAttempts: 10,
    attemptTimeoutMs: 1_500,
    mailFrom: "Innkeep <no-reply@innkeep.test>",
    ...overrides,
  };
}

/**
 * For tests whose figures must be exact: retries an hour apart (only first attempts happen), and a
 * deadline no loaded machine reaches, for a timed-out attempt counts as a server error and would
 * then wait an hour (in CI, on PGlite, one passed the usual 1.5 s and its test timed out).
 */
export const firstAttemptsOnly: Partial<WebhookSettings> = { retrySchedule: [3600, 3600, 3600, 3600, 3600, 3600, 3600], attemptTimeoutMs: 20_000 };

export function startTestDispatcher(db: Db, overrides: Partial<WebhookSettings> = {}, options: { concurrency?: number; lookup?: Lookup } = {}): Dispatcher {
  return startDispatcher({ db, settings: testSettings(overrides), pollMs: 30, concurrency: options.concurrency, lookup: options.lookup });
}

/** How many of an endpoint's deliveries some dispatcher holds a lease on. */
export async function leasedOf(db: Db, endpointId: string): Promise<number> {
  const rows = await db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(and(eq(webhookDeliveries.endpointId, endpointId), isNotNull(webhookDeliveries.leaseToken)));
  return rows.length;
}
