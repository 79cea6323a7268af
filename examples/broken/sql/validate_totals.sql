-- Daily totals of the recomputed table, to be looked at by eye. Nothing says
-- what a good result is, and a doubled day looks just as plausible.
SELECT order_date, COUNT(*) AS orders, SUM(net_amount_minor) AS net_minor
FROM analytics.fct_orders_new
GROUP BY order_date
ORDER BY order_date;
