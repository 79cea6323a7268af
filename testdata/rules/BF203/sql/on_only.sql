MERGE INTO analytics.fct_orders AS t  -- want BF203 "The range predicate in ON only limits which rows match and are updated: a source row outside it matches nothing and is inserted"
USING backfill_staging.fct_orders__bf20260826_c AS s
  ON t.order_id = s.order_id
 AND t.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
