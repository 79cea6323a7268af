-- IS NULL handling, in the bound or anywhere in the join's predicates.
SELECT r.order_id, s.segment
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s
  ON s.customer_id = r.customer_id
  AND r.order_ts >= s.dbt_valid_from
  AND (r.order_ts < s.dbt_valid_to OR s.dbt_valid_to IS NULL);

SELECT r.order_id, s.segment
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s
  ON s.customer_id = r.customer_id
  AND r.order_ts >= s.dbt_valid_from
  AND r.order_ts < IFNULL(s.dbt_valid_to, TIMESTAMP '9999-12-31 00:00:00');

-- A dimension with its own names is assumed to close current rows with a
-- far-future date, as the seed's does.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_history AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts < d.valid_to;

-- A scalar lookup yields NULL for a current version; the order stays.
SELECT r.order_id,
       (SELECT segment FROM snapshots.customers_snapshot
        WHERE customer_id = r.customer_id AND r.order_ts >= dbt_valid_from AND r.order_ts < dbt_valid_to) AS segment
FROM raw.orders_events AS r;
