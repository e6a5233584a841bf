-- A card payment waiting on the guest's 3-D Secure (issue 37, point 3) is `pending` with the
-- client secret Stripe.js completes it with; cleared once Stripe's event settles it.
ALTER TABLE "payments" ADD COLUMN "next_action_secret" text;
