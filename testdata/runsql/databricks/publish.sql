-- Written by bflint init for analytics.fct_orders (databricks).
-- The staged range replaces the target's in one operation, so
-- readers see the old range or the new one, never a mix.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
INSERT INTO analytics.fct_orders
REPLACE WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
SELECT *
FROM backfill_staging.fct_orders__bf20260826_a
WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01';
