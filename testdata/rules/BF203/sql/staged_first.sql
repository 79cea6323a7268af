CREATE TEMP TABLE in_range AS
SELECT * FROM backfill_staging.fct_orders__bf20260826_q
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

MERGE INTO analytics.fct_orders AS t
USING in_range AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);

CREATE TEMP TABLE everything AS
SELECT * FROM backfill_staging.fct_orders__bf20260826_q;

MERGE INTO analytics.fct_orders AS t  -- want BF203 "\"everything\""
USING everything AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);

MERGE INTO analytics.fct_orders AS t
USING (
  WITH days AS (
    SELECT * FROM backfill_staging.fct_orders__bf20260826_q
    WHERE order_date >= DATE '2026-01-14' AND order_date < DATE '2026-07-01'
  )
  SELECT * FROM days
) AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
