-- Every booking, change and cancellation updates the same per-day rows of sales_days (one per
-- room type and night), so the table churns far more than it grows. Room left in each page lets
-- those updates stay on their page (HOT: no index entry, pruned in place), and a vacuum after 2 %
-- of dead rows (not the default 20 %) keeps the report's index scan over live rows.
ALTER TABLE "sales_days" SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.05);
--> statement-breakpoint
ALTER TABLE "sales_nights" SET (autovacuum_vacuum_scale_factor = 0.05);
