-- Bounds in WHERE, in a later ON, with COALESCE, or through dbt's names all
-- pick one version per order.
SELECT r.order_id, d.country
FROM raw.orders_events r, dim.customer_snapshot d
WHERE d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts < d.valid_to;

SELECT r.order_id, d.country, c.channel
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d ON d.customer_id = r.customer_id
JOIN dim.channel AS c
  ON c.channel_id = r.channel_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts < COALESCE(d.valid_to, TIMESTAMP '9999-12-31 00:00:00');

SELECT r.order_id, s.segment
FROM raw.orders_events AS r
LEFT JOIN snapshots.customers_snapshot AS s
  ON s.customer_id = r.customer_id
  AND s.dbt_valid_from <= r.order_ts
  AND (s.dbt_valid_to > r.order_ts OR s.dbt_valid_to IS NULL);

-- A closed upper bound still picks the version (BF703 reports the boundary).
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts BETWEEN d.valid_from AND d.valid_to;

-- Correlated lookup with both bounds.
SELECT r.order_id,
       (SELECT country FROM dim.customer_snapshot
        WHERE customer_id = r.customer_id AND valid_from <= r.order_ts AND valid_to > r.order_ts) AS country
FROM raw.orders_events AS r;

-- Reading the dimension on its own is not a join.
SELECT customer_id, valid_from, valid_to FROM dim.customer_snapshot WHERE valid_to > valid_from;

-- A plain join to a relation nothing marks as type-2.
SELECT r.order_id, c.name FROM raw.orders_events r JOIN dim.channel c ON c.channel_id = r.channel_id;

-- Maintaining the dimension reads its versions by key on purpose.
UPDATE dim.customer_snapshot AS d
SET valid_to = s.changed_at
FROM backfill_staging.customer_changes s
WHERE d.customer_id = s.customer_id AND d.valid_from < s.changed_at AND d.valid_to = TIMESTAMP '9999-12-31 00:00:00';

-- The fact stores the version it was built with; and a check that each
-- version starts where the previous one ended.
SELECT f.order_id, d.country
FROM analytics.fct_orders AS f
JOIN dim.customer_snapshot AS d
  ON d.customer_id = f.customer_id AND d.valid_from = f.customer_valid_from
WHERE d.valid_to IS NOT NULL;

SELECT a.customer_id
FROM dim.customer_snapshot AS a
JOIN dim.customer_snapshot AS b
  ON b.customer_id = a.customer_id AND b.valid_from = a.valid_to
WHERE a.valid_from >= b.valid_to;

-- The bounds written as the negation of their failures: NOT (outside the
-- version) is inside it.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
  AND NOT (
    r.order_ts >= d.valid_to
    OR r.order_ts < d.valid_from
  );
