import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve, type ServerType } from "@hono/node-server";
import { createAccount } from "@/server/accounts/create-account";
import type { Plan } from "@/server/plans";
import { createApiKey } from "@/server/auth/api-keys";
import { scopes, type Scope } from "@/server/auth/scopes";
import type { CredentialCache } from "@/server/auth/credential-cache";
import { createApp } from "@/server/api/app";
import type { ProxyTrust } from "@/server/proxy-trust";
import { answerClientError, holdIdleConnections } from "@/server/listener";
import type { ApiDeps, MetricsAccess } from "@/server/http/context";
import { RateLimiter } from "@/server/http/rate-limit";
import type { UrlPolicy } from "@/server/webhook-endpoints/endpoints";
import { testDatabase } from "./database";
import { recordingHeaderReads, takeHeaderDrift, undocumented } from "./openapi-validator";

export type Harness = Awaited<ReturnType<typeof startHarness>>;
type RequestOptions = { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string>; sandbox?: boolean };

/**
 * The real app on a real socket over a fresh database, with one account (all scopes) ready.
 * Tests speak HTTP to it exactly as an integrator would.
 */
const noLimits = { perSecond: null, perMinute: null, perDay: null };

export async function startHarness(
  options: { trustProxy?: ProxyTrust; oauthLimits?: ApiDeps["oauthLimits"]; limiter?: RateLimiter; max?: number; webhookUrlPolicy?: UrlPolicy; metricsAccess?: MetricsAccess; credentials?: CredentialCache } = {},
) {
  const database = await testDatabase({ max: options.max });
  let databaseOpen = true;
  const deps: ApiDeps = {
    db: database.db,
    limiter: options.limiter ?? new RateLimiter(),
    trustProxy: options.trustProxy ?? false,
    webhookUrlPolicy: options.webhookUrlPolicy,
    metricsAccess: options.metricsAccess,
    credentials: options.credentials,
    // OAuth suites make dozens of deliberately failing token requests from one address; the
    // limits themselves are tested with small ones (bad-input.test.ts).
    oauthLimits: options.oauthLimits ?? { failuresByAddress: noLimits, client: noLimits },
  };
  const app = createApp(deps);
  const server: ServerType = await new Promise((resolve) => {
    // Every request header the app reads is recorded and compared with the operation's declared parameters.
    const s = serve({ fetch: recordingHeaderReads(app.fetch), port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  // As the production listener does (server/process/start.ts): what Node's parser refuses gets the
  // contract's error, and idle connections outlive the client's (fetch reused one the server was
  // closing after Node's 5 s on a loaded machine: ECONNRESET).
  server.on("clientError", answerClientError);
  holdIdleConnections(server as Server);
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function newAccount(name = "Test Hotels", plan: Plan = "scale", limits?: { perSecond?: number; perMinute?: number; perDay?: number }) {
    const account = await createAccount({ db: database.db, input: { name, plan, limits, developerContact: "dev@test.example" } });
    const key = await createApiKey({ db: database.db, input: { accountId: account.id, scopes: [...scopes] } });
    return { account, token: key.key, keyId: key.id };
  }
  const main = await newAccount();

  async function keyWith(keyScopes: Scope[], allowedIps: string[] = [], accountId = main.account.id) {
    return (await createApiKey({ db: database.db, input: { accountId, scopes: keyScopes, allowedIps } })).key;
  }

  /** One HTTP request; answers status, headers and the parsed JSON body. */
  async function request(method: string, path: string, opts: RequestOptions = {}) {
    const headers: Record<string, string> = { ...opts.headers };
    const token = opts.token === undefined ? main.token : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    if (opts.sandbox) headers["service-environment"] = "sandbox";
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers["content-type"] ??= "application/json";
    }
    const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    // Every answer must be one the served document describes: a drift fails the test that met it.
    const drift = await undocumented({ method, path, status: res.status, contentType: res.headers.get("content-type"), text, headers: res.headers, requestHeaders: headers });
    drift.push(...takeHeaderDrift());
    if (drift.length) throw new Error(`The answer is not what /v1/openapi.json describes:\n  ${drift.join("\n  ")}\n${text.slice(0, 500)}`);
    let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, json, text };
  }

  return {
    db: database.db,
    kind: database.kind,
    /** The PostgreSQL database's URL (absent on PGlite), for a second "process" on it. */
    databaseUrl: database.url,
    baseUrl,
    main,
    newAccount,
    keyWith,
    request,
    get: (path: string, opts?: RequestOptions) => request("GET", path, opts),
    post: (path: string, body?: unknown, opts?: RequestOptions) => request("POST", path, { ...opts, body }),
    patch: (path: string, body?: unknown, opts?: RequestOptions) => request("PATCH", path, { ...opts, body }),
    put: (path: string, body?: unknown, opts?: RequestOptions) => request("PUT", path, { ...opts, body }),
    del: (path: string, opts?: RequestOptions) => request("DELETE", path, opts),
    /** Closes the database under the running app, to see how it answers when storage is gone. */
    async stopDatabase() {
      if (databaseOpen) {
        databaseOpen = false;
        await database.close();
      }
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (databaseOpen) await database.close();
      databaseOpen = false;
      // Requests a test sent past `request` (a raw fetch) are held to the same: no undeclared header read.
      const reads = takeHeaderDrift();
      if (reads.length) throw new Error(`Request headers read but not declared in /v1/openapi.json:\n  ${reads.join("\n  ")}`);
    },
  };
}
