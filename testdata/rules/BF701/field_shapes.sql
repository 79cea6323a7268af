-- Shapes of real warehouse code where the join does not bring a history
-- into another relation's rows, or already picks one version.

-- The history is the relation the query starts from: each of its versions
-- is a row of the result, placed in the period it falls in.
SELECT h.plan_id, h.price, h.valid_from, h.valid_to, p.period_name
FROM dim.plan_history AS h
JOIN ref.billing_periods AS p
  ON p.plan_id = h.plan_id
  AND h.valid_from >= p.started_at
  AND h.valid_from < p.ended_at;

-- The other side stores which version it was built with: a join on the
-- history's own row id picks that version.
SELECT s.subscription_id, hist.plan_name, hist.valid_from, hist.valid_to
FROM analytics.subscription_starts AS s
JOIN dim.plan_history AS hist
  ON s.plan_history_id = hist.id;

SELECT f.order_id, snap.segment, snap.dbt_valid_from, snap.dbt_valid_to
FROM analytics.fct_orders AS f
JOIN snapshots.customer_snapshot AS snap
  ON snap.dbt_scd_id = f.customer_dbt_scd_id;

-- Two histories overlapped on both ends of one interval: one row per pair
-- of versions that were in force together, by design.
SELECT s.subscription_id, c.country, GREATEST(s.valid_from, c.valid_from) AS valid_from, LEAST(s.valid_to, c.valid_to) AS valid_to
FROM analytics.subscription_history AS s
JOIN dim.customer_history AS c
  ON c.customer_id = s.customer_id
  AND s.valid_from < c.valid_from
  AND s.valid_to > c.valid_from;

-- Joined into another relation's rows, the same history still needs both
-- bounds: only its start is compared here (the statement shows valid_to
-- is one of its columns).
SELECT o.order_id, h.price, h.valid_to AS price_valid_to
FROM raw.orders AS o
JOIN dim.plan_history AS h  -- want BF701 "join to type-2 dimension \"dim.plan_history\" \\(alias \"h\"\\) compares \"h.valid_from\" but not \"h.valid_to\""
  ON h.plan_id = o.plan_id
  AND o.ordered_at >= h.valid_from;

-- One end of another history's interval is an event time, not an
-- overlap: each subscription row matches every earlier customer version.
SELECT s.subscription_id, c.country, c.valid_to AS country_valid_to
FROM analytics.subscription_history AS s
JOIN dim.customer_history AS c  -- want BF701 "compares \"c.valid_from\" but not \"c.valid_to\""
  ON c.customer_id = s.customer_id
  AND s.valid_from >= c.valid_from;
