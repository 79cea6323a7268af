-- Control period 2025-10-01..2025-12-31, before the faulty deploy: the same
-- aggregation over fct_orders must reproduce what revenue_daily already
-- holds there. Passes when changed_rows = 0.
DROP TABLE IF EXISTS backfill_staging.revenue_daily__bf20261116_b_control;

CREATE TABLE backfill_staging.revenue_daily__bf20261116_b_control AS
SELECT
    order_date,
    COUNT(*) AS order_count,
    SUM(net_amount_minor) AS net_revenue_minor
FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2025-10-01' AND DATE '2025-12-31'
GROUP BY order_date;

SELECT COUNT(*) AS changed_rows
FROM backfill_staging.revenue_daily__bf20261116_b_control AS c
FULL OUTER JOIN (
    SELECT order_date, order_count, net_revenue_minor
    FROM analytics.revenue_daily
    WHERE order_date BETWEEN DATE '2025-10-01' AND DATE '2025-12-31'
) AS t
    ON t.order_date = c.order_date
WHERE c.order_date IS NULL
   OR t.order_date IS NULL
   OR (c.order_count, c.net_revenue_minor) IS DISTINCT FROM (t.order_count, t.net_revenue_minor);
