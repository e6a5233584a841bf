import path from "node:path";
import { z } from "zod";
import { parseProxyTrust } from "./proxy-trust";
import { parseSecretKeys } from "./secret-keys";

const flag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** Every environment variable the application reads, validated once. README lists the same. */
const configSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.string().url().optional(),
  /** Connections each server process keeps to PostgreSQL (each cluster worker has its own pool). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).default(10),
  DATA_DIR: z.string().default(".data"),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  REDIS_URL: z.string().url().optional(),
  /** Proxies trusted to say the client's address (server/proxy-trust.ts): `0`, a hop count, or addresses and CIDRs. */
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return parseProxyTrust(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    }),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  NEXTAUTH_SECRET: z.string().optional(),
  NEXTAUTH_URL: z.string().url().optional(),
  /**
   * Worker processes behind the one port on a PostgreSQL server (node:cluster); default: one per
   * core. The embedded database and `npm run dev` always run one process.
   */
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Serve only the Hono routes (/v1, /oauth/token, probes) without Next: tests, benchmarks, API-only hosts. */
  INNKEEP_API_ONLY: flag,
  /** How long the CLI waits for a starting server's control socket or another CLI command. */
  INNKEEP_CLI_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(30),
  /** Webhook retry delays in seconds, comma-separated, one per attempt after the first (default: the specification's schedule). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, "Expected comma-separated whole seconds, e.g. 30,120,600")
    .optional(),
  /** Lets webhook URLs reach private, loopback and link-local addresses in production (self-hosting, tests). */
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag,
  /**
   * Keys that encrypt webhook signing secrets at rest: comma-separated `keyid:base64key` (32 bytes
   * each); the first seals, all open (server/webhooks/secret-box.ts). Required in production.
   */
  WEBHOOK_SECRET_KEYS: z
    .string()
    .optional()
    .superRefine((value, ctx) => {
      if (!value) return;
      try {
        parseSecretKeys(value);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
      }
    }),
  WEBHOOK_BREAKER_WINDOW_SECONDS: z.coerce.number().int().min(1).default(300),
  WEBHOOK_BREAKER_MIN_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  /** Deadline of one delivery attempt (connect, headers and body); 10 s by contract, shorter only for tests. */
  WEBHOOK_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(10_000).default(10_000),
  /** 0 stops this process from dispatching webhooks (another process or Inngest does it). */
  WEBHOOK_DISPATCHER: z.enum(["0", "1"]).default("1").transform((v) => v === "1"),
  /** smtp(s)://user:pass@host:port for the circuit-breaker e-mail; without it mail is kept in the mail outbox. */
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default("Innkeep <no-reply@innkeep.local>"),
  /** Bearer token that /metrics requires; in production /metrics answers 404 without one. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /**
   * Where the Stripe client sends its requests (default Stripe's own API): stripe-mock in tests,
   * as http://127.0.0.1:12111 (README, "Card payments through Stripe").
   */
  STRIPE_API_URL: z.string().url().optional(),
  /**
   * The booking engine's bot check: a guest's form sent sooner than this many seconds after the
   * room was chosen is refused (people take longer to type a name and an e-mail).
   */
  BOOKING_MIN_FILL_SECONDS: z.coerce.number().min(0).max(60).default(3),
  INNGEST_EVENT_KEY: z.string().min(1).optional(),
  INNGEST_SIGNING_KEY: z.string().min(1).optional(),
  /** With INNGEST_BASE_URL: use a local Inngest dev server instead of Inngest Cloud. */
  INNGEST_DEV: flag,
  INNGEST_BASE_URL: z.string().url().optional(),
});

export type Config = z.infer<typeof configSchema>;

let cached: Config | undefined;

export function getConfig(): Config {
  if (cached) return cached;
  const parsed = configSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`).join("\n");
    throw new Error(`Invalid environment:\n${lines}`);
  }
  cached = parsed.data;
  return cached;
}

export const pgliteDir = (config: Config) => path.resolve(config.DATA_DIR, "pglite");
export const isProduction = (config: Config) => config.NODE_ENV === "production";
