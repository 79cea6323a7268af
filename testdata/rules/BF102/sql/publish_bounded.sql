MERGE INTO analytics.fct_orders AS t
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_s
  WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
) AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
