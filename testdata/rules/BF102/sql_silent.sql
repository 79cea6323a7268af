-- Standalone SQL whose writes are bounded on both sides by literals.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260826_a AS
SELECT r.order_id, r.customer_id, r.order_ts, d.country, r.amount_minor
FROM raw.orders_events AS r
JOIN dim.customer_snapshot AS d
  ON d.customer_id = r.customer_id
 AND r.order_ts >= d.valid_from
 AND r.order_ts < d.valid_to
WHERE r.order_date BETWEEN DATE '2026-01-14' AND DATE '2026-06-30';

-- An exclusive upper bound, and the clock on a column that is not a
-- partition column.
INSERT INTO backfill_staging.fct_orders__bf20260826_b
SELECT order_id, order_date, now() AS loaded_at
FROM raw.orders_events
WHERE order_date >= '2026-01-14' AND order_date < '2026-07-01'
  AND updated_at < now();

-- The lower bound in a subquery, the upper bound outside it.
INSERT INTO backfill_staging.fct_orders__bf20260826_c
SELECT * FROM (
  SELECT * FROM raw.orders_events WHERE order_date >= '2026-01-14'
) AS o
WHERE o.order_date <= '2026-06-30';

-- One partition; a lower bound inside an IN subquery chooses no written row.
DELETE FROM analytics.fct_orders
WHERE order_date = DATE '2026-01-14'
  AND customer_id IN (SELECT customer_id FROM crm.customers WHERE signup_date >= '2026-01-01');

INSERT INTO analytics.fct_orders
REPLACE WHERE order_date BETWEEN '2026-01-14' AND '2026-06-30'
SELECT * FROM backfill_staging.fct_orders__bf20260826_a;

-- Queries write nothing, whatever they filter on.
SELECT COUNT(*) FROM analytics.fct_orders WHERE order_date >= CURRENT_DATE - 7;

-- TRUNCATE and DROP choose no rows by a predicate.
TRUNCATE TABLE backfill_staging.fct_orders__bf20260826_c;

-- A look-back from the run's date, bounded above by that date too.
DELETE FROM monitoring.flow_counts
WHERE submission_date > DATE_SUB(@submission_date, INTERVAL 3 DAY)
  AND submission_date <= @submission_date;
