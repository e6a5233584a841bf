-- Issue 27 (stays that follow real life, the night audit). Fees of a rate plan, each null (no
-- fee) or {"type":"fixed","amount"} | {"type":"nights","nights"} | {"type":"percent","percent"}
-- (server/rates/fees.ts says what each is charged on).
ALTER TABLE "rate_plans" ADD COLUMN "early_departure_fee" jsonb;
--> statement-breakpoint
ALTER TABLE "rate_plans" ADD COLUMN "no_show_fee" jsonb;
--> statement-breakpoint
ALTER TABLE "rate_plans" ADD COLUMN "late_check_out_fee" jsonb;
--> statement-breakpoint
-- The hour (property time) at which the night audit closes a business day, and the business date
-- the hotel trades on (null until the first audit: the property's calendar date). The audit and
-- the sandbox's advance_day move it; it is never behind the calendar (server/properties/business-date.ts).
ALTER TABLE "properties" ADD COLUMN "audit_hour" integer DEFAULT 3 NOT NULL;
--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "business_date" date;
--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_audit_hour_range" CHECK ("audit_hour" >= 0 AND "audit_hour" <= 23);
--> statement-breakpoint
-- One row per property and business date the night audit closed: its unique key is what makes the
-- audit run once per date, whatever the number of workers or instances.
CREATE TABLE "night_audits" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"business_date" date NOT NULL,
	"trigger" text NOT NULL,
	"no_shows" jsonb NOT NULL,
	"departures_in_house" jsonb NOT NULL,
	"flash" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "night_audits_property_date_key" ON "night_audits" USING btree ("property_id","business_date");
--> statement-breakpoint
CREATE INDEX "night_audits_list_idx" ON "night_audits" USING btree ("account_id","livemode","created_at","id");
--> statement-breakpoint
-- A stay now ends on its real departure: an early check-out shortens `check_out` and `nightly`
-- (server/reservations/stay-end.ts), so every night of `nightly` is sold while the stay counts;
-- the reports no longer guess unused nights from `checked_out_at`.
CREATE OR REPLACE FUNCTION "innkeep_sync_sales_nights"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    WITH gone AS (
      DELETE FROM "sales_nights" WHERE "reservation_id" = OLD."id" RETURNING "room_type_id", "property_id", "date", "amount", "sold"
    )
    INSERT INTO "sales_days" ("room_type_id", "date", "property_id", "rooms_sold", "room_revenue")
    SELECT "room_type_id", "date", "property_id", -count(*), -sum("amount") FROM gone WHERE "sold" GROUP BY 1, 2, 3 ORDER BY 1, 2
    ON CONFLICT ("room_type_id", "date") DO UPDATE
      SET "rooms_sold" = "sales_days"."rooms_sold" + excluded."rooms_sold", "room_revenue" = "sales_days"."room_revenue" + excluded."room_revenue";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    WITH added AS (
      INSERT INTO "sales_nights" ("account_id", "livemode", "reservation_id", "property_id", "date", "check_in", "room_type_id", "rate_plan_id", "source", "channel", "status", "amount", "booked", "sold")
      SELECT NEW."account_id", NEW."livemode", NEW."id", NEW."property_id", (n->>'date')::date, NEW."check_in", NEW."room_type_id", NEW."rate_plan_id", NEW."source", NEW."channel", NEW."status", (n->>'amount')::integer,
        NEW."status" IN ('confirmed', 'checked_in', 'checked_out'),
        NEW."status" IN ('confirmed', 'checked_in', 'checked_out')
      FROM jsonb_array_elements(NEW."nightly") AS n
      RETURNING "room_type_id", "property_id", "date", "amount", "sold"
    )
    INSERT INTO "sales_days" ("room_type_id", "date", "property_id", "rooms_sold", "room_revenue")
    SELECT "room_type_id", "date", "property_id", count(*), sum("amount") FROM added WHERE "sold" GROUP BY 1, 2, 3 ORDER BY 1, 2
    ON CONFLICT ("room_type_id", "date") DO UPDATE
      SET "rooms_sold" = "sales_days"."rooms_sold" + excluded."rooms_sold", "room_revenue" = "sales_days"."room_revenue" + excluded."room_revenue";
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Early departures checked out before this change kept their booked nights: shorten them to the
-- night they left (at least the arrival night), as the check-out does now, so the production
-- report agrees with occupancy and revenue about them. Their (closed) folios are left as settled.
UPDATE "reservations" r SET
  "check_out" = t."departed",
  "nightly" = (SELECT coalesce(jsonb_agg(n ORDER BY n->>'date'), '[]'::jsonb) FROM jsonb_array_elements(r."nightly") AS n WHERE (n->>'date')::date < t."departed"),
  "total_amount" = (SELECT coalesce(sum((n->>'amount')::integer), 0) FROM jsonb_array_elements(r."nightly") AS n WHERE (n->>'date')::date < t."departed")
FROM (
  SELECT r2."id", greatest((r2."checked_out_at" AT TIME ZONE p."timezone")::date, r2."check_in" + 1) AS "departed"
  FROM "reservations" r2 JOIN "properties" p ON p."id" = r2."property_id"
  WHERE r2."status" = 'checked_out' AND r2."checked_out_at" IS NOT NULL
) t
WHERE t."id" = r."id" AND t."departed" < r."check_out";
--> statement-breakpoint
-- Every move of a guest in house from one room to another: the stay's room history.
CREATE TABLE "room_moves" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"reservation_id" text NOT NULL,
	"from_room_id" text NOT NULL,
	"to_room_id" text NOT NULL,
	"reason" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "room_moves_reservation_idx" ON "room_moves" USING btree ("reservation_id","created_at");
--> statement-breakpoint
CREATE INDEX "room_moves_list_idx" ON "room_moves" USING btree ("account_id","livemode","created_at","id");
