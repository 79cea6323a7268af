-- Publish the rebuilt week: replace the range atomically, then tidy up.
BEGIN TRANSACTION;

DELETE analytics.core.fct_orders
WHERE order_date BETWEEN '2024-01-15' AND '2024-01-21';

INSERT INTO analytics.core.fct_orders (order_id, line_no, order_date, amount, status)
SELECT order_id, line_no, order_date, amount, status_clean
FROM analytics.backfill_staging.orders_2024w03
WHERE order_date BETWEEN '2024-01-15' AND '2024-01-21';

COMMIT;

-- Late corrections merge on the natural key.
MERGE INTO analytics.core.fct_orders AS t
USING (
    SELECT *
    FROM analytics.backfill_staging.orders_2024w03
    WHERE order_date >= '2024-01-15' AND order_date < '2024-01-22'
) AS s
ON t.order_id = s.order_id AND t.line_no = s.line_no
WHEN MATCHED AND s.status_clean = 'cancelled' THEN DELETE
WHEN MATCHED THEN UPDATE SET t.amount = s.amount, t.status = s.status_clean, t.updated_at = CURRENT_TIMESTAMP()
WHEN NOT MATCHED THEN INSERT (order_id, line_no, order_date, amount, status)
    VALUES (s.order_id, s.line_no, s.order_date, s.amount, s.status_clean);

-- A full rebuild of a small dimension swaps the finished copy in.
CREATE OR REPLACE TABLE analytics.core.dim_store_next CLONE analytics.core.dim_store;

INSERT OVERWRITE INTO analytics.core.dim_store_next
SELECT store_id, store_name, region, SYSDATE() AS loaded_at
FROM raw.shop.stores;

ALTER TABLE analytics.core.dim_store SWAP WITH analytics.core.dim_store_next;

DROP TABLE IF EXISTS analytics.core.dim_store_next;

TRUNCATE TABLE IF EXISTS analytics.backfill_staging.orders_2024w03;
