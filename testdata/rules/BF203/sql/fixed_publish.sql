MERGE INTO analytics.fct_orders AS t
USING (
  SELECT *
  FROM backfill_staging.fct_orders__bf20260826_b
  WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
) AS s
 ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET
 t.country = s.country,
 t.amount_minor = s.amount_minor,
 t.is_refunded = s.is_refunded,
 t.net_amount_minor = s.net_amount_minor
WHEN NOT MATCHED THEN INSERT
 (order_id, order_date, customer_id, order_ts, country, amount_minor,
 is_refunded, net_amount_minor)
VALUES
 (s.order_id, s.order_date, s.customer_id, s.order_ts, s.country, s.amount_minor,
 s.is_refunded, s.net_amount_minor);
