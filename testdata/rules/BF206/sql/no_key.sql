MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_e AS s
  ON t.customer_id = s.customer_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;
