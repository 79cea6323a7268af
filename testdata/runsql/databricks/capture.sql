-- Written by bflint init for analytics.fct_orders (databricks).
-- A copy of the range as it stands, taken before the publish; the
-- rollback restores from it.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
CREATE TABLE backfill_rollback.fct_orders__pre_bf20260826_a AS
SELECT *
FROM analytics.fct_orders
WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01';
