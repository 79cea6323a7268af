-- A standalone SQL file has no plan, so no range an insert could widen:
-- BF203 reads only a plan's SQL, and these unbounded MERGEs stay silent.
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT *;

MERGE INTO analytics.fct_orders t
USING (SELECT * FROM backfill_staging.fct_orders__bf20260826_a WHERE order_date >= '2026-01-14') s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date) VALUES (s.order_id, s.order_date);
