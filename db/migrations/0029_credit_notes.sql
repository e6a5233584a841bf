-- Issue 35, point 5: an issued invoice never changes; corrections are credit notes. A credit note
-- takes money off an issued invoice (a refund after check-out that gives back what the guest was
-- charged, an allowance): numbered without gaps per property in a series of its own, kept by
-- `credit_note_counters` exactly as invoices' numbers are (a row incremented in the issuing
-- transaction), and stored as issued (`snapshot`). Its lines are posted on the folio as negative
-- lines (`folio_charges.credit_note_id`) on the current business date, so the folio, the flash
-- and the reports count them on that day and the guest's balance returns to zero.
CREATE TABLE "credit_note_counters" (
	"property_id" text PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"invoice_id" text NOT NULL,
	"folio_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"refund_id" text,
	"number" integer NOT NULL,
	"currency" text NOT NULL,
	"net" integer NOT NULL,
	"tax" integer NOT NULL,
	"total" integer NOT NULL,
	"issue_date" date NOT NULL,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "credit_notes_property_number_key" ON "credit_notes" USING btree ("property_id","number");
--> statement-breakpoint
CREATE INDEX "credit_notes_invoice_idx" ON "credit_notes" USING btree ("invoice_id");
--> statement-breakpoint
CREATE INDEX "credit_notes_property_date_idx" ON "credit_notes" USING btree ("property_id","issue_date");
--> statement-breakpoint
CREATE INDEX "credit_notes_list_idx" ON "credit_notes" USING btree ("account_id","livemode","created_at","id");
--> statement-breakpoint
ALTER TABLE "folio_charges" ADD COLUMN "credit_note_id" text;
--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "credit_note_id" text;
