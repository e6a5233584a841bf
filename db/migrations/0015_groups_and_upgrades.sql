-- Several rooms in one booking (issue 27): a group holds the reservations of its rooms. With
-- master billing every room's folio is the group's one master folio; with individual billing each
-- room keeps its own.
CREATE TABLE "groups" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"name" text NOT NULL,
	"billing" text NOT NULL,
	"master_folio_id" text,
	"notes" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "groups_list_idx" ON "groups" USING btree ("account_id","livemode","created_at","id");
--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "group_id" text;
--> statement-breakpoint
CREATE INDEX "reservations_group_idx" ON "reservations" USING btree ("group_id");
--> statement-breakpoint
-- Which stay a room night or fee is for: on a master folio several rooms' nights sit side by side,
-- and cancelling, shortening or upgrading one room must touch only its own lines.
ALTER TABLE "folio_charges" ADD COLUMN "reservation_id" text;
--> statement-breakpoint
UPDATE "folio_charges" c SET "reservation_id" = f."reservation_id" FROM "folios" f WHERE f."id" = c."folio_id";
