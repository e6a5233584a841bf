CREATE TABLE "sign_in_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp (3) with time zone NOT NULL,
	"locked_until" timestamp (3) with time zone
);
