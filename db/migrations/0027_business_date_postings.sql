-- Money is posted on the property's business date, never the wall clock's (issue 35): a folio line,
-- a captured payment and a refund each carry the business date it was posted on, set here in the
-- transaction that writes it, and the reports and the flash count each on that day. The posting
-- day is the property's "today" as the application reads it everywhere (businessToday in
-- server/properties/business-date.ts): its business date, or its calendar date where that is
-- ahead (a property never audited). So a payment taken after an evening audit, or in the sandbox
-- after advance_day, counts in the new business day, not the calendar's.
ALTER TABLE "folio_charges" ADD COLUMN "posted_on" date;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "business_date" date;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "business_date" date;--> statement-breakpoint
-- What has been posted keeps the day the reports already gave it: the local date of its time.
UPDATE "folio_charges" c SET "posted_on" = (c."created_at" AT TIME ZONE p."timezone")::date
  FROM "folios" f JOIN "properties" p ON p."id" = f."property_id" WHERE f."id" = c."folio_id";--> statement-breakpoint
UPDATE "payments" x SET "business_date" = (x."captured_at" AT TIME ZONE p."timezone")::date
  FROM "properties" p WHERE p."id" = x."property_id" AND x."captured_at" IS NOT NULL;--> statement-breakpoint
UPDATE "refunds" x SET "business_date" = (x."created_at" AT TIME ZONE p."timezone")::date
  FROM "properties" p WHERE p."id" = x."property_id";--> statement-breakpoint
-- The property's posting day now.
CREATE FUNCTION "innkeep_posting_day"("p_property" text) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT greatest(p."business_date", (now() AT TIME ZONE p."timezone")::date) FROM "properties" p WHERE p."id" = "p_property"
$$;--> statement-breakpoint
CREATE FUNCTION "innkeep_charge_posted_on"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."posted_on" IS NULL THEN
    NEW."posted_on" := "innkeep_posting_day"((SELECT f."property_id" FROM "folios" f WHERE f."id" = NEW."folio_id"));
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "folio_charges_posted_on" BEFORE INSERT ON "folio_charges" FOR EACH ROW EXECUTE FUNCTION "innkeep_charge_posted_on"();--> statement-breakpoint
-- A payment's day is the day it is captured (an authorisation captured later counts then); a void
-- takes it off. A correction of the capture's time does not move the day it was posted on.
CREATE FUNCTION "innkeep_payment_business_date"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."captured_at" IS NULL THEN
    NEW."business_date" := NULL;
  ELSIF NEW."business_date" IS NULL THEN
    NEW."business_date" := "innkeep_posting_day"(NEW."property_id");
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "payments_business_date" BEFORE INSERT OR UPDATE OF "captured_at" ON "payments" FOR EACH ROW EXECUTE FUNCTION "innkeep_payment_business_date"();--> statement-breakpoint
CREATE FUNCTION "innkeep_refund_business_date"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."business_date" IS NULL THEN NEW."business_date" := "innkeep_posting_day"(NEW."property_id"); END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "refunds_business_date" BEFORE INSERT ON "refunds" FOR EACH ROW EXECUTE FUNCTION "innkeep_refund_business_date"();--> statement-breakpoint
-- money_days: each payment and refund on its business date.
CREATE OR REPLACE FUNCTION "innkeep_sync_money_payments"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "counted_before" boolean := TG_OP <> 'INSERT' AND "innkeep_payment_captured"(OLD."status", OLD."captured_at");
  "counted_now" boolean := TG_OP <> 'DELETE' AND "innkeep_payment_captured"(NEW."status", NEW."captured_at");
BEGIN
  -- A refund moves a payment from succeeded to (partially) refunded: it still counts, unchanged.
  IF "counted_before" AND "counted_now" AND OLD."property_id" = NEW."property_id" AND OLD."business_date" = NEW."business_date" AND OLD."amount" = NEW."amount" THEN
    RETURN NULL;
  END IF;
  IF "counted_before" THEN PERFORM "innkeep_money_on"(OLD."property_id", OLD."business_date", -OLD."amount", 0); END IF;
  IF "counted_now" THEN PERFORM "innkeep_money_on"(NEW."property_id", NEW."business_date", NEW."amount", 0); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "innkeep_money_on"("p_property" text, "p_date" date, "p_payments" bigint, "p_refunds" bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "money_days" ("property_id", "date", "payments", "refunds") VALUES ("p_property", "p_date", "p_payments", "p_refunds")
  ON CONFLICT ("property_id", "date") DO UPDATE
    SET "payments" = "money_days"."payments" + excluded."payments", "refunds" = "money_days"."refunds" + excluded."refunds"
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "innkeep_sync_money_refunds"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "innkeep_money_on"(OLD."property_id", OLD."business_date", 0, -OLD."amount"); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "innkeep_money_on"(NEW."property_id", NEW."business_date", 0, NEW."amount"); END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "payments_money_days" ON "payments";--> statement-breakpoint
CREATE TRIGGER "payments_money_days" AFTER INSERT OR DELETE OR UPDATE OF "status", "amount", "captured_at", "business_date", "property_id"
  ON "payments" FOR EACH ROW EXECUTE FUNCTION "innkeep_sync_money_payments"();--> statement-breakpoint
DROP TRIGGER "refunds_money_days" ON "refunds";--> statement-breakpoint
CREATE TRIGGER "refunds_money_days" AFTER INSERT OR DELETE OR UPDATE OF "amount", "business_date", "property_id"
  ON "refunds" FOR EACH ROW EXECUTE FUNCTION "innkeep_sync_money_refunds"();--> statement-breakpoint
-- A change of time zone no longer moves a posted day: business dates stay as they were posted.
CREATE OR REPLACE FUNCTION "innkeep_rebuild_money_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "money_days" WHERE "property_id" = OLD."id";
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO "money_days" ("property_id", "date", "payments", "refunds")
    SELECT NEW."id", d, sum(pay), sum(ref) FROM (
      SELECT "business_date" AS d, "amount" AS pay, 0 AS ref FROM "payments" WHERE "property_id" = NEW."id" AND "innkeep_payment_captured"("status", "captured_at")
      UNION ALL SELECT "business_date", 0, "amount" FROM "refunds" WHERE "property_id" = NEW."id"
    ) m GROUP BY d;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Nothing sums by a timestamp's local date any more.
DROP FUNCTION "innkeep_money_day"(text, timestamptz, bigint, bigint);
