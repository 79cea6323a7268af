-- Each of these keeps one version per key: the one valid now.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d ON d.customer_id = r.customer_id AND d.is_current = 1;  -- want BF702 "\\(d.is_current = 1\\)"

SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d ON d.customer_id = r.customer_id  -- want BF702 "\\(d.is_current IS TRUE\\)"
WHERE d.is_current IS TRUE;

SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF702 "\\(d.valid_to IS NULL\\)"
  ON d.customer_id = r.customer_id AND d.valid_to IS NULL;

SELECT r.order_id, d.country
FROM raw.orders_events AS r
LEFT JOIN dim.customer_snapshot AS d  -- want BF702 "\\(d.valid_to = '9999-12-31'\\)"
  ON d.customer_id = r.customer_id AND d.valid_to = '9999-12-31';

SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF702 "\\(d.valid_to = '9999-12-31 23:59:59'\\)"
  ON d.customer_id = r.customer_id
WHERE TIMESTAMP '9999-12-31 23:59:59' = d.valid_to;

SELECT r.order_id, s.segment
FROM raw.orders_events AS r
JOIN snapshots.customers_snapshot AS s ON s.customer_id = r.customer_id  -- want BF702 "\\(s.dbt_valid_to IS NULL\\)"
WHERE s.dbt_valid_to IS NULL;

-- The version valid at the moment the statement runs is today's too, even
-- with both validity columns named.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF702 "\\(the current time BETWEEN d.valid_from AND d.valid_to\\)"
  ON d.customer_id = r.customer_id
  AND CURRENT_DATE BETWEEN d.valid_from AND d.valid_to;

SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF702 "\\(d.valid_to > the current time\\)"
  ON d.customer_id = r.customer_id
  AND d.valid_from <= now() AND d.valid_to > now();

-- A correlated lookup of the current row.
SELECT r.order_id,
       (SELECT country FROM dim.customer_snapshot  -- want BF702 "\"dim.customer_snapshot\" keeps only its current version \\(is_current\\)"
        WHERE customer_id = r.customer_id AND is_current) AS country
FROM raw.orders_events AS r;

-- A LATERAL lookup, an UPDATE ... FROM and a MERGE source read today's row
-- the same way.
SELECT r.order_id, x.country
FROM raw.orders_events AS r,
     LATERAL (SELECT d.country FROM dim.customer_snapshot AS d  -- want BF702 "\\(alias \"d\"\\) keeps only its current version \\(d.is_current\\)"
              WHERE d.customer_id = r.customer_id AND d.is_current) AS x;

UPDATE backfill_staging.fct_orders__bf20260826_a AS t
SET country = d.country
FROM dim.customer_snapshot AS d  -- want BF702 "\\(d.is_current = 'Y'\\)"
WHERE d.customer_id = t.customer_id AND d.is_current = 'Y';

MERGE INTO backfill_staging.fct_orders__bf20260826_a AS t
USING dim.customer_snapshot AS s  -- want BF702 "\\(s.valid_to >= '2999-12-31'\\)"
  ON t.customer_id = s.customer_id AND s.valid_to >= DATE '2999-12-31'
WHEN MATCHED THEN UPDATE SET country = s.country;
