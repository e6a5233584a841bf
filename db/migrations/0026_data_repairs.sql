-- A record of data repairs (db/schema/repairs.ts): first, the rows an erasure damaged by replacing
-- a short personal value inside ids and timestamps (issue 41), repaired once at start.
CREATE TABLE "data_repairs" (
	"id" text PRIMARY KEY NOT NULL,
	"repair" text NOT NULL,
	"table_name" text,
	"row_id" text,
	"path" text,
	"damaged" text,
	"restored" text,
	"outcome" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "data_repairs_repair_idx" ON "data_repairs" USING btree ("repair","outcome");
