-- Renamed validity columns are recognised; the default names no longer are.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_versions AS d  -- want BF701 "compares \"d.start_ts\" but not \"d.end_ts\""
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.start_ts
WHERE d.end_ts IS NOT NULL;

SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_versions AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.start_ts
  AND r.order_ts < d.end_ts;

SELECT r.order_id, d.country, d.valid_from, d.valid_to
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d ON d.customer_id = r.customer_id;
