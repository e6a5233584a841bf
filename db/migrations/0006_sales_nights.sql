CREATE TABLE "sales_days" (
	"room_type_id" text NOT NULL,
	"date" date NOT NULL,
	"property_id" text NOT NULL,
	"rooms_sold" integer NOT NULL,
	"room_revenue" bigint NOT NULL,
	CONSTRAINT "sales_days_room_type_id_date_pk" PRIMARY KEY("room_type_id","date")
);
--> statement-breakpoint
CREATE TABLE "sales_nights" (
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"reservation_id" text NOT NULL,
	"property_id" text NOT NULL,
	"date" date NOT NULL,
	"check_in" date NOT NULL,
	"room_type_id" text NOT NULL,
	"rate_plan_id" text NOT NULL,
	"source" text NOT NULL,
	"channel" text,
	"status" text NOT NULL,
	"amount" integer NOT NULL,
	"booked" boolean NOT NULL,
	"sold" boolean NOT NULL,
	CONSTRAINT "sales_nights_reservation_id_date_pk" PRIMARY KEY("reservation_id","date")
);
--> statement-breakpoint
CREATE INDEX "sales_days_property_date_idx" ON "sales_days" USING btree ("property_id","date");--> statement-breakpoint
CREATE INDEX "sales_nights_property_arrival_idx" ON "sales_nights" USING btree ("property_id","check_in");--> statement-breakpoint
CREATE INDEX "payments_property_captured_idx" ON "payments" USING btree ("property_id","captured_at");--> statement-breakpoint
CREATE INDEX "refunds_property_created_idx" ON "refunds" USING btree ("property_id","created_at");--> statement-breakpoint
-- The one place that says which nights of a stay the reports count (db/schema/reports.ts). Called
-- by the trigger below for every write to a reservation, in that write's transaction: the stay's
-- old nights leave `sales_nights` and their sums leave `sales_days`, then its new ones come in.
CREATE FUNCTION "innkeep_sync_sales_nights"() RETURNS trigger LANGUAGE plpgsql AS $$
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
          AND (NEW."status" <> 'checked_out'
            -- An early departure: the nights from the property's check-out date on went back on sale.
            OR (n->>'date')::date < greatest(
              coalesce((NEW."checked_out_at" AT TIME ZONE (SELECT p."timezone" FROM "properties" p WHERE p."id" = NEW."property_id"))::date, NEW."check_out"),
              NEW."check_in" + 1))
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
CREATE TRIGGER "reservations_sales_nights" AFTER INSERT OR DELETE OR UPDATE OF "status", "nightly", "check_in", "check_out", "room_type_id", "rate_plan_id", "source", "channel", "checked_out_at", "property_id"
  ON "reservations" FOR EACH ROW EXECUTE FUNCTION "innkeep_sync_sales_nights"();
--> statement-breakpoint
-- Existing stays: touching each row runs the same function once.
UPDATE "reservations" SET "status" = "status";
