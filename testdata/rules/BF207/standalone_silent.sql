-- Standalone stays conservative: a MERGE that never names a partition-like
-- target column, one that inserts it, or one into staging is not reported.
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, amount_minor) VALUES (s.order_id, s.amount_minor);

MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id AND t.order_date = s.order_date
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor) VALUES (s.order_id, s.order_date, s.amount_minor);

MERGE INTO backfill_staging.fct_orders__bf20260826_a AS t
USING raw.orders_events AS s
  ON t.order_id = s.order_id AND t.order_date = s.order_date
WHEN NOT MATCHED THEN INSERT (order_id, amount_minor) VALUES (s.order_id, s.amount_minor);

-- The build shape is only judged against a plan's range.partition_column.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT order_id, amount_minor FROM raw.orders_events;
