CREATE TABLE "payments" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"folio_id" text NOT NULL,
	"amount" integer NOT NULL,
	"amount_refunded" integer DEFAULT 0 NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"method_type" text NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"card_exp_month" integer,
	"card_exp_year" integer,
	"bank_reference" text,
	"failure_code" text,
	"failure_message" text,
	"captured_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"payment_id" text NOT NULL,
	"folio_id" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text,
	"status" text DEFAULT 'succeeded' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "housekeeping_assignments" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"room_id" text NOT NULL,
	"date" date NOT NULL,
	"assignee" text NOT NULL,
	"notes" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payments_list_idx" ON "payments" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_folio_idx" ON "payments" USING btree ("folio_id");--> statement-breakpoint
CREATE INDEX "refunds_list_idx" ON "refunds" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "refunds_payment_idx" ON "refunds" USING btree ("payment_id");--> statement-breakpoint
CREATE INDEX "housekeeping_assignments_list_idx" ON "housekeeping_assignments" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "housekeeping_assignments_date_idx" ON "housekeeping_assignments" USING btree ("property_id","date");