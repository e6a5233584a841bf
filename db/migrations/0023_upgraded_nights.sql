-- Issue 27: a guest in house upgraded to another room type keeps the nights already slept in the
-- old one (the inventory never moved them), so the per-night sales rows, and with them the
-- occupancy and production reports by room type, keep them there too. Such a night carries the
-- type it was sold in as `room_type_id` in the stay's `nightly` (server/reservations/upgrade.ts);
-- every other night is the stay's type, as before.
CREATE OR REPLACE FUNCTION "innkeep_sync_sales_nights"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    WITH gone AS (
      DELETE FROM "sales_nights" WHERE "reservation_id" = OLD."id" RETURNING "room_type_id", "property_id", "date", "amount", "sold", "charged_gross", "charged_tax"
    )
    INSERT INTO "sales_days" ("room_type_id", "date", "property_id", "rooms_sold", "room_revenue", "charged_gross", "charged_tax")
    SELECT "room_type_id", "date", "property_id", -count(*), -sum("amount"), -sum("charged_gross"), -sum("charged_tax") FROM gone WHERE "sold" GROUP BY 1, 2, 3 ORDER BY 1, 2
    ON CONFLICT ("room_type_id", "date") DO UPDATE
      SET "rooms_sold" = "sales_days"."rooms_sold" + excluded."rooms_sold", "room_revenue" = "sales_days"."room_revenue" + excluded."room_revenue",
        "charged_gross" = "sales_days"."charged_gross" + excluded."charged_gross", "charged_tax" = "sales_days"."charged_tax" + excluded."charged_tax";
  END IF;
  IF TG_OP <> 'DELETE' THEN
    WITH charged AS (
      SELECT c."date", sum(c."amount") AS "gross", sum(c."tax_amount") AS "tax" FROM "folio_charges" c
      WHERE c."folio_id" = NEW."folio_id" AND c."reservation_id" = NEW."id" AND c."kind" IN ('room_night', 'tax') AND c."date" IS NOT NULL
      GROUP BY c."date"
    ), added AS (
      INSERT INTO "sales_nights" ("account_id", "livemode", "reservation_id", "property_id", "date", "check_in", "room_type_id", "rate_plan_id", "source", "channel", "status", "amount", "booked", "sold", "charged_gross", "charged_tax")
      SELECT NEW."account_id", NEW."livemode", NEW."id", NEW."property_id", (n->>'date')::date, NEW."check_in", coalesce(n->>'room_type_id', NEW."room_type_id"), NEW."rate_plan_id", NEW."source", NEW."channel", NEW."status", (n->>'amount')::integer,
        NEW."status" IN ('confirmed', 'checked_in', 'checked_out'),
        NEW."status" IN ('confirmed', 'checked_in', 'checked_out'),
        coalesce(c."gross", 0), coalesce(c."tax", 0)
      FROM jsonb_array_elements(NEW."nightly") AS n LEFT JOIN charged c ON c."date" = (n->>'date')::date
      RETURNING "room_type_id", "property_id", "date", "amount", "sold", "charged_gross", "charged_tax"
    )
    INSERT INTO "sales_days" ("room_type_id", "date", "property_id", "rooms_sold", "room_revenue", "charged_gross", "charged_tax")
    SELECT "room_type_id", "date", "property_id", count(*), sum("amount"), sum("charged_gross"), sum("charged_tax") FROM added WHERE "sold" GROUP BY 1, 2, 3 ORDER BY 1, 2
    ON CONFLICT ("room_type_id", "date") DO UPDATE
      SET "rooms_sold" = "sales_days"."rooms_sold" + excluded."rooms_sold", "room_revenue" = "sales_days"."room_revenue" + excluded."room_revenue",
        "charged_gross" = "sales_days"."charged_gross" + excluded."charged_gross", "charged_tax" = "sales_days"."charged_tax" + excluded."charged_tax";
  END IF;
  RETURN NULL;
END
$$;
