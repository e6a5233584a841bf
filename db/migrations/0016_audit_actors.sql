ALTER TABLE "audit_log" ADD COLUMN "actor_type" text DEFAULT 'staff' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "actor_name" text;--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "actor_email" DROP NOT NULL;
