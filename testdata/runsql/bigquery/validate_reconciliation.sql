-- Written by bflint init for analytics.fct_orders (bigquery).
-- Rows per partition in staging against the target; a partition
-- missing on either side counts as 100%.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
WITH staged AS (
    SELECT order_date AS partition_value, COUNT(*) AS row_count
    FROM backfill_staging.fct_orders__bf20260826_a
    WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
    GROUP BY order_date
),
live AS (
    SELECT order_date AS partition_value, COUNT(*) AS row_count
    FROM analytics.fct_orders
    WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
    GROUP BY order_date
)
SELECT
    COALESCE(MAX(
        CASE
            WHEN s.partition_value IS NULL OR l.partition_value IS NULL THEN 100.0
            ELSE 100.0 * ABS(s.row_count - l.row_count) / l.row_count
        END
    ), 0) AS max_row_delta_pct,
    COUNT(*) AS partitions_compared
FROM staged AS s
FULL OUTER JOIN live AS l
    ON l.partition_value = s.partition_value;
