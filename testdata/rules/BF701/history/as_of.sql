-- The same dimension joined as of each order, and a relation the pattern
-- does not name.
SELECT r.order_id, d.country, c.name
FROM raw.orders_events AS r
JOIN dim.customer_history AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts < d.valid_to
JOIN dim.channel AS c ON c.channel_id = r.channel_id;
