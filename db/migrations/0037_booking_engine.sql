-- The direct booking engine (issue 38). One row per property that has been set up for it: switched
-- on or off, the slug of its public address (/book/<slug>, unique across every account and
-- environment, since the page is reached without a credential) and the rate plans it sells.
CREATE TABLE "booking_engines" (
	"property_id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"slug" text,
	"rate_plan_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A guest's booking in progress: the stay chosen, the inventory hold keeping its room while the
-- form is filled (null once released), the form's token (SHA-256, never the token itself) and the
-- reservation it became, which makes a second submit answer the same booking.
CREATE TABLE "booking_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"livemode" boolean NOT NULL,
	"property_id" text NOT NULL,
	"room_type_id" text NOT NULL,
	"rate_plan_id" text NOT NULL,
	"check_in" date NOT NULL,
	"check_out" date NOT NULL,
	"adults" integer NOT NULL,
	"children" integer NOT NULL,
	"token_hash" text NOT NULL,
	"hold_id" text,
	"reservation_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "booking_engines_slug_key" ON "booking_engines" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "booking_sessions_token_key" ON "booking_sessions" USING btree ("token_hash");--> statement-breakpoint
-- The sweep of abandoned forms reads only sessions still holding a room, by property and expiry.
CREATE INDEX "booking_sessions_open_idx" ON "booking_sessions" USING btree ("property_id","expires_at") WHERE "booking_sessions"."hold_id" is not null;
