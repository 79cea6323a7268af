CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_s AS
SELECT *
FROM raw.orders_events
WHERE order_date >= DATE '2026-01-14'  -- want BF102 "\"order_date\" is bounded below here but not above"
  AND loaded_date >= CURRENT_DATE - 400
  AND event_time > TIMESTAMP '2026-01-01 00:00';
