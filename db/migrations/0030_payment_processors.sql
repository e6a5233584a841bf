-- Card payments through a hotel's own processor account (issue 37, Stripe first): the connected
-- account per property or per account (keys sealed, as webhook secrets are), and on payments and
-- refunds the processor's own ids, so a charge or refund can be found again at the processor.
CREATE TABLE "payment_processors" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text,
	"type" text NOT NULL,
	"secret_key" text NOT NULL,
	"secret_key_hint" text NOT NULL,
	"webhook_secret" text,
	"webhook_secret_hint" text,
	"processor_account_id" text,
	"processor_mode" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "payment_processors_scope_idx" ON "payment_processors" USING btree ("account_id","livemode",coalesce("property_id", ''));--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "processor_payment_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "processor_refund_id" text;
