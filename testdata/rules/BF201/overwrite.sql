-- Writes that replace partitions or match on a key are not appends.
INSERT OVERWRITE TABLE analytics.fct_orders PARTITION (order_date = '2026-01-14')
SELECT order_id, amount_minor FROM backfill_staging.fct_orders__bf20260826_a
WHERE order_date = '2026-01-14';

-- Without PARTITION it replaces the whole table: BF302's finding, not an append.
INSERT OVERWRITE TABLE analytics.fct_orders
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

INSERT INTO analytics.fct_orders REPLACE WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30'
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

MERGE INTO analytics.fct_orders AS t
USING backfill_staging.fct_orders__bf20260826_a AS s
  ON t.order_id = s.order_id
WHEN MATCHED THEN UPDATE SET amount_minor = s.amount_minor
WHEN NOT MATCHED THEN INSERT (order_id, order_date, amount_minor)
  VALUES (s.order_id, s.order_date, s.amount_minor);
