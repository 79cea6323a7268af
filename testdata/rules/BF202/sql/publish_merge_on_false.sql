MERGE analytics.fct_orders AS t
USING (
    SELECT * FROM backfill_staging.fct_orders__bf20260826_k
    WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
) AS s
ON FALSE
WHEN NOT MATCHED BY SOURCE AND t.order_date >= DATE '2026-01-14' AND t.order_date < DATE '2026-07-01' THEN DELETE
WHEN NOT MATCHED THEN INSERT ROW;
