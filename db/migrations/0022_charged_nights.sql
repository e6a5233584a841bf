-- Issue 26: the revenue report's net, tax and gross joined sales_nights × reservations ×
-- folio_charges for every sold night of its range (60,000 rows a year at a 200-room hotel). What
-- the folios charge for each night is now kept beside the night, as sales_days and money_days
-- are: `sales_nights` carries the gross and tax of its stay's folio lines of kind room_night and
-- tax dated that night (on the stay's own folio), and `sales_days` their sums over sold nights.
ALTER TABLE "sales_nights" ADD COLUMN "charged_gross" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sales_nights" ADD COLUMN "charged_tax" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sales_days" ADD COLUMN "charged_gross" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sales_days" ADD COLUMN "charged_tax" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- A stay's nights are rebuilt on every write of the reservation (0006, 0011): each new night now
-- starts from what the stay's folio already charges for it (a booking may post its lines before
-- writing the reservation), and a sold night brings that into sales_days with it.
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
      SELECT NEW."account_id", NEW."livemode", NEW."id", NEW."property_id", (n->>'date')::date, NEW."check_in", NEW."room_type_id", NEW."rate_plan_id", NEW."source", NEW."channel", NEW."status", (n->>'amount')::integer,
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
--> statement-breakpoint
-- The lines count on the stay's own folio only: a stay moved to another folio is rebuilt too.
DROP TRIGGER "reservations_sales_nights" ON "reservations";
--> statement-breakpoint
CREATE TRIGGER "reservations_sales_nights" AFTER INSERT OR DELETE OR UPDATE OF "status", "nightly", "check_in", "check_out", "room_type_id", "rate_plan_id", "source", "channel", "checked_out_at", "property_id", "folio_id"
  ON "reservations" FOR EACH ROW EXECUTE FUNCTION "innkeep_sync_sales_nights"();
--> statement-breakpoint
-- Adds folio lines to the nights they charge (negative amounts take them off): the lines of kind
-- room_night and tax (`nightLineKinds`, server/folios/folios.ts) with a stay and a night, on that stay's folio, whose night `sales_nights`
-- holds (a line for a night the stay no longer has counts nowhere, as it never did in the report);
-- a sold night's change goes on to its day in `sales_days`, in (room type, date) order.
CREATE FUNCTION "innkeep_charge_nights"("p_reservations" text[], "p_folios" text[], "p_kinds" text[], "p_dates" date[], "p_gross" bigint[], "p_tax" bigint[]) RETURNS void LANGUAGE sql AS $$
  WITH "lines" AS (
    SELECT l."reservation_id", l."date", sum(l."gross") AS "gross", sum(l."tax") AS "tax"
    FROM unnest("p_reservations", "p_folios", "p_kinds", "p_dates", "p_gross", "p_tax") AS l("reservation_id", "folio_id", "kind", "date", "gross", "tax")
    JOIN "reservations" r ON r."id" = l."reservation_id" AND r."folio_id" = l."folio_id"
    WHERE l."kind" IN ('room_night', 'tax') AND l."date" IS NOT NULL
    GROUP BY 1, 2
  ), "nights" AS (
    UPDATE "sales_nights" n SET "charged_gross" = n."charged_gross" + l."gross", "charged_tax" = n."charged_tax" + l."tax"
    FROM "lines" l WHERE n."reservation_id" = l."reservation_id" AND n."date" = l."date"
    RETURNING n."room_type_id", n."property_id", n."date", n."sold", l."gross", l."tax"
  )
  INSERT INTO "sales_days" ("room_type_id", "date", "property_id", "rooms_sold", "room_revenue", "charged_gross", "charged_tax")
  SELECT "room_type_id", "date", "property_id", 0, 0, sum("gross"), sum("tax") FROM "nights" WHERE "sold" GROUP BY 1, 2, 3 ORDER BY 1, 2
  ON CONFLICT ("room_type_id", "date") DO UPDATE
    SET "charged_gross" = "sales_days"."charged_gross" + excluded."charged_gross", "charged_tax" = "sales_days"."charged_tax" + excluded."charged_tax"
$$;
--> statement-breakpoint
-- Once per statement writing folio lines (a booking posts all its nights in one): what left goes
-- off its nights, what came goes on. An update takes the old line off and puts the new one on.
CREATE FUNCTION "innkeep_sync_night_charges"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM "innkeep_charge_nights"(array_agg("reservation_id"), array_agg("folio_id"), array_agg("kind"), array_agg("date"), array_agg(-"amount"::bigint), array_agg(-"tax_amount"::bigint))
    FROM "old_lines" WHERE "reservation_id" IS NOT NULL HAVING count(*) > 0;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM "innkeep_charge_nights"(array_agg("reservation_id"), array_agg("folio_id"), array_agg("kind"), array_agg("date"), array_agg("amount"::bigint), array_agg("tax_amount"::bigint))
    FROM "new_lines" WHERE "reservation_id" IS NOT NULL HAVING count(*) > 0;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "folio_charges_nights_insert" AFTER INSERT ON "folio_charges" REFERENCING NEW TABLE AS "new_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION "innkeep_sync_night_charges"();
--> statement-breakpoint
CREATE TRIGGER "folio_charges_nights_update" AFTER UPDATE ON "folio_charges" REFERENCING OLD TABLE AS "old_lines" NEW TABLE AS "new_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION "innkeep_sync_night_charges"();
--> statement-breakpoint
CREATE TRIGGER "folio_charges_nights_delete" AFTER DELETE ON "folio_charges" REFERENCING OLD TABLE AS "old_lines"
  FOR EACH STATEMENT EXECUTE FUNCTION "innkeep_sync_night_charges"();
--> statement-breakpoint
-- Existing data: each night's lines, then each sold day's sums.
UPDATE "sales_nights" n SET "charged_gross" = c."gross", "charged_tax" = c."tax"
FROM (
  SELECT c."reservation_id", c."date", sum(c."amount") AS "gross", sum(c."tax_amount") AS "tax"
  FROM "folio_charges" c JOIN "reservations" r ON r."id" = c."reservation_id" AND r."folio_id" = c."folio_id"
  WHERE c."kind" IN ('room_night', 'tax') AND c."date" IS NOT NULL
  GROUP BY 1, 2
) c
WHERE n."reservation_id" = c."reservation_id" AND n."date" = c."date";
--> statement-breakpoint
UPDATE "sales_days" d SET "charged_gross" = s."gross", "charged_tax" = s."tax"
FROM (SELECT "room_type_id", "date", sum("charged_gross") AS "gross", sum("charged_tax") AS "tax" FROM "sales_nights" WHERE "sold" GROUP BY 1, 2) s
WHERE d."room_type_id" = s."room_type_id" AND d."date" = s."date";
