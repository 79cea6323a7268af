-- Written by bflint init for analytics.fct_orders (bigquery).
-- Rows of the control period, 2026-01-12..2026-01-13, that the recompute changes,
-- counted both ways: the bug did not touch the period, so none may.
-- The range is 2026-01-14..2026-01-15 (day), bounded by literal partitions, the one
-- after its last exclusive.
WITH recomputed AS (
    SELECT TO_JSON_STRING(r) AS row_image
    FROM backfill_staging.fct_orders__bf20260826_a_control AS r
    WHERE order_date >= DATE '2026-01-12' AND order_date < DATE '2026-01-14'
),
live AS (
    SELECT TO_JSON_STRING(r) AS row_image
    FROM analytics.fct_orders AS r
    WHERE order_date >= DATE '2026-01-12' AND order_date < DATE '2026-01-14'
)
SELECT COUNT(*) AS changed_rows
FROM (
    (SELECT * FROM recomputed EXCEPT DISTINCT SELECT * FROM live)
    UNION ALL
    (SELECT * FROM live EXCEPT DISTINCT SELECT * FROM recomputed)
) AS changed;
