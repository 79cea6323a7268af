-- Source against staging, day by day: the order count and the net amount
-- recomputed straight from raw.orders must equal what the build staged. A
-- day missing on either side counts in full. Passes when max_abs_delta = 0.
WITH source_days AS (
    SELECT
        DATE(order_ts) AS order_date,
        COUNT(*) AS orders,
        SUM(amount_minor - COALESCE(voucher_discount_minor, 0)) AS net_minor
    FROM raw.orders
    WHERE DATE(order_ts) BETWEEN DATE '2026-08-03' AND DATE '2026-09-20'
    GROUP BY DATE(order_ts)
),
staged_days AS (
    SELECT
        order_date,
        COUNT(*) AS orders,
        SUM(net_amount_minor) AS net_minor
    FROM backfill_staging.fct_orders__bf20260803_a
    GROUP BY order_date
)
SELECT
    COALESCE(MAX(GREATEST(
        ABS(COALESCE(g.orders, 0) - COALESCE(s.orders, 0)),
        ABS(COALESCE(g.net_minor, 0) - COALESCE(s.net_minor, 0))
    )), 0) AS max_abs_delta,
    COUNT(*) AS days_compared
FROM source_days AS s
FULL OUTER JOIN staged_days AS g
    ON g.order_date = s.order_date;
