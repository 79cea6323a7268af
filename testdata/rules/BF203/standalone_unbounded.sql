-- Standalone: a whole staging table, a one-sided bound, and a bound on a
-- column that is no date all leave the insert open.
MERGE INTO analytics.fct_orders AS t  -- want BF203 "MERGE into \"analytics.fct_orders\" inserts every unmatched row of \"backfill_staging.fct_orders__bf20260826_a\", which is not filtered to a range of the partition column"
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT *;

MERGE INTO analytics.fct_orders t  -- want BF203 "inserts every unmatched row of the USING query"
USING (SELECT * FROM backfill_staging.fct_orders__bf20260826_a WHERE order_date >= '2026-01-14') s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date) VALUES (s.order_id, s.order_date);

MERGE INTO analytics.fct_orders t  -- want BF203 "the USING query"
USING (SELECT * FROM backfill_staging.fct_orders__bf20260826_a WHERE order_id BETWEEN 1 AND 1000) s
  ON t.order_id = s.order_id
WHEN NOT MATCHED THEN INSERT (order_id, order_date) VALUES (s.order_id, s.order_date);
