-- BETWEEN, bounds in WHERE and a comma join drop the NULL end just the same.
SELECT r.order_id, s.segment
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s  -- want BF704 "compares \"s.dbt_valid_to\" without handling NULL"
  ON s.customer_id = r.customer_id
  AND r.order_ts BETWEEN s.dbt_valid_from AND s.dbt_valid_to;

SELECT r.order_id, s.segment
FROM raw.orders_events r, snapshots.customers_snapshot s  -- want BF704 "\"snapshots.customers_snapshot\" \\(alias \"s\"\\)"
WHERE s.customer_id = r.customer_id
  AND s.dbt_valid_from <= r.order_ts
  AND s.dbt_valid_to > r.order_ts;

-- A correlated lookup is an inner join for the rows it filters.
SELECT r.order_id
FROM raw.orders_events AS r
WHERE EXISTS (SELECT 1 FROM snapshots.customers_snapshot  -- want BF704 "\"snapshots.customers_snapshot\" compares \"dbt_valid_to\""
              WHERE customer_id = r.customer_id
                AND r.order_ts >= dbt_valid_from
                AND r.order_ts < dbt_valid_to
                AND segment = 'enterprise');
