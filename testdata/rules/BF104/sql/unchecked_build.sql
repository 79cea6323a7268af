CREATE TABLE backfill_staging.fct_orders__bf20260826_n AS
SELECT * FROM raw.orders_events
WHERE order_date BETWEEN DATE '2025-01-01' AND DATE '2025-12-31';
