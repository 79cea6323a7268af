-- The dimension is pinned to one date instead of each order's time: every
-- order in the range gets the customer's attributes as of 2026-06-30.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF701:error "\"dim.customer_snapshot\" \\(alias \"d\"\\) compares neither \"d.valid_from\" nor \"d.valid_to\" with a column of the other side: each row matches every version of its key"
  ON d.customer_id = r.customer_id
  AND d.valid_from <= DATE '2026-06-30'
  AND d.valid_to > DATE '2026-06-30'
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- The versions are selected for auditing, but the join takes all of them.
SELECT r.order_id, d.country, d.valid_from, d.valid_to
FROM raw.orders_events r, dim.customer_snapshot d  -- want BF701 "compares neither"
WHERE d.customer_id = r.customer_id;
