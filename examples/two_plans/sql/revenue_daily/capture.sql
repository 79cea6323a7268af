-- Taken right before publish: the range of revenue_daily as finance sees it
-- now, kept until 2027-12-31.
CREATE TABLE backfill_rollback.revenue_daily__pre_bf20261116_b AS
SELECT order_date, order_count, net_revenue_minor
FROM analytics.revenue_daily
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
