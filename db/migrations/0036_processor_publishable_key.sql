-- The dashboard takes cards with Stripe's Payment Element (issue 37, point 2), which Stripe.js
-- starts in the browser with the account's publishable key (pk_test_… or pk_live_…). It is
-- public by design (every page that takes a card carries it), so it is kept as given, not
-- sealed like the secret key; null until an owner adds it to the connection.
ALTER TABLE "payment_processors" ADD COLUMN "publishable_key" text;
