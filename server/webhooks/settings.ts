import type { Db } from "@/db/client";
import { getConfig, isProduction, type Config } from "@/server/config";
import type { Lookup } from "@/server/url-guard";

/** The specification's delays before attempts 2…8, in seconds: 30 s, 2 m, 10 m, 1 h, 6 h, 24 h, 72 h. */
export const defaultRetrySchedule = [30, 120, 600, 3_600, 21_600, 86_400, 259_200] as const;

/** Eight attempts in all (specification, Delivery and retry). */
export const maxAttempts = 8;

/** Everything the delivery engine is tuned by; from the environment, or given whole by tests. */
export type WebhookSettings = {
  /** Delay in seconds before attempt n+2 (index 0: before attempt 2). */
  retrySchedule: readonly number[];
  /** Refuse private, loopback and link-local destinations (production unless WEBHOOK_ALLOW_PRIVATE_NETWORKS=1). */
  blockPrivateNetworks: boolean;
  breakerWindowSeconds: number;
  breakerMinAttempts: number;
  attemptTimeoutMs: number;
  smtpUrl?: string;
  mailFrom: string;
  /** Delays in seconds before mail attempts 2…n (default `defaultMailRetrySchedule`); its length + 1 attempts in all. */
  mailRetrySchedule?: readonly number[];
};

/** What the engine runs with; the dispatcher and the Inngest functions pass the same. */
export type EngineDeps = { db: Db; settings: WebhookSettings; lookup?: Lookup };

/** An outbox mail gets five tries over about an hour: at once, then after 1, 5, 15 and 40 minutes. */
export const defaultMailRetrySchedule = [60, 300, 900, 2_400] as const;

/**
 * Delays from WEBHOOK_RETRY_SCHEDULE: seven values, or fewer (the last repeats), or more (the
 * first seven are used), so a shortened schedule still makes exactly eight attempts.
 */
export function parseRetrySchedule(value: string | undefined): number[] {
  if (!value) return [...defaultRetrySchedule];
  const delays = value.split(",").map((s) => Number(s.trim()));
  return Array.from({ length: maxAttempts - 1 }, (_, i) => delays[Math.min(i, delays.length - 1)]);
}

export function webhookSettings(config: Config = getConfig()): WebhookSettings {
  return {
    retrySchedule: parseRetrySchedule(config.WEBHOOK_RETRY_SCHEDULE),
    blockPrivateNetworks: isProduction(config) && !config.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    breakerWindowSeconds: config.WEBHOOK_BREAKER_WINDOW_SECONDS,
    breakerMinAttempts: config.WEBHOOK_BREAKER_MIN_ATTEMPTS,
    attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
    smtpUrl: config.SMTP_URL,
    mailFrom: config.MAIL_FROM,
  };
}

/** Seconds to wait before attempt `number` (2…8). */
export function delayBeforeAttempt(settings: Pick<WebhookSettings, "retrySchedule">, number: number): number {
  return settings.retrySchedule[number - 2] ?? 0;
}
