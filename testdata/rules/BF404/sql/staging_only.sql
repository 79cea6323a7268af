SELECT COUNT(*) AS n FROM backfill_staging.fct_orders__bf20260826_a;
