-- rerun.write says merge: the plan's finding covers this statement.
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_i AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor;
