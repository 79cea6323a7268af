-- Standalone: any two-sided bound on a date or time column counts, in the
-- USING query, a WITH query it names, every branch of a UNION, or the
-- insert's own condition.
WITH staged AS (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_a
  WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
)
MERGE INTO analytics.fct_orders AS t
USING staged AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date) VALUES (s.order_id, s.order_date);

MERGE INTO analytics.events AS t
USING (
  SELECT * FROM backfill_staging.events__bf20260826_a
  WHERE created_at BETWEEN TIMESTAMP '2026-01-14 00:00' AND TIMESTAMP '2026-06-30 23:59:59'
) AS s
  ON t.event_id = s.event_id
WHEN NOT MATCHED THEN INSERT (event_id, created_at) VALUES (s.event_id, s.created_at);

MERGE INTO analytics.fct_orders AS t
USING (
  SELECT order_id, ds FROM backfill_staging.orders_a WHERE ds BETWEEN '2026-01-14' AND '2026-03-31'
  UNION ALL
  SELECT order_id, ds FROM backfill_staging.orders_b WHERE ds BETWEEN '2026-04-01' AND '2026-06-30'
) AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, ds) VALUES (s.order_id, s.ds);

MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED AND s.order_date = DATE '2026-01-14' THEN INSERT (order_id, order_date) VALUES (s.order_id, s.order_date);

-- Nothing is inserted: updates only, or DO NOTHING.
MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN DO NOTHING;
