-- Issue 27, taxes in quotes and bookings: a reservation keeps its stay's price as its folio
-- charges it, the sums of its room nights and their per-night taxes (net, tax, and which taxes),
-- beside `total_amount` (the sum of the nightly rates as loaded). Existing stays take the sums of
-- their lines still on the folio; a stay whose nights have left it (cancelled, no-show) keeps its
-- rates as net, untaxed, as it was booked before taxes were stated.
ALTER TABLE "reservations" ADD COLUMN "net_amount" integer;
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "tax_amount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "taxes" jsonb DEFAULT '[]'::jsonb NOT NULL;
--> statement-breakpoint
UPDATE "reservations" r SET "net_amount" = s."gross" - s."tax", "tax_amount" = s."tax", "taxes" = coalesce(t."taxes", '[]'::jsonb)
FROM (
	SELECT "reservation_id", sum("amount")::integer AS "gross", sum("tax_amount")::integer AS "tax"
	FROM "folio_charges" WHERE "kind" IN ('room_night', 'tax') AND "reservation_id" IS NOT NULL GROUP BY "reservation_id"
) s
LEFT JOIN (
	SELECT "reservation_id", jsonb_agg(jsonb_build_object('tax_id', "tax_id", 'name', "name", 'amount', "amount", 'inclusive', "inclusive") ORDER BY "first") AS "taxes"
	FROM (
		SELECT c."reservation_id", e->>'tax_id' AS "tax_id", min(e->>'name') AS "name", sum((e->>'amount')::integer) AS "amount", bool_and((e->>'inclusive')::boolean) AS "inclusive", min(c."created_at") AS "first"
		FROM "folio_charges" c, jsonb_array_elements(c."taxes") e
		WHERE c."kind" IN ('room_night', 'tax') AND c."reservation_id" IS NOT NULL
		GROUP BY c."reservation_id", e->>'tax_id'
	) per_tax
	GROUP BY "reservation_id"
) t ON t."reservation_id" = s."reservation_id"
WHERE r."id" = s."reservation_id";
--> statement-breakpoint
UPDATE "reservations" SET "net_amount" = "total_amount" WHERE "net_amount" IS NULL;
--> statement-breakpoint
ALTER TABLE "reservations" ALTER COLUMN "net_amount" SET NOT NULL;
--> statement-breakpoint
-- A guest's postal address for the invoice (every line optional, as a property's); null: none given.
ALTER TABLE "guests" ADD COLUMN "address" jsonb;
