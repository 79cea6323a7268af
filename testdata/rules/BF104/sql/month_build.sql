CREATE TABLE backfill_staging.revenue_monthly__bf20260826_m AS
SELECT date_trunc('month', order_date) AS order_month, SUM(net_amount_minor) AS revenue_minor
FROM analytics.fct_orders
WHERE order_month >= DATE '2026-01-01' AND order_month < DATE '2026-07-01'
GROUP BY 1;
