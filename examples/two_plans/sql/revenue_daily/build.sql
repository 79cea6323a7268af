-- Recompute revenue_daily for 2026-01-14..2026-06-30 into this run's staging
-- table. It reads analytics.fct_orders as plan bf20261116_a publishes it,
-- which is why this plan lists that one in after: run any earlier and it
-- would aggregate the uncorrected orders. The logic is models/revenue_daily.sql
-- with the ephemeral int_orders written inline.
DROP TABLE IF EXISTS backfill_staging.revenue_daily__bf20261116_b;

CREATE TABLE backfill_staging.revenue_daily__bf20261116_b AS
SELECT
    order_date,
    COUNT(*) AS order_count,
    SUM(net_amount_minor) AS net_revenue_minor
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
GROUP BY order_date;
