-- Half-open intervals, and closed bounds that are not a version's end.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
  AND d.valid_from <= r.order_ts
  AND d.valid_to > r.order_ts
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

SELECT r.order_id, s.segment
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s
  ON s.customer_id = r.customer_id
  AND r.order_ts >= s.dbt_valid_from
  AND r.order_ts < COALESCE(s.dbt_valid_to, '9999-12-31');

-- valid_to compared with a constant is no interval over the orders (BF701
-- reports that join), and valid_from <= valid_to compares the dimension
-- with itself.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND d.valid_to <= DATE '2026-06-30'
  AND d.valid_from <= d.valid_to;

-- Not a type-2 relation.
SELECT r.order_id, p.name
FROM raw.orders_events AS r
JOIN dim.promotions AS p ON p.promo_id = r.promo_id AND r.order_ts <= p.ends_at;
