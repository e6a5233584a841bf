-- Issue 39, point 1: the account's own mail server, set by an owner in Settings. The outbox sends
-- through it instead of the process's SMTP_URL. One row per account (only live mail is ever sent).
-- The password is sealed (AES-256-GCM under WEBHOOK_SECRET_KEYS, bound to the account id, as the
-- payment processors' keys are) and never shown again; null for a server that needs no sign-in.
CREATE TABLE "mail_settings" (
	"account_id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"port" integer NOT NULL,
	"username" text,
	"password" text,
	-- The address mail is sent from and the name beside it; where guests' replies go.
	"from_address" text NOT NULL,
	"from_name" text,
	"reply_to" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
