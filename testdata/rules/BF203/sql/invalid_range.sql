MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_f AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
