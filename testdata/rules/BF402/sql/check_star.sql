SELECT * FROM (SELECT COUNT(*) AS changed_rows FROM backfill_staging.revenue_daily__bf20260826_r) AS d;
