-- The configuration says dim.*_history are type-2, so the plain join is
-- reported although the SQL never names a validity column.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_history AS d  -- want BF701 "\"dim.customer_history\" \\(alias \"d\", listed in scd2.relations\\) compares neither \"d.valid_from\" nor \"d.valid_to\""
  ON d.customer_id = r.customer_id
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- The pattern matches the last two parts of a longer name too.
SELECT r.order_id, p.price
FROM raw.orders_events AS r
JOIN warehouse.dim.price_history p ON p.sku = r.sku;  -- want BF701 "\"warehouse.dim.price_history\" \\(alias \"p\", listed in scd2.relations\\)"
