-- Staged days against the raw events, recomputed independently of
-- fct_orders: order count and net revenue per day. Orders whose customer is
-- missing from the dimension never reach fct_orders, hence a tolerance
-- rather than equality. Passes when max_abs_delta_pct <= 0.5; a day missing
-- on either side counts as a 100 % difference.
WITH source_days AS (
    SELECT
        order_date,
        COUNT(*) AS order_count,
        SUM(CASE WHEN is_refunded THEN 0 ELSE amount_minor END) AS net_minor
    FROM raw.orders_events
    WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
    GROUP BY order_date
),
deltas AS (
    SELECT
        CASE
            WHEN s.order_date IS NULL OR g.order_date IS NULL THEN 100.0
            ELSE 100.0 * ABS(g.order_count - s.order_count) / NULLIF(s.order_count, 0)
        END AS count_delta_pct,
        CASE
            WHEN s.order_date IS NULL OR g.order_date IS NULL THEN 100.0
            WHEN s.net_minor = 0 AND g.net_revenue_minor = 0 THEN 0.0
            ELSE 100.0 * ABS(g.net_revenue_minor - s.net_minor) / NULLIF(ABS(s.net_minor), 0)
        END AS net_delta_pct
    FROM source_days AS s
    FULL OUTER JOIN backfill_staging.revenue_daily__bf20261116_b AS g
        ON g.order_date = s.order_date
)
SELECT
    COALESCE(MAX(GREATEST(count_delta_pct, net_delta_pct)), 100.0) AS max_abs_delta_pct,
    COUNT(*) AS days_compared
FROM deltas;
