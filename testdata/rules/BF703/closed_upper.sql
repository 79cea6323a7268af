-- <= valid_to, written either way round, in ON or WHERE, with or without
-- COALESCE: the end instant belongs to two versions.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF703 "closes the validity interval with <= d.valid_to.*make the upper bound exclusive: <event time> >= d.valid_from AND <event time> < d.valid_to"
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts <= d.valid_to;

SELECT r.order_id, d.country
FROM raw.orders_events r, dim.customer_snapshot d  -- want BF703 "<= d.valid_to"
WHERE d.customer_id = r.customer_id
  AND d.valid_from <= r.order_ts
  AND d.valid_to >= r.order_ts;

SELECT r.order_id, s.segment
FROM raw.orders_events AS r
LEFT JOIN snapshots.customers_snapshot AS s  -- want BF703 "<= s.dbt_valid_to"
  ON s.customer_id = r.customer_id
  AND r.order_ts >= s.dbt_valid_from
  AND r.order_ts <= COALESCE(s.dbt_valid_to, '9999-12-31');

SELECT r.order_id, p.price
FROM raw.orders_events AS r
JOIN dim.price_history AS p  -- want BF703 "BETWEEN p.effective_from AND p.effective_to"
  ON p.sku = r.sku
  AND r.order_date BETWEEN p.effective_from AND p.effective_to;
