-- Setting a hotel up from the dashboard (issue 27): the property's check-in and check-out times,
-- a room type's beds, a room's retirement (the row stays, so stays and audit entries that name it
-- keep their room), and a rate plan's meal plan and derivation from a parent plan.
ALTER TABLE "properties" ADD COLUMN "check_in_time" text DEFAULT '15:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "check_out_time" text DEFAULT '11:00' NOT NULL;--> statement-breakpoint
ALTER TABLE "room_types" ADD COLUMN "beds" text;--> statement-breakpoint
ALTER TABLE "rooms" ADD COLUMN "retired_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "rate_plans" ADD COLUMN "meal_plan" text DEFAULT 'room_only' NOT NULL;--> statement-breakpoint
ALTER TABLE "rate_plans" ADD COLUMN "parent_rate_plan_id" text;--> statement-breakpoint
ALTER TABLE "rate_plans" ADD COLUMN "adjustment_percent_bp" integer;--> statement-breakpoint
ALTER TABLE "rate_plans" ADD COLUMN "adjustment_amount" integer;--> statement-breakpoint
CREATE INDEX "rate_plans_parent_idx" ON "rate_plans" USING btree ("parent_rate_plan_id") WHERE "rate_plans"."parent_rate_plan_id" is not null;
