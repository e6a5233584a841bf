import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";
import { events } from "./events";

/** A subscriber URL with its event selector (contract §7). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    url: text("url").notNull(),
    description: text("description"),
    /** `["*"]` or event types. */
    enabledEvents: text("enabled_events").array().notNull(),
    apiVersion: text("api_version").notNull(),
    status: text("status", { enum: ["enabled", "disabled"] }).notNull().default("enabled"),
    disabledReason: text("disabled_reason", { enum: ["circuit_breaker", "manual"] }),
    /** When it was last disabled (by the breaker or by hand); null while enabled. */
    disabledAt: ts("disabled_at"),
    /** When it was last (re-)enabled: the circuit breaker only weighs attempts after it. */
    enabledAt: ts("enabled_at").notNull().defaultNow(),
    ...timestamps(),
  },
  (t) => [index("webhook_endpoints_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id)],
);

/**
 * Signing secrets, sealed with AES-256-GCM under WEBHOOK_SECRET_KEYS (server/webhooks/secret-box.ts):
 * HMAC signing needs the secret itself, so it cannot be hashed. During a rotation the
 * old ones carry an `expires_at`, and each delivery is signed with every unexpired one.
 */
export const webhookSecrets = pgTable(
  "webhook_secrets",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    secret: text("secret").notNull(),
    expiresAt: ts("expires_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("webhook_secrets_endpoint_idx").on(t.endpointId)],
);

export const deliveryStatuses = ["queued", "retry_scheduled", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

/** One (event, endpoint) delivery and where it stands; its attempts are `webhook_attempts`. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: text("event_id")
      .notNull()
      .references(() => events.id),
    eventType: text("event_type").notNull(),
    eventCreatedAt: ts("event_created_at").notNull(),
    /** `event`: the fan-out of a new event; `replay` and `backfill`: asked for through the API; `test`: a `ping` from the dashboard. */
    source: text("source", { enum: ["event", "replay", "backfill", "test"] }).notNull(),
    backfillId: text("backfill_id"),
    /** Position within its backfill: a backfill's first attempts go out strictly in this order. */
    backfillSeq: integer("backfill_seq"),
    status: text("status", { enum: deliveryStatuses }).notNull().default("queued"),
    attemptCount: integer("attempt_count").notNull().default(0),
    /** Due time of the next attempt; null once succeeded or failed. */
    nextAttemptAt: ts("next_attempt_at"),
    /** A worker holds the delivery until then; a crashed worker's lease simply runs out. */
    leaseUntil: ts("lease_until"),
    leaseToken: text("lease_token"),
    firstAttemptAt: ts("first_attempt_at"),
    ...timestamps(),
  },
  (t) => [
    // The fan-out's guard: one delivery per (event, endpoint), however often it runs.
    uniqueIndex("webhook_deliveries_fanout_key").on(t.eventId, t.endpointId).where(sql`${t.source} = 'event'`),
    index("webhook_deliveries_due_idx").on(t.endpointId, t.nextAttemptAt, t.eventCreatedAt, t.id).where(sql`${t.status} in ('queued', 'retry_scheduled')`),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.createdAt, t.id),
    index("webhook_deliveries_backfill_idx").on(t.backfillId, t.backfillSeq).where(sql`${t.backfillId} is not null`),
  ],
);

/** Every attempt, as the receiver answered it (or why it could not). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id").notNull(),
    number: integer("number").notNull(),
    /** The request as sent (the body is the event's envelope, rebuilt from the event row). Null on attempts made before it was recorded. */
    requestUrl: text("request_url"),
    requestHeaders: jsonb("request_headers").$type<Record<string, string>>(),
    startedAt: ts("started_at").notNull(),
    latencyMs: integer("latency_ms").notNull(),
    responseStatus: integer("response_status"),
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>().notNull(),
    /** The first 8 KiB of the answer, as text. */
    responseBody: text("response_body").notNull(),
    error: text("error"),
    outcome: text("outcome", { enum: ["succeeded", "retry", "failed"] }).notNull(),
    /** Counts against the endpoint in the circuit breaker (5xx, timeouts and network errors; never 3xx). */
    serverError: boolean("server_error").notNull(),
  },
  (t) => [
    uniqueIndex("webhook_attempts_number_key").on(t.deliveryId, t.number),
    index("webhook_attempts_breaker_idx").on(t.endpointId, t.startedAt),
  ],
);

