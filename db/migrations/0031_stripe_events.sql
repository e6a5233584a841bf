-- Stripe's own events in, and charges found again (issue 37, points 4 and 6): each event a
-- processor sent, by connection, so a redelivery changes nothing; on a payment the dispute its
-- cardholder opened; on a refund row the dispute whose money it is (a withdrawal by the bank, not a
-- refund the hotel made); on a payment that gives back a won dispute's money, the disputed one.
-- One payment per processor charge and one refund per processor refund: what the request, Stripe's
-- event and the reconciliation each find is recorded once.
CREATE TABLE "processor_events" (
	"processor_id" text NOT NULL,
	"event_id" text NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"type" text NOT NULL,
	"outcome" text NOT NULL,
	"payment_id" text,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processor_events_processor_id_event_id_pk" PRIMARY KEY("processor_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_id" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_status" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_reason" text;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "dispute_amount" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "reinstates_payment_id" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "dispute_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payments_processor_payment_key" ON "payments" USING btree ("processor","processor_payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_processor_refund_key" ON "refunds" USING btree ("processor_refund_id");