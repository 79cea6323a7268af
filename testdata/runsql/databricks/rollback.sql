-- Written by bflint init for analytics.fct_orders (databricks).
-- The captured range replaces the published one in one operation.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
INSERT INTO analytics.fct_orders
REPLACE WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
SELECT *
FROM backfill_rollback.fct_orders__pre_bf20260826_a
WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01';
