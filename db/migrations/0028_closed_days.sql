-- The open business date is "today" for every posting (issue 35): the business date the last
-- night audit (or the sandbox's advance_day) opened, whatever the calendar says, until the next
-- audit closes it; the local calendar date only for a property never audited. Between midnight
-- and the audit hour, what is posted belongs to the day still open. businessToday in
-- server/properties/business-date.ts reads the same rule.
CREATE OR REPLACE FUNCTION "innkeep_posting_day"("p_property" text) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT coalesce(p."business_date", (now() AT TIME ZONE p."timezone")::date) FROM "properties" p WHERE p."id" = "p_property"
$$;--> statement-breakpoint
-- A closed day: its night audit ran, or the business date has moved past it.
CREATE FUNCTION "innkeep_day_closed"("p_property" text, "p_date" date) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT "p_date" IS NOT NULL AND (
    coalesce("p_date" < (SELECT p."business_date" FROM "properties" p WHERE p."id" = "p_property"), false)
    OR EXISTS (SELECT 1 FROM "night_audits" a WHERE a."property_id" = "p_property" AND a."business_date" = "p_date")
  )
$$;--> statement-breakpoint
-- Nothing posts into a closed day: a folio line for a night, or posted on a day, that is closed; a
-- payment or refund counted on one; a change of a line's, payment's or refund's money or day there.
-- (A description erased for privacy is no posting.) The services refuse first with the contract's
-- 409; this is the floor nothing goes through.
CREATE FUNCTION "innkeep_refuse_closed_day"("p_property" text, "p_date" date) RETURNS void LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF "innkeep_day_closed"("p_property", "p_date") THEN
    RAISE EXCEPTION 'The business day of % is closed (its night audit ran); nothing posts into it.', "p_date" USING ERRCODE = 'IK409';
  END IF;
END
$$;--> statement-breakpoint
CREATE FUNCTION "innkeep_charge_closed_day"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "property" text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    SELECT f."property_id" INTO "property" FROM "folios" f WHERE f."id" = OLD."folio_id";
    PERFORM "innkeep_refuse_closed_day"("property", OLD."date");
    PERFORM "innkeep_refuse_closed_day"("property", OLD."posted_on");
  END IF;
  SELECT f."property_id" INTO "property" FROM "folios" f WHERE f."id" = NEW."folio_id";
  PERFORM "innkeep_refuse_closed_day"("property", NEW."date");
  PERFORM "innkeep_refuse_closed_day"("property", NEW."posted_on");
  RETURN NEW;
END
$$;--> statement-breakpoint
-- Named to run after folio_charges_posted_on (triggers of one event run by name).
CREATE TRIGGER "folio_charges_refuse_closed_day" BEFORE INSERT OR UPDATE OF "folio_id", "kind", "date", "posted_on", "amount", "tax_amount", "taxes"
  ON "folio_charges" FOR EACH ROW EXECUTE FUNCTION "innkeep_charge_closed_day"();--> statement-breakpoint
CREATE FUNCTION "innkeep_money_closed_day"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    -- A refund moves its payment to (partially) refunded: the payment's day keeps its money.
    IF OLD."business_date" IS NOT DISTINCT FROM NEW."business_date" AND OLD."amount" = NEW."amount" AND OLD."property_id" = NEW."property_id" THEN
      RETURN NEW;
    END IF;
    PERFORM "innkeep_refuse_closed_day"(OLD."property_id", OLD."business_date");
  END IF;
  PERFORM "innkeep_refuse_closed_day"(NEW."property_id", NEW."business_date");
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "payments_refuse_closed_day" BEFORE INSERT OR UPDATE OF "business_date", "amount", "property_id", "captured_at"
  ON "payments" FOR EACH ROW EXECUTE FUNCTION "innkeep_money_closed_day"();--> statement-breakpoint
CREATE TRIGGER "refunds_refuse_closed_day" BEFORE INSERT OR UPDATE OF "business_date", "amount", "property_id"
  ON "refunds" FOR EACH ROW EXECUTE FUNCTION "innkeep_money_closed_day"();--> statement-breakpoint
-- What the night audit does with a guest still in house past departure: sell them the night
-- (extend) or refuse to close the day, naming them (refuse).
ALTER TABLE "properties" ADD COLUMN "overstay_at_audit" text DEFAULT 'extend' NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_overstay_at_audit_check" CHECK ("overstay_at_audit" IN ('extend', 'refuse'));--> statement-breakpoint
-- When check-in was refused for want of a ready room: the hotel's shortfall, never a no-show.
ALTER TABLE "reservations" ADD COLUMN "check_in_refused_at" timestamp with time zone;--> statement-breakpoint
-- The reports read a day's folio lines by the day each counts on (its night, else its posting day).
CREATE INDEX "folio_charges_day_idx" ON "folio_charges" USING btree ((coalesce("date", "posted_on")));
