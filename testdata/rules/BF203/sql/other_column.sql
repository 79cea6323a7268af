MERGE INTO analytics.fct_orders AS t  -- want BF203 "not filtered to a range of \"order_date\""
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_e
  WHERE updated_at >= TIMESTAMP '2026-08-01 00:00' AND updated_at < TIMESTAMP '2026-08-26 00:00'
) AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
