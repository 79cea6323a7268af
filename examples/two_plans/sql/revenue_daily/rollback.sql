-- Undo the publish: the range back exactly as capture.sql found it, in one
-- transaction so that readers never see it empty. Rolling back fct_orders
-- (plan bf20261116_a) means rolling this back too, or the mart would show
-- corrected numbers over uncorrected orders.
BEGIN;

DELETE FROM analytics.revenue_daily
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO analytics.revenue_daily (order_date, order_count, net_revenue_minor)
SELECT order_date, order_count, net_revenue_minor
FROM backfill_rollback.revenue_daily__pre_bf20261116_b;

COMMIT;
