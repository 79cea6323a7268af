MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_d AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED AND s.order_date >= DATE '2026-01-14' AND s.order_date < DATE '2026-07-01' THEN
  INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
