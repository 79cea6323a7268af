-- The seed's build with the as-of join replaced by the current row: every
-- order since January is attributed to the customer's country of today.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d  -- want BF702:error "join to type-2 dimension \"dim.customer_snapshot\" \\(alias \"d\"\\) keeps only its current version \\(d.is_current\\): every row, however old, gets today's attributes, so the backfill rebuilds history"
  ON d.customer_id = r.customer_id
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30'
  AND d.is_current;

-- Joined on a key that may be the durable one (a *_pk names either):
-- the flag picks today's row.
SELECT a.activity_id, v.block_title
FROM raw.learner_activity AS a
LEFT JOIN dim.content_block_history AS v  -- want BF702 "keeps only its current version \\(v.is_current\\)"
  ON v.content_block_pk = a.content_block_fk
 AND v.is_current;
