CREATE TABLE "daily_rates" (
	"rate_plan_id" text NOT NULL,
	"room_type_id" text NOT NULL,
	"date" date NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"amount" integer NOT NULL,
	"min_stay" integer DEFAULT 1 NOT NULL,
	"closed_to_arrival" boolean DEFAULT false NOT NULL,
	"closed_to_departure" boolean DEFAULT false NOT NULL,
	"stop_sell" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "daily_rates_rate_plan_id_room_type_id_date_pk" PRIMARY KEY("rate_plan_id","room_type_id","date")
);
--> statement-breakpoint
CREATE TABLE "rate_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"room_type_ids" text[] NOT NULL,
	"refundable" boolean NOT NULL,
	"cancellation_deadline_hours" integer DEFAULT 24 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventory_holds" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"room_type_id" text NOT NULL,
	"from" date NOT NULL,
	"to" date NOT NULL,
	"rooms" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "inventory_nights" (
	"room_type_id" text NOT NULL,
	"date" date NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"total" integer NOT NULL,
	"out_of_order" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"sold" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "inventory_nights_room_type_id_date_pk" PRIMARY KEY("room_type_id","date"),
	CONSTRAINT "inventory_nights_non_negative" CHECK ("inventory_nights"."sold" >= 0 and "inventory_nights"."held" >= 0 and "inventory_nights"."out_of_order" >= 0 and "inventory_nights"."total" >= 0)
);
--> statement-breakpoint
CREATE TABLE "folio_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"folio_id" text NOT NULL,
	"kind" text NOT NULL,
	"description" text NOT NULL,
	"date" date,
	"amount" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "folios" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"currency" text NOT NULL,
	"closed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"guest_id" text NOT NULL,
	"room_type_id" text NOT NULL,
	"rate_plan_id" text NOT NULL,
	"room_id" text,
	"folio_id" text NOT NULL,
	"status" text NOT NULL,
	"check_in" date NOT NULL,
	"check_out" date NOT NULL,
	"adults" integer NOT NULL,
	"children" integer DEFAULT 0 NOT NULL,
	"total_amount" integer NOT NULL,
	"currency" text NOT NULL,
	"nightly" jsonb NOT NULL,
	"source" text NOT NULL,
	"channel" text,
	"notes" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cancelled_at" timestamp (3) with time zone,
	"cancellation_reason" text,
	"checked_in_at" timestamp (3) with time zone,
	"checked_out_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text,
	"type" text NOT NULL,
	"api_version" text NOT NULL,
	"object" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rate_plans_code_key" ON "rate_plans" USING btree ("property_id","code");--> statement-breakpoint
CREATE INDEX "rate_plans_list_idx" ON "rate_plans" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "inventory_holds_list_idx" ON "inventory_holds" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "inventory_nights_property_idx" ON "inventory_nights" USING btree ("property_id","date");--> statement-breakpoint
CREATE INDEX "folio_charges_folio_idx" ON "folio_charges" USING btree ("folio_id");--> statement-breakpoint
CREATE INDEX "reservations_list_idx" ON "reservations" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "reservations_property_dates_idx" ON "reservations" USING btree ("property_id","check_in");--> statement-breakpoint
CREATE INDEX "reservations_guest_idx" ON "reservations" USING btree ("guest_id");--> statement-breakpoint
CREATE INDEX "events_list_idx" ON "events" USING btree ("account_id","livemode","created_at","id");--> statement-breakpoint
CREATE INDEX "events_type_idx" ON "events" USING btree ("account_id","livemode","type","created_at");