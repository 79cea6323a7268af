-- 1. Recompute the range into staging, from the raw layer and an as-of
-- dimension snapshot. Note the upper bound: the current partition is
-- owned by the scheduled pipeline and is never in a backfill range.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS  -- want BF207:error "the build fills \"backfill_staging.fct_orders__bf20260826_a\" without \"order_date\" \\(range.partition_column\\): staged rows carry no partition"
SELECT
 r.order_id,
 r.customer_id,
 r.order_ts,
 d.country, -- as of the order, not as of today
 r.amount_minor,
 r.is_refunded,
 CASE WHEN r.is_refunded THEN 0 ELSE r.amount_minor END AS net_amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
 ON d.customer_id = r.customer_id
 AND r.order_ts >= d.valid_from
 AND r.order_ts < d.valid_to -- the join that makes it history, not now
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';
