CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
