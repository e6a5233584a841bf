-- Guest e-mails (confirmation, modification, cancellation) go through the one mail outbox that
-- already sends the circuit-breaker notice: the HTML part, the environment, and what the mail is
-- about (the guest and the reservation, to list a stay's mails and to erase a guest's).
ALTER TABLE "mail_outbox" ADD COLUMN "html" text;
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "livemode" boolean;
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "kind" text;
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "guest_id" text;
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "reservation_id" text;
--> statement-breakpoint
CREATE INDEX "mail_outbox_reservation_idx" ON "mail_outbox" USING btree ("reservation_id", "created_at") WHERE reservation_id is not null;
--> statement-breakpoint
CREATE INDEX "mail_outbox_guest_idx" ON "mail_outbox" USING btree ("guest_id") WHERE guest_id is not null;
--> statement-breakpoint
-- A hotel may turn the guest e-mails off (docs/decisions.md, "Guest e-mails and a guest's data").
ALTER TABLE "properties" ADD COLUMN "guest_emails" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- When the guest was erased on request; their row stays, anonymised, for the financial records.
ALTER TABLE "guests" ADD COLUMN "erased_at" timestamp (3) with time zone;
