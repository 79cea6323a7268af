-- Written by bflint init for analytics.fct_orders (duckdb).
-- Rows that share a key in staging: none may come back before the
-- publish.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
SELECT order_id, COUNT(*) AS copies
FROM backfill_staging.fct_orders__bf20260826_a
WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
GROUP BY order_id
HAVING COUNT(*) > 1;
