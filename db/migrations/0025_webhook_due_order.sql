-- The dispatcher's claim goes endpoint by endpoint (server/webhooks/batch.ts): a skip scan finds
-- the endpoints with pending deliveries, and each one with a free slot gives its oldest due
-- deliveries. The due index held next_attempt_at alone, so every claim read and sorted every due
-- delivery, of full endpoints too (a burst's 3,000 rows, all due at once: 7 ms of PostgreSQL per
-- claim, half of what the burst cost it). Led by the endpoint and holding the claim's whole order,
-- the index gives a claim only the rows it takes.
DROP INDEX IF EXISTS "webhook_deliveries_due_idx";--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id", "next_attempt_at", "event_created_at", "id") WHERE "webhook_deliveries"."status" in ('queued', 'retry_scheduled');
