-- NULL handled inside the as-of bound, not used to pick today's row.
SELECT r.order_id, s.segment
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s
  ON s.customer_id = r.customer_id
  AND r.order_ts >= s.dbt_valid_from
  AND (r.order_ts < s.dbt_valid_to OR s.dbt_valid_to IS NULL);

SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts < COALESCE(d.valid_to, '9999-12-31');

-- Closed versions only, and a real end date: neither is today's row.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
  AND r.order_ts < d.valid_to
WHERE d.is_current = FALSE AND d.valid_to <> DATE '2026-06-30';

-- Reading today's rows on their own is not a join.
SELECT customer_id, country FROM dim.customer_snapshot WHERE is_current;

-- Maintaining the dimension: new versions are compared with the open ones.
INSERT INTO dim.customer_snapshot (customer_id, country, valid_from, valid_to, is_current)
SELECT c.customer_id, c.country, c.changed_at, TIMESTAMP '9999-12-31 00:00:00', TRUE
FROM backfill_staging.customer_changes AS c
LEFT JOIN dim.customer_snapshot AS d
  ON d.customer_id = c.customer_id AND d.is_current
WHERE d.country IS DISTINCT FROM c.country;

-- A flag on the relation the query starts from marks the latest version of
-- the fact itself, not a dimension read as of today.
SELECT r.order_id FROM raw.orders_events AS r JOIN raw.order_flags AS f ON f.order_id = r.order_id WHERE r.is_current;

-- The version is picked by the history's own row id (one row, one
-- version): the current-row flag beside it can only drop rows, never swap
-- in today's attributes.
SELECT a.activity_id, v.block_title
FROM raw.learner_activity AS a
LEFT JOIN dim.content_block_history AS v
  ON v.dbt_scd_id = a.content_block_version_id
 AND v.is_current;
