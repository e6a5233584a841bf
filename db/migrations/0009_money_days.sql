-- The revenue report summed every payment and refund of its range (13,000 payments a year at a 200-room hotel: most of the report's database time); it now reads one row per night.
CREATE TABLE "money_days" (
	"property_id" text NOT NULL,
	"date" date NOT NULL,
	"payments" bigint NOT NULL,
	"refunds" bigint NOT NULL,
	CONSTRAINT "money_days_property_id_date_pk" PRIMARY KEY("property_id","date")
);
--> statement-breakpoint
-- Captured payments and refunds per property and local date (db/schema/reports.ts), kept by the
-- triggers below in the transaction that writes a payment or refund. What counts is what the
-- revenue report counted from the raw rows: a payment in status succeeded, partially_refunded or
-- refunded, on the local date of its capture, at its full amount; a refund on the local date of
-- its creation.
CREATE FUNCTION "innkeep_money_day"("p_property" text, "p_at" timestamptz, "p_payments" bigint, "p_refunds" bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "money_days" ("property_id", "date", "payments", "refunds")
  SELECT "p_property", ("p_at" AT TIME ZONE p."timezone")::date, "p_payments", "p_refunds" FROM "properties" p WHERE p."id" = "p_property"
  ON CONFLICT ("property_id", "date") DO UPDATE
    SET "payments" = "money_days"."payments" + excluded."payments", "refunds" = "money_days"."refunds" + excluded."refunds"
$$;
--> statement-breakpoint
-- Whether a payment counts as captured money: the statuses of `capturedStatuses` (server/folios/folios.ts).
CREATE FUNCTION "innkeep_payment_captured"("p_status" text, "p_captured_at" timestamptz) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT "p_status" IN ('succeeded', 'partially_refunded', 'refunded') AND "p_captured_at" IS NOT NULL
$$;
--> statement-breakpoint
CREATE FUNCTION "innkeep_sync_money_payments"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  "counted_before" boolean := TG_OP <> 'INSERT' AND "innkeep_payment_captured"(OLD."status", OLD."captured_at");
  "counted_now" boolean := TG_OP <> 'DELETE' AND "innkeep_payment_captured"(NEW."status", NEW."captured_at");
BEGIN
  -- A refund moves a payment from succeeded to (partially) refunded: it still counts, unchanged.
  IF "counted_before" AND "counted_now" AND OLD."property_id" = NEW."property_id" AND OLD."captured_at" = NEW."captured_at" AND OLD."amount" = NEW."amount" THEN
    RETURN NULL;
  END IF;
  IF "counted_before" THEN PERFORM "innkeep_money_day"(OLD."property_id", OLD."captured_at", -OLD."amount", 0); END IF;
  IF "counted_now" THEN PERFORM "innkeep_money_day"(NEW."property_id", NEW."captured_at", NEW."amount", 0); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "payments_money_days" AFTER INSERT OR DELETE OR UPDATE OF "status", "amount", "captured_at", "property_id"
  ON "payments" FOR EACH ROW EXECUTE FUNCTION "innkeep_sync_money_payments"();
--> statement-breakpoint
CREATE FUNCTION "innkeep_sync_money_refunds"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM "innkeep_money_day"(OLD."property_id", OLD."created_at", 0, -OLD."amount"); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM "innkeep_money_day"(NEW."property_id", NEW."created_at", 0, NEW."amount"); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "refunds_money_days" AFTER INSERT OR DELETE OR UPDATE OF "amount", "created_at", "property_id"
  ON "refunds" FOR EACH ROW EXECUTE FUNCTION "innkeep_sync_money_refunds"();
--> statement-breakpoint
-- A property's local dates follow its time zone: when that changes, its days are summed again;
-- when the property goes, so do they.
CREATE FUNCTION "innkeep_rebuild_money_days"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "money_days" WHERE "property_id" = OLD."id";
  IF TG_OP = 'UPDATE' THEN
    -- Row by row through the triggers' own upsert: rare (a change of time zone, the backfill below).
    PERFORM "innkeep_money_day"("property_id", "captured_at", "amount", 0) FROM "payments"
      WHERE "property_id" = NEW."id" AND "innkeep_payment_captured"("status", "captured_at");
    PERFORM "innkeep_money_day"("property_id", "created_at", 0, "amount") FROM "refunds" WHERE "property_id" = NEW."id";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "properties_money_days" AFTER DELETE OR UPDATE OF "timezone"
  ON "properties" FOR EACH ROW EXECUTE FUNCTION "innkeep_rebuild_money_days"();
--> statement-breakpoint
-- Existing payments and refunds: each property's days summed once, as a change of time zone would.
UPDATE "properties" SET "timezone" = "timezone";
--> statement-breakpoint
-- Like sales_days, these rows are updated far more than they grow (every payment and refund of a
-- property's day adds to one row): room for HOT updates and an early vacuum.
ALTER TABLE "money_days" SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
