CREATE TABLE backfill_staging.revenue_daily__bf_q AS
SELECT order_date, SUM(net_amount_minor) AS net_minor
FROM analytics.fct_orders
GROUP BY order_date;
