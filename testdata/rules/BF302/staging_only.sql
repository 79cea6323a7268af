-- Rebuilding staging from scratch is what staging is for.
DROP TABLE IF EXISTS backfill_staging.fct_orders__bf20260826_a;
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
TRUNCATE TABLE orders_staging.fct_orders;
INSERT OVERWRITE staging_orders.fct_orders SELECT * FROM raw.orders_events;
