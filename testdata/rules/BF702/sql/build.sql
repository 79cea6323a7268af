CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, r.order_date, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF702 "keeps only its current version \\(d.is_current\\).*drop the filter and join the version valid at the row's time: <event time> >= d.valid_from AND <event time> < d.valid_to"
  ON d.customer_id = r.customer_id
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
  AND d.is_current;
