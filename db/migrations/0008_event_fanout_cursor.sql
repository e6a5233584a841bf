-- The webhook fan-out no longer marks every event row it takes (an UPDATE of a wide row per event,
-- and a row lock before it): it keeps a cursor over (xid, id) and takes only events written by
-- transactions older than every one still running, so none that commits late is passed over.
-- Existing rows get this migration's xid: those not yet fanned out are taken once it commits.
CREATE TABLE "event_fanout_cursor" (
	"id" smallint PRIMARY KEY NOT NULL,
	"xid" "xid8" NOT NULL,
	"event_id" text NOT NULL
);
--> statement-breakpoint
DROP INDEX "events_fanout_idx";--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE INDEX "events_fanout_idx" ON "events" USING btree ("xid","id") WHERE "events"."fanned_out_at" is null;--> statement-breakpoint
INSERT INTO "event_fanout_cursor" ("id", "xid", "event_id") VALUES (1, '0', '');
