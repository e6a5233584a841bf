// A child process for tests/integration/idempotency-crash.test.ts: the real /v1 app on the
// PostgreSQL database of DATABASE_URL, which kills itself (SIGKILL, as a power cut would) at the
// moment an idempotent request's transaction would commit: after the work's statements and its
// stored answer, before the COMMIT leaves the process. Prints the port it listens on.
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { openDatabase } from "@/db/client";
import { createApp } from "@/server/api/app";
import { RateLimiter } from "@/server/http/rate-limit";

let answered = false;
const database = await openDatabase({
  url: process.env.DATABASE_URL!,
  migrate: false,
  onStatement(text) {
    if (/^update "idempotency_keys"/i.test(text)) answered = true;
    else if (answered && /^commit/i.test(text.trim())) process.kill(process.pid, "SIGKILL");
  },
});
const none = { perSecond: null, perMinute: null, perDay: null };
const app = createApp({ db: database.db, limiter: new RateLimiter(), trustProxy: false, oauthLimits: { failuresByAddress: none, client: none } });
const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
