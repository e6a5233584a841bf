// A child process for tests/integration/stripe-crash.test.ts: the real /v1 app on the PostgreSQL
// database of DATABASE_URL, which kills itself (SIGKILL, as a power cut would) once Stripe has
// answered a card charge and its payment row is written, at the moment that transaction would
// commit: the charge exists at Stripe, and nothing of it in Innkeep. Prints the port it listens on.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { openDatabase } from "@/db/client";
import { createApp } from "@/server/api/app";
import { RateLimiter } from "@/server/http/rate-limit";

let charged = false;
const database = await openDatabase({
  url: process.env.DATABASE_URL!,
  migrate: false,
  onStatement(text) {
    // The payment's insert follows Stripe's answer (server/payments/payments.ts).
    if (/^insert into "payments"/i.test(text)) charged = true;
    else if (charged && /^commit/i.test(text.trim())) process.kill(process.pid, "SIGKILL");
  },
});
const none = { perSecond: null, perMinute: null, perDay: null };
const app = createApp({ db: database.db, limiter: new RateLimiter(), trustProxy: false, oauthLimits: { failuresByAddress: none, client: none } });
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
