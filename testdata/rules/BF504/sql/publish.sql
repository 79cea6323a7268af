MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_c AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET net_amount_minor = s.net_amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, net_amount_minor) VALUES (s.order_id, s.net_amount_minor);
