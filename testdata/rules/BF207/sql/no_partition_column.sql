MERGE INTO analytics.fct_orders AS t  -- want BF207 "matches or updates the target on \\(\"order_date\"\\)"
USING backfill_staging.fct_orders__bf20260826_e AS s
  ON t.order_id = s.order_id
 AND t.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
WHEN NOT MATCHED THEN INSERT (order_id, amount_minor) VALUES (s.order_id, s.amount_minor);
