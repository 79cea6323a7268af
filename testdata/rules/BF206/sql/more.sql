MERGE INTO analytics.fct_orders  -- want BF206 "matches rows on \\(\"order_id\", \"order_date\"\\), but rerun.key is \\(\"order_id\"\\)"
USING backfill_staging.fct_orders__bf20260826_b AS s
  ON fct_orders.order_id = s.order_id AND s.order_date = fct_orders.order_date
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;
