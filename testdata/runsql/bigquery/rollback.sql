-- Written by bflint init for analytics.fct_orders (bigquery).
-- The captured range replaces the published one in one operation.
-- The range is 2026-01-14..2026-06-30 (day), bounded by literal partitions, the one
-- after its last exclusive.
MERGE analytics.fct_orders AS t
USING (
    SELECT *
    FROM backfill_rollback.fct_orders__pre_bf20260826_a
    WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
) AS s
ON FALSE
WHEN NOT MATCHED BY SOURCE AND t.order_date >= DATE '2026-01-14' AND t.order_date < DATE '2026-07-01' THEN DELETE
WHEN NOT MATCHED THEN INSERT ROW;
