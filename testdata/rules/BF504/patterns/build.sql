CREATE TABLE scratch.keys_bf20260826_e AS SELECT DISTINCT order_id FROM raw.orders_events;
CREATE TABLE work.fct_orders__bf20260826_e AS SELECT * FROM raw.orders_events;
CREATE TABLE backfill_staging.fct_orders__bf20260826_e AS  -- want BF504 "backfill_staging.fct_orders__bf20260826_e"
SELECT * FROM raw.orders_events;
