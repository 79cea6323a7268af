CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, r.order_date, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF703 "BETWEEN d.valid_from AND d.valid_to"
  ON d.customer_id = r.customer_id AND r.order_ts BETWEEN d.valid_from AND d.valid_to
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
