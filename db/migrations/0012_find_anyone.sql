-- Finding a guest or a reservation by any part of a name, e-mail, phone or id, as the staff
-- types: trigram indexes (pg_trgm) serve `LIKE '%…%'` on any fragment of three letters or more.
-- Both extensions ship with PostgreSQL's contrib and with PGlite (loaded in db/client.ts).
CREATE EXTENSION IF NOT EXISTS "pg_trgm";
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS "unaccent";
--> statement-breakpoint
-- Lower case without accents: "Zoë" and "ZOE" are one name to a clerk. unaccent() is only
-- STABLE (its dictionary could change); naming the dictionary makes the call immutable in
-- practice, which a generated column and its index need.
CREATE FUNCTION "innkeep_fold"("p_text" text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(public.unaccent('public.unaccent'::regdictionary, coalesce("p_text", '')))
$$;
--> statement-breakpoint
-- A walk-in may arrive without an e-mail where the property allows it (docs/decisions.md).
ALTER TABLE "guests" ALTER COLUMN "email" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "guests" ALTER COLUMN "email_key" DROP NOT NULL;
--> statement-breakpoint
-- The phone's digits alone: "+1 (617) 555-0101" is found by "555 0101" and by "6175550101".
ALTER TABLE "guests" ADD COLUMN "phone_key" text GENERATED ALWAYS AS (regexp_replace(coalesce("phone", ''), '[^0-9]', '', 'g')) STORED;
--> statement-breakpoint
-- Everything a clerk may type to find a guest, folded: names, e-mail, the phone's digits.
ALTER TABLE "guests" ADD COLUMN "search_text" text GENERATED ALWAYS AS (
  "innkeep_fold"("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '')) || ' ' || regexp_replace(coalesce("phone", ''), '[^0-9]', '', 'g')
) STORED;
--> statement-breakpoint
CREATE INDEX "guests_search_idx" ON "guests" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
-- A guest without an e-mail is the same guest when the phone's digits and the last name match:
-- two bookings of one walk-in share one guest, even when made at the same moment.
CREATE UNIQUE INDEX "guests_no_email_key" ON "guests" USING btree ("account_id", "livemode", "phone_key", "innkeep_fold"("last_name")) WHERE "email_key" IS NULL AND "phone_key" <> '';
--> statement-breakpoint
CREATE INDEX "reservations_id_search_idx" ON "reservations" USING gin ("id" gin_trgm_ops);
--> statement-breakpoint
-- Lists in order of stay: arrival date, then id.
CREATE INDEX "reservations_stay_idx" ON "reservations" USING btree ("account_id", "livemode", "check_in", "id");
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "walk_ins_without_email" boolean DEFAULT false NOT NULL;
