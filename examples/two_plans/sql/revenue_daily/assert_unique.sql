-- Precondition of the merge in publish.sql: one staged row per order day.
-- Any row returned here stops the run.
SELECT order_date, COUNT(*) AS n
FROM backfill_staging.revenue_daily__bf20261116_b
GROUP BY order_date
HAVING COUNT(*) > 1;
