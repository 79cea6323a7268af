-- Control period 2026-07-01..2026-07-31, before the faulty deploy: the
-- corrected query has to reproduce what the target already holds there.
-- The same build is staged for July next to this run's staging table, then
-- compared row by row with the target. Passes when changed_rows = 0.
CREATE OR REPLACE TABLE backfill_staging.fct_orders__bf20260803_a_control
PARTITION BY order_date
AS
SELECT
    order_id,
    customer_id,
    order_date,
    order_ts,
    currency,
    amount_minor,
    discount_minor,
    amount_minor - discount_minor AS net_amount_minor
FROM analytics.stg_orders
WHERE order_date BETWEEN DATE '2026-07-01' AND DATE '2026-07-31';

SELECT COUNT(*) AS changed_rows
FROM backfill_staging.fct_orders__bf20260803_a_control AS c
FULL OUTER JOIN (
    SELECT order_id, customer_id, order_date, order_ts, currency,
           amount_minor, discount_minor, net_amount_minor
    FROM analytics.fct_orders
    WHERE order_date BETWEEN DATE '2026-07-01' AND DATE '2026-07-31'
) AS t
    ON t.order_id = c.order_id
WHERE c.order_id IS NULL
   OR t.order_id IS NULL
   OR c.customer_id IS DISTINCT FROM t.customer_id
   OR c.order_date IS DISTINCT FROM t.order_date
   OR c.order_ts IS DISTINCT FROM t.order_ts
   OR c.currency IS DISTINCT FROM t.currency
   OR c.amount_minor IS DISTINCT FROM t.amount_minor
   OR c.discount_minor IS DISTINCT FROM t.discount_minor
   OR c.net_amount_minor IS DISTINCT FROM t.net_amount_minor;
