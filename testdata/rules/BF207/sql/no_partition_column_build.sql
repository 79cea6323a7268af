CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_e AS
SELECT order_id, amount_minor FROM raw.orders_events;
