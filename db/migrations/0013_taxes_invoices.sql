-- Issue 27 (taxes and fees, invoices). A property's taxes: a percentage (VAT, sales tax) included
-- in or added to the price of the lines it applies to, or an amount per night or per person and
-- night (city tax) posted as its own folio line on each room night. `percent_thousandths` is the
-- percentage times 1000 (7.5 % = 7500); `amount` is minor units of the property's currency.
CREATE TABLE "taxes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"percent_thousandths" integer,
	"amount" integer,
	"inclusive" boolean DEFAULT false NOT NULL,
	"applies_to" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "taxes_shape" CHECK (("kind" = 'percentage' AND "percent_thousandths" IS NOT NULL AND "amount" IS NULL) OR ("kind" IN ('per_night', 'per_person_per_night') AND "amount" IS NOT NULL AND "percent_thousandths" IS NULL AND NOT "inclusive"))
);
--> statement-breakpoint
CREATE INDEX "taxes_list_idx" ON "taxes" USING btree ("account_id","livemode","created_at","id");
--> statement-breakpoint
CREATE INDEX "taxes_property_idx" ON "taxes" USING btree ("property_id");
--> statement-breakpoint
-- A folio line's `amount` stays what the guest pays (gross); `tax_amount` is the tax in it, so
-- its net is `amount - tax_amount`, and `taxes` says which taxes make it up. Lines written before
-- (and by code that knows no taxes) carry none.
ALTER TABLE "folio_charges" ADD COLUMN "tax_amount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "folio_charges" ADD COLUMN "taxes" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
-- Issued invoices: an immutable snapshot of the closed folio with the hotel's and the guest's
-- details as they were, numbered without gaps per property by `invoice_counters`, a row
-- incremented in the issuing transaction (a rollback gives its number back; a sequence would not).
CREATE TABLE "invoice_counters" (
	"property_id" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"folio_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"number" integer NOT NULL,
	"currency" text NOT NULL,
	"total" integer NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_property_number_key" ON "invoices" USING btree ("property_id","number");
--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_folio_key" ON "invoices" USING btree ("folio_id");
--> statement-breakpoint
CREATE INDEX "invoices_list_idx" ON "invoices" USING btree ("account_id","livemode","created_at","id");
