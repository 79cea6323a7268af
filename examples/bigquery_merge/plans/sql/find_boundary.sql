-- Where does the problem start? The deploy history points at 2026-08-03
-- (7d1e4b2). The data decides: a correct row has
-- net_amount_minor = amount_minor - discount_minor, so the daily sum of the
-- difference is zero up to the boundary and jumps on the first day the
-- discount was taken twice. The first day returned is the confirmed
-- boundary written into the plan.
WITH daily AS (
    SELECT
        order_date,
        SUM(amount_minor - discount_minor - net_amount_minor) AS excess_discount_minor,
        COUNTIF(discount_minor > 0) AS orders_with_voucher
    FROM analytics.fct_orders
    WHERE order_date BETWEEN DATE '2026-07-01' AND DATE '2026-08-31'
    GROUP BY order_date
)
SELECT order_date, excess_discount_minor, orders_with_voucher
FROM daily
WHERE excess_discount_minor <> 0
ORDER BY order_date
LIMIT 1;
