SELECT COUNT(*) AS null_countries
FROM backfill_staging.fct_orders__bf20260826_d
WHERE country IS NULL;
