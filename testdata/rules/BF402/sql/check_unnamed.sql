SELECT COUNT(*) FROM backfill_staging.revenue_daily__bf20260826_r WHERE net_revenue < 0;
