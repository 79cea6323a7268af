-- Where does the problem start? The deploy history points at 2026-01-14
-- (3f2a9c1). The data decides: before the bug a refunded order carried a net
-- amount of zero, so the daily net amount of refunded orders is zero up to the
-- boundary and jumps on the first affected day. The first day returned is the
-- confirmed boundary written into the plan.
WITH daily AS (
    SELECT
        order_date,
        SUM(CASE WHEN is_refunded THEN net_amount_minor ELSE 0 END) AS refunded_net_minor,
        SUM(net_amount_minor) AS net_minor
    FROM analytics.fct_orders
    WHERE order_date BETWEEN DATE '2025-12-01' AND DATE '2026-02-28'
    GROUP BY order_date
),
stepped AS (
    SELECT
        order_date,
        refunded_net_minor,
        net_minor,
        LAG(refunded_net_minor) OVER (ORDER BY order_date) AS previous_refunded_net_minor
    FROM daily
)
SELECT order_date, previous_refunded_net_minor, refunded_net_minor, net_minor
FROM stepped
WHERE refunded_net_minor > 0
  AND COALESCE(previous_refunded_net_minor, 0) = 0
ORDER BY order_date
LIMIT 1;
