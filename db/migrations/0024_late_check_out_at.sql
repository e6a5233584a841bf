-- When the stay's late check-out was granted (once per stay, server/reservations/in-house.ts).
-- It was read from the audit trail, which is a record of what happened and not the stay's state;
-- grants made before are carried over from it.
ALTER TABLE "reservations" ADD COLUMN "late_check_out_at" timestamp with time zone;--> statement-breakpoint
UPDATE "reservations" r SET "late_check_out_at" = a."granted_at"
FROM (
  SELECT "object_id", min("created_at") AS "granted_at" FROM "audit_log"
  WHERE "action" = 'reservation.late_check_out_granted' GROUP BY "object_id"
) a
WHERE a."object_id" = r."id";
