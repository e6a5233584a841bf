-- A rate plan's deposit (issue 37, point 3): taken at booking from the stay's card on file, on
-- the nights booked, in the shape of the plan's fees (a fixed amount, the first N nights, a
-- percentage). Null: the plan asks for none.
ALTER TABLE "rate_plans" ADD COLUMN "deposit" jsonb;--> statement-breakpoint
-- What the plan asked at booking, kept with the stay: the plan may change later, the booking's
-- terms do not.
ALTER TABLE "reservations" ADD COLUMN "deposit_amount" integer;
