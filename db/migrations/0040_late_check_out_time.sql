-- Issue 39, point 6: a late check-out says until when. The hour the guest may stay to on the
-- departure day, on the hotel's wall clock ("14:00", as the property's check_out_time is kept);
-- null for a late check-out granted without one (those granted before this migration) and for a
-- stay with none. The grant itself stays `late_check_out_at`.
ALTER TABLE "reservations" ADD COLUMN "late_check_out_until" text;
