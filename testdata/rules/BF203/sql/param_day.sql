MERGE INTO analytics.fct_orders AS t
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_p
  WHERE order_date = @submission_date
) AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);

MERGE INTO analytics.fct_orders AS t
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_p
  WHERE order_date = '{{ var("ds") }}'
) AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);

MERGE INTO analytics.fct_orders AS t  -- want BF203 "inserts every unmatched row"
USING (
  SELECT * FROM backfill_staging.fct_orders__bf20260826_p
  WHERE order_date >= @submission_date
) AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