/** A backfill: a window of past events queued again to one endpoint, in their original order. */
export const webhookBackfills = pgTable(
  "webhook_backfills",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    since: ts("since").notNull(),
    until: ts("until").notNull(),
    /** The types asked for; null: every type the endpoint selects. */
    eventTypes: text("event_types").array(),
    status: text("status", { enum: ["queued", "running", "completed"] }).notNull().default("queued"),
    eventsTotal: integer("events_total").notNull(),
    eventsQueued: integer("events_queued").notNull().default(0),
    /** The last event queued, in (created_at, id) order. */
    cursorCreatedAt: ts("cursor_created_at"),
    cursorEventId: text("cursor_event_id"),
    ...timestamps(),
  },
  (t) => [index("webhook_backfills_endpoint_idx").on(t.endpointId, t.createdAt)],
);

/** One SMTP attempt at an outbox mail. */
export type MailAttempt = { number: number; at: string; error: string | null };

/** The guest e-mails a reservation sends (server/guest-mail). */
export const guestMailKinds = ["confirmation", "modification", "cancellation"] as const;
export type GuestMailKind = (typeof guestMailKinds)[number];

/** Mail the platform sends (circuit-breaker notices, guest e-mails); kept whether or not SMTP delivered it. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    to: text("to"),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    /** The HTML part, where the mail has one (guest e-mails). */
    html: text("html"),
    /** The environment of a guest e-mail (sandbox mail is kept, never sent); null for the platform's own mail. */
    livemode: boolean("livemode"),
    kind: text("kind", { enum: guestMailKinds }),
    guestId: text("guest_id"),
    reservationId: text("reservation_id"),
    sentAt: ts("sent_at"),
    /** The last attempt's error; null once sent. */
    error: text("error"),
    /** Every SMTP attempt, oldest first: `{number, at, error}` (error null for the one that was sent). */
    attempts: jsonb("attempts").$type<MailAttempt[]>().notNull().default([]),
    /** When the next attempt is due (also a claim's lease); null once sent or given up. */
    nextAttemptAt: ts("next_attempt_at").defaultNow(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("mail_outbox_account_idx").on(t.accountId, t.createdAt), index("mail_outbox_due_idx").on(t.nextAttemptAt).where(sql`sent_at is null`),
    index("mail_outbox_reservation_idx").on(t.reservationId, t.createdAt).where(sql`reservation_id is not null`),
    index("mail_outbox_guest_idx").on(t.guestId).where(sql`guest_id is not null`),
  ],
);

/**
 * The account's own mail server (issue 39, point 1), set by an owner in Settings: the outbox sends
 * through it rather than through the process's SMTP_URL. One row per account (mail is sent for the
 * live hotel only; sandbox mail is kept). The password is sealed like the processors' keys
 * (server/sealed-secrets.ts, bound to the account id) and never shown again.
 */
export const mailSettings = pgTable("mail_settings", {
  accountId: text("account_id").primaryKey(),
  host: text("host").notNull(),
  port: integer("port").notNull(),
  username: text("username"),
  /** Sealed password; null for a server that takes mail without signing in. */
  password: text("password"),
  /** The address mail is sent from, and the name shown beside it. */
  fromAddress: text("from_address").notNull(),
  fromName: text("from_name"),
  /** Where guests' replies go (the front desk's address), when not the sender's. */
  replyTo: text("reply_to"),
  ...timestamps(),
});
