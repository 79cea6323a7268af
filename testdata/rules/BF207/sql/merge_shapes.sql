MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_d AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT *;

MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_d AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT VALUES (s.order_id, s.order_date, s.amount_minor);

MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_d AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, ORDER_DATE, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);

MERGE INTO analytics.fct_orders AS t  -- want BF207 "inserts rows without \"Order_Date\""
USING backfill_staging.fct_orders__bf20260826_d AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED AND s.amount_minor > 0 THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor)
WHEN NOT MATCHED THEN INSERT (order_id, amount_minor)
  VALUES (s.order_id, s.amount_minor);
