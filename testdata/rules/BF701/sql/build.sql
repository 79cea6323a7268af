-- "Swap it for a plain join on customer_id and every step still runs": the
-- validity columns are carried along, but nothing compares them with the order.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT
  r.order_id,
  r.customer_id,
  r.order_ts,
  r.order_date,
  d.country,
  d.valid_from AS customer_valid_from,
  d.valid_to AS customer_valid_to,
  r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF701 "join to type-2 dimension \"dim.customer_snapshot\" \\(alias \"d\"\\) compares neither.*; join the version valid at the row's time: <event time> >= d.valid_from AND <event time> < d.valid_to"
  ON d.customer_id = r.customer_id
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
