-- DELETE then INSERT replaces the range: a second run deletes what the
-- first inserted. Whether the pair is atomic is BF204's concern.
DELETE FROM analytics.fct_orders
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

INSERT INTO analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;
