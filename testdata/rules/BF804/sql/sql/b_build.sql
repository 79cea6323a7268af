CREATE TABLE backfill_staging.revenue_daily__bf_b AS
SELECT order_date, SUM(net_amount_minor) AS net_minor
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
GROUP BY order_date;
