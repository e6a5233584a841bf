-- Managing a direct booking (issue 38, point 3) and the guest's language in its e-mails.
--
-- The language a guest booked in on the booking engine (en, pt, es, fr, de): the confirmation,
-- change and cancellation e-mails of the stay are written in it. Null for bookings made by staff
-- or through the API, whose e-mails stay in English.
ALTER TABLE "reservations" ADD COLUMN "guest_locale" text;
--> statement-breakpoint
-- The guest pages' language when the room was chosen (the booking takes it from here).
ALTER TABLE "booking_sessions" ADD COLUMN "locale" text DEFAULT 'en' NOT NULL;
--> statement-breakpoint
-- The manage link's token, as SHA-256 (never the token itself), written when the form became a
-- booking: the link in the confirmation e-mail finds the booking by it, without an account.
ALTER TABLE "booking_sessions" ADD COLUMN "manage_token_hash" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "booking_sessions_manage_token_key" ON "booking_sessions" USING btree ("manage_token_hash");
