import type { IncomingMessage } from "node:http";
import type { Db } from "@/db/client";
import type { RateLimits } from "@/server/plans";
import type { ApiError } from "@/server/errors";
import type { Principal } from "@/server/auth/authenticate-token";
import type { CredentialCache } from "@/server/auth/credential-cache";
import type { Logger } from "@/server/observability/logger";
import type { UrlPolicy } from "@/server/url-guard";
import type { ProxyTrust } from "@/server/proxy-trust";
import type { RateCounter, RateState } from "./rate-limit";

/** What the REST app needs from the outside world; tests build their own. */
export type ApiDeps = {
  db: Db;
  limiter: RateCounter;
  /** Valid credentials remembered for up to a second (production); absent: every request asks the database. */
  credentials?: CredentialCache;
  /** Which proxies in front may say the client's address in X-Forwarded-For (TRUST_PROXY); false: none. */
  trustProxy: ProxyTrust;
  /** How webhook URLs are checked at registration; default: from the environment (tests override). */
  webhookUrlPolicy?: UrlPolicy;
  /** Who may read /metrics; default: from the environment (METRICS_TOKEN, NODE_ENV). */
  metricsAccess?: MetricsAccess;
  /** Limits of `/oauth/token` and `/oauth/revoke` per address and per client; default: `oauthLimits` (tests override). */
  oauthLimits?: { failuresByAddress: RateLimits; client: RateLimits };
};

/** `token` set: /metrics needs `Bearer <token>`. Unset: open, except in production where it is hidden. */
export type MetricsAccess = { token?: string; production: boolean };

export type ApiEnv = {
  Bindings: { incoming?: IncomingMessage };
  Variables: {
    deps: ApiDeps;
    requestId: string;
    log: Logger;
    principal?: Principal;
    /** Why authentication failed; thrown by the operation, after rate-limit headers are known. */
    authError?: ApiError | Error;
    livemode: boolean;
    version: string;
    rate?: RateState;
    /** The matched route template, for metrics and logs. */
    route?: string;
  };
};
