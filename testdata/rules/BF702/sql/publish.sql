MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET country = s.country, amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, customer_id, order_ts, order_date, country, amount_minor)
VALUES (s.order_id, s.customer_id, s.order_ts, s.order_date, s.country, s.amount_minor);
