CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20261130_a AS
SELECT order_id, order_date, amount_minor
FROM raw.orders_events
WHERE order_date BETWEEN DATE '2026-11-01' AND DATE '2026-11-29';
