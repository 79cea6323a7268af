MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_b AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET t.amount = s.amount
WHEN NOT MATCHED THEN INSERT (order_id, amount) VALUES (s.order_id, s.amount);
