-- Written by bflint init for analytics.fct_orders (snowflake).
-- Rows of the control period, 2026-01-07..2026-01-13, that the recompute changes,
-- counted both ways: the bug did not touch the period, so none may.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
WITH recomputed AS (
    SELECT *
    FROM backfill_staging.fct_orders__bf20260826_a_control AS r
    WHERE order_date >= DATE '2026-01-07' AND order_date < DATE '2026-01-14'
),
live AS (
    SELECT *
    FROM analytics.fct_orders AS r
    WHERE order_date >= DATE '2026-01-07' AND order_date < DATE '2026-01-14'
)
SELECT COUNT(*) AS changed_rows
FROM (
    (SELECT * FROM recomputed EXCEPT SELECT * FROM live)
    UNION ALL
    (SELECT * FROM live EXCEPT SELECT * FROM recomputed)
) AS changed;
