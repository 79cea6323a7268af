-- Only the start of the version is compared with the order.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF701 "compares \"d.valid_from\" but not \"d.valid_to\" with the other side: each row matches every version that started before it"
  ON d.customer_id = r.customer_id
  AND r.order_ts >= d.valid_from
WHERE d.valid_to > DATE '2026-01-14';

-- Only the end: unqualified names say nothing about the dimension, and the
-- effective_* pair is recognised as well.
SELECT r.order_id, p.price
FROM raw.orders_events AS r
JOIN dim.price_history AS p  -- want BF701 "compares \"p.effective_to\" but not \"p.effective_from\""
  ON p.sku = r.sku
  AND p.effective_to > r.order_ts
WHERE p.effective_from IS NOT NULL;

-- A correlated lookup is a join too; its unqualified columns are the
-- dimension's own.
SELECT r.order_id,
       (SELECT country
        FROM dim.customer_snapshot  -- want BF701 "\"dim.customer_snapshot\" compares \"valid_from\" but not \"valid_to\""
        WHERE customer_id = r.customer_id
          AND valid_from <= r.order_ts
          AND valid_to IS NOT NULL) AS country
FROM raw.orders_events AS r;

-- A negated OR that rules out only the versions that start later still
-- matches every earlier one.
SELECT r.order_id, d.country
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF701 "compares \"d.valid_from\" but not \"d.valid_to\""
  ON d.customer_id = r.customer_id
  AND NOT (d.valid_from > r.order_ts OR r.order_id IS NULL)
WHERE d.valid_to IS NOT NULL;
